import BlueZ
import Bridge
import DBus
@testable import DaydreamCore
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct ManagerTests {
    typealias Rig = ManagerRig

    @Test func discoveryUsesTheFE55FilterAndMatchesByNameOrService() throws {
        let rig = try Rig(policy: .none)
        defer { rig.stop() }
        rig.manager.start()
        rig.manager.startDiscovery()
        try rig.wait("discovery") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        let filter = try rig.fake.state()["filter"] as? [String: Any]
        // No UUID filter: a Gear VR advertises its name, not its data service.
        #expect(filter?["UUIDs"] == nil)
        #expect(filter?["Transport"] as? String == "le")

        try rig.fake.command("add_device", ["address": Rig.first, "name": "Daydream controller"])
        try rig.fake.command("add_device", ["address": Rig.second, "name": "DD-2", "uuids": ["0000FE55-0000-1000-8000-00805F9B34FB"]])
        try rig.fake.command("add_device", ["address": Rig.speaker, "name": "Daydream controller 2", "uuids": ["0000110b-0000-1000-8000-00805f9b34fb"]])
        try rig.wait("two sightings") { Set(rig.sightings).count == 2 }
        try rig.sync()
        #expect(Set(rig.sightings) == [Rig.first, Rig.second])
        // Policy none: nothing is connected.
        #expect(rig.manager.knownControllers.isEmpty)
        #expect(try !rig.fake.log().contains { $0.hasPrefix("Connect") })

        rig.manager.stopDiscovery()
        try rig.wait("discovery to stop") { (try? rig.fake.state()["discovering"] as? Bool) == false }
    }

    /// bluetoothd answers InProgress while the kernel still runs an earlier discovery (one a
    /// crashed bluetoothd left behind, until it times out): nothing else would ask again, so
    /// the manager does, until discovery starts.
    @Test func aBusyStartDiscoveryIsTriedAgain() throws {
        let rig = try Rig(policy: .none) { $0.discoveryRetryDelay = .milliseconds(50) }
        defer { rig.stop() }
        try rig.fake.command("configure_adapter", ["busy_discovery_starts": 3])
        rig.manager.start()
        rig.manager.startDiscovery()
        try rig.wait("discovery after three busy answers") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        #expect(try rig.fake.log().filter { $0.hasPrefix("StartDiscovery") }.count == 4)
        #expect(rig.log.lines.filter { $0.contains("InProgress") }.count == 3)
        #expect(rig.log.lines.filter { $0 == "discovery: starting -> busy on busy" }.count == 3)

        // Stopped while busy: no retry starts it behind the user's back.
        rig.manager.stopDiscovery()
        try rig.wait("discovery to stop") { (try? rig.fake.state()["discovering"] as? Bool) == false }
        try rig.fake.command("configure_adapter", ["busy_discovery_starts": 1])
        rig.manager.startDiscovery()
        rig.manager.stopDiscovery()
        try rig.wait("the busy answer") { rig.log.lines.filter { $0.contains("InProgress") }.count == 4 }
        // Five retry delays: a retry that ignored the stop would have asked by then.
        _ = rig.reactor.run(until: { false }, timeout: .milliseconds(250))
        try rig.sync()
        #expect(try rig.fake.log().filter { $0.hasPrefix("StartDiscovery") }.count == 5)
        #expect((try rig.fake.state()["discovering"] as? Bool) == false)
    }

    @Test func theAgentAcceptsTheRequestedControllerAndRefusesEverythingElse() throws {
        let rig = try Rig(devices: [
            Rig.controller(Rig.first, paired: false), Rig.controller(Rig.second, paired: false),
            ["address": Rig.speaker, "name": "Speaker"],
        ])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        var outcome: Result<ControllerFeed, PairingError>?
        rig.manager.pair(address: Rig.first) { outcome = $0 }
        try rig.wait("pairing") { outcome != nil }
        let controller = try outcome?.get()
        #expect(controller?.address == Rig.first)
        let devices = try rig.fake.state()["devices"] as? [String: [String: Any]]
        #expect(devices?[Rig.first]?["Paired"] as? Bool == true)
        #expect(devices?[Rig.first]?["Trusted"] as? Bool == true)
        #expect(rig.manager.agent.decisions == ["RequestConfirmation \(Rig.first) accepted"])
        #expect(try rig.fake.log().contains("RegisterAgent \(PairingAgent.path) NoInputNoOutput"))
        // Paired, trusted: it connects and streams; the agent, its pairing over, is unregistered.
        try rig.wait("the connection") { controller?.isConnected == true }
        try rig.wait("the agent unregistered") { (try? rig.fake.state()["agent"]) is NSNull }

        // Registered again (the next pairing would), anything else is refused: another Daydream
        // controller nobody asked to pair, a speaker, the paired controller once its pairing is
        // over, PIN requests.
        var registered: Result<Void, DBusError>?
        rig.manager.agent.register { registered = $0 }
        try rig.wait("the agent registered") { registered != nil }
        for (address, method) in [(Rig.second, "RequestConfirmation"), (Rig.second, "RequestAuthorization"),
                                  (Rig.speaker, "RequestAuthorization"), (Rig.speaker, "AuthorizeService"),
                                  (Rig.first, "RequestAuthorization"), (Rig.first, "RequestPinCode"),
                                  (Rig.first, "RequestPasskey")] {
            var args: [Any] = []
            if method == "RequestConfirmation" { args = [123456] }
            if method == "AuthorizeService" { args = ["0000110b-0000-1000-8000-00805f9b34fb"] }
            let answer = try rig.fake.command("agent", ["address": address, "method": method, "args": args]) as? String
            #expect(answer == "org.bluez.Error.Rejected", "\(method) for \(address)")
        }
        // Pairing a device that is not a Daydream controller is refused before BlueZ is asked.
        var refused: Result<ControllerFeed, PairingError>?
        rig.manager.pair(address: Rig.speaker) { refused = $0 }
        try rig.wait("refusal") { refused != nil }
        #expect(throws: PairingError.self) { try refused?.get() }
        #expect(try !rig.fake.log().contains("Pair /org/bluez/hci0/dev_AA_00_00_00_00_09"))
    }

    @Test func aStaleBondTellsTheUserToForgetAndPairAgain() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["connect_error": "org.bluez.Error.AuthenticationFailed"])])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the stale bond report") { rig.problems.contains(.staleBond(address: Rig.first)) }
        // The library says what is wrong; the command line, which command cures it.
        let problem = DaydreamControllerManager.Problem.staleBond(address: Rig.first)
        #expect(problem.description.contains("stale bond") && !problem.description.contains("daydream-bridge"))
        #expect(problem.advice.contains("daydream-bridge forget \(Rig.first)"))
        #expect(problem.advice.contains("daydream-bridge pair"))

        let pairing = try Rig(devices: [Rig.controller(Rig.second, paired: false, ["pair_error": "org.bluez.Error.AuthenticationRejected"])])
        defer { pairing.stop() }
        pairing.manager.start()
        try pairing.wait("the cache") { pairing.manager.client.isReady }
        var outcome: Result<ControllerFeed, PairingError>?
        pairing.manager.pair(address: Rig.second) { outcome = $0 }
        try pairing.wait("pairing") { outcome != nil }
        guard case .failure(let error) = outcome else { throw TestFailure("pairing should fail") }
        #expect(error.isStaleBond)
        #expect(error.cause == .problem(.staleBond(address: Rig.second)))
        #expect(error.advice.contains("daydream-bridge forget \(Rig.second)"))
    }

    @Test func acquireNotifyStreamsPacketsAndBadOnesAreCounted() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let notes = NotificationRecorder([.DDControllerDidConnect, .DDControllerDidUpdateBatteryLevel])
        defer { notes.stop() }
        let controller = try rig.connected(Rig.first)
        #expect(rig.manager.notifyMethod(of: controller) == .acquireNotify)
        #expect(notes.names.contains("DDControllerDidConnect \(Rig.first)"))
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the packet") { controller.statistics.received == 1 }
        #expect(controller.volumeUpButton.isPressed)
        try rig.send(Rig.first, "0102030405")
        try rig.send(Rig.first, Rig.restPacket + "00")
        try rig.send(Rig.first, Rig.restPacket)
        try rig.wait("three more") { controller.statistics.received + controller.statistics.malformed == 4 }
        #expect(controller.statistics.malformed == 2)
        #expect(!controller.volumeUpButton.isPressed)

        // Battery and the six Device Information strings.
        try rig.wait("battery and info") { controller.batteryLevel != nil && controller.softwareVersion != nil }
        #expect(controller.batteryLevel == 0.85)
        #expect(notes.names.contains("DDControllerDidUpdateBatteryLevel \(Rig.first)"))
        try rig.wait("all info") {
            controller.manufacturer != nil && controller.modelNumber != nil && controller.serialNumber != nil
                && controller.hardwareVersion != nil && controller.firmwareVersion != nil
        }
        #expect(controller.manufacturer == "Google Inc.")
        #expect(controller.modelNumber == "Daydream controller")
        #expect(controller.serialNumber == "SN0001")
        #expect(controller.hardwareVersion == "0005.0003")
        #expect(controller.firmwareVersion == "1.3.5")
        #expect(controller.softwareVersion == "825769af")
        // Never a write, least of all to FEF5 or 00000002.
        #expect(try !rig.fake.log().contains { $0.hasPrefix("WriteValue") })
    }

    @Test func startNotifyIsTheFallbackWhenAcquireNotifyIsRefused() throws {
        for refusal in ["org.bluez.Error.NotSupported", "org.bluez.Error.NotPermitted"] {
            let rig = try Rig(devices: [Rig.controller(Rig.first, ["refuse_acquire": refusal])])
            defer { rig.stop() }
            let controller = try rig.connected(Rig.first)
            #expect(rig.manager.notifyMethod(of: controller) == .startNotify)
            try rig.send(Rig.first, Rig.volumeUpPacket)
            try rig.wait("the packet") { controller.volumeUpButton.isPressed }
            try rig.send(Rig.first, "00")
            try rig.wait("the bad packet") { controller.statistics.malformed == 1 }
        }
    }

    @Test func batteryNotificationsAndOnDemandReads() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first), Rig.controller(Rig.second, ["battery_notify": false])])
        defer { rig.stop() }
        let first = try rig.connected(Rig.first)
        try rig.wait("second") { rig.manager.controller(address: Rig.second)?.isConnected == true }
        let second = try #require(rig.manager.controller(address: Rig.second))
        try rig.wait("battery reads") { first.batteryLevel != nil && second.batteryLevel != nil }
        try rig.wait("battery subscription") { (try? rig.fake.log().contains { $0.hasPrefix("StartNotify") && $0.hasSuffix("char0002") }) == true }
        try rig.fake.command("set_battery", ["address": Rig.first, "percent": 40])
        try rig.wait("the notified level") { first.batteryLevel == 0.4 }
        // The second cannot notify: it is read on demand.
        try rig.fake.command("set_battery", ["address": Rig.second, "percent": 12])
        #expect(second.batteryLevel == 0.85)
        second.updateBatteryLevel()
        try rig.wait("the read level") { second.batteryLevel == 0.12 }
    }

    @Test func aBatteryThatCannotNotifyIsPolled() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["battery_notify": false])]) {
            $0.batteryPollInterval = .milliseconds(100)
        }
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.wait("the first reading") { controller.batteryLevel == 0.85 }
        // No signal for a characteristic that cannot notify: only a read finds the new level.
        try rig.fake.command("set_battery", ["address": Rig.first, "percent": 30])
        try rig.wait("the polled level") { controller.batteryLevel == 0.3 }
    }

    @Test func oneBatteryReadIsOneUpdate() throws {
        // bluetoothd signals the value a read fetched as well as replying with it.
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let notes = NotificationRecorder([.DDControllerDidUpdateBatteryLevel])
        defer { notes.stop() }
        let controller = try rig.connected(Rig.first)
        let reads = { try rig.fake.log().filter { $0.hasPrefix("ReadValue") && $0.hasSuffix("char0002") }.count }
        try rig.wait("the battery subscription") { (try? rig.fake.log().contains { $0.hasPrefix("StartNotify") && $0.hasSuffix("char0002") }) == true }
        try rig.wait("the first reading") { controller.batteryLevel != nil }
        try rig.sync()
        #expect(try reads() == 1)
        #expect(notes.names.count == 1, "\(notes.names)")
        controller.updateBatteryLevel()
        try rig.wait("the read") { (try? reads()) == 2 }
        try rig.sync()
        #expect(notes.names.count == 2, "\(notes.names)")
        try rig.fake.command("set_battery", ["address": Rig.first, "percent": 40])
        try rig.wait("the notified level") { controller.batteryLevel == 0.4 }
        #expect(notes.names.count == 3, "\(notes.names)")
    }

    @Test func twoControllersStreamSeparately() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first), Rig.controller(Rig.second)])
        defer { rig.stop() }
        let first = try rig.connected(Rig.first)
        try rig.wait("second") { rig.manager.controller(address: Rig.second)?.isConnected == true }
        let second = try #require(rig.manager.controller(address: Rig.second))
        #expect(first !== second)
        #expect(Set(rig.manager.connectedControllers.map(\.address)) == [Rig.first, Rig.second])
        try rig.send(Rig.second, Rig.volumeUpPacket)
        try rig.send(Rig.first, Rig.restPacket)
        try rig.wait("both packets") { first.statistics.received == 1 && second.statistics.received == 1 }
        #expect(second.volumeUpButton.isPressed)
        #expect(!first.volumeUpButton.isPressed)
    }

    @Test func aDisconnectReleasesHeldButtonsAndTheSameObjectReconnects() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let notes = NotificationRecorder([.DDControllerDidConnect, .DDControllerDidDisconnect])
        defer { notes.stop() }
        let controller = try rig.connected(Rig.first)
        var presses: [Bool] = []
        controller.volumeUpButton.pressedChangedHandler = { _, pressed in presses.append(pressed) }
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the press") { presses == [true] }

        // It walks out of range: reported at once, the button reads released.
        try rig.fake.command("drop", ["address": Rig.first, "present": false])
        try rig.wait("the disconnect") { !controller.isConnected }
        #expect(presses == [true, false])
        #expect(!controller.volumeUpButton.isPressed)
        #expect(rig.events == ["added \(Rig.first)", "connected \(Rig.first)", "disconnected \(Rig.first)"])
        #expect(rig.manager.knownControllers.map(\.address) == [Rig.first])
        #expect(rig.manager.connectedControllers.isEmpty)

        // Attempts fail while it is away; it comes back (advertises): the same object reconnects.
        try rig.wait("a failed attempt") { ((try? rig.fake.log()) ?? []).filter { $0.hasPrefix("Connect") }.count >= 2 }
        try rig.fake.command("configure", ["address": Rig.first, "present": true])
        try rig.fake.command("set_property", ["path": "/org/bluez/hci0/dev_C0_DD_EE_00_00_01", "interface": "org.bluez.Device1",
                                              "name": "RSSI", "value": -40, "type": "n"])
        try rig.wait("the reconnect") { controller.isConnected }
        #expect(rig.manager.controller(address: Rig.first) === controller)
        #expect(notes.names == ["DDControllerDidConnect \(Rig.first)", "DDControllerDidDisconnect \(Rig.first)",
                                "DDControllerDidConnect \(Rig.first)"])
        #expect(rig.events.filter { $0.hasPrefix("added") } == ["added \(Rig.first)"])
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("packets again") { controller.volumeUpButton.isPressed }
    }

    @Test func theDeviceObjectVanishesAndReappears() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.fake.command("remove_device", ["address": Rig.first])
        try rig.wait("the disconnect") { !controller.isConnected }
        // Discovery keeps running while a known controller is away.
        try rig.wait("discovery") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        try rig.fake.command("add_device", Rig.controller(Rig.first))
        try rig.wait("the reconnect") { controller.isConnected }
        #expect(rig.manager.controller(address: Rig.first) === controller)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("packets again") { controller.volumeUpButton.isPressed }
    }

    @Test func gattObjectsAppearingWhileSubscribingStartNoSecondSubscription() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["late_gatt": true])])
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.sync()
        let calls = try rig.fake.log()
        #expect(calls.filter { $0.hasPrefix("AcquireNotify") }.count == 1, "\(calls)")
        #expect(!calls.contains { $0.hasPrefix("StartNotify") && $0.contains("char0015") }, "\(calls)")
        #expect(rig.manager.notifyMethod(of: controller) == .acquireNotify)
    }

    @Test func newerBlueZsKeyMissingIsAStaleBond() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["connect_error": "org.bluez.Error.Failed",
                                                               "connect_error_message": "le-connection-key-missing"])])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the stale bond report") { rig.problems.contains(.staleBond(address: Rig.first)) }
        // The same name with another reason is an ordinary failure.
        #expect(!DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local").isAuthenticationFailure)
    }

    @Test func bluetoothdStoppingJustAsAConnectFailsPointsAtTheBond() throws {
        // BlueZ 5.66 answers Connect for a controller that lost its keys, then crashes.
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["connect_error": "org.bluez.Error.Failed",
                                                               "connect_error_message": "le-connection-abort-by-local"])],
                          maximumReconnectDelay: .seconds(5))
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("a connect attempt") { (try? rig.fake.log().contains { $0.hasPrefix("Connect") }) == true }
        try rig.sync()
        try rig.fake.command("stop")
        try rig.wait("the report") { rig.problems.contains(.bluetoothdMissing) }
        #expect(rig.problems.contains(.bluetoothdStoppedWhileConnecting(address: Rig.first)))
        let problem = DaydreamControllerManager.Problem.bluetoothdStoppedWhileConnecting(address: Rig.first)
        #expect(!problem.description.contains("daydream-bridge"))
        #expect(problem.advice.contains("daydream-bridge forget \(Rig.first)") && problem.advice.contains("daydream-bridge pair"))

        // bluetoothd is back: the manager holds off connecting this controller, so that
        // it does not bring bluetoothd down again before the user can forget it.
        let connects = { try rig.fake.log().filter { $0.hasPrefix("Connect") }.count }
        let before = try connects()
        try rig.fake.command("start")
        try rig.wait("the controller in the cache") { rig.manager.client.cache.device(address: Rig.first) != nil }
        var waited = false
        let timer = rig.reactor.schedule(at: rig.reactor.now + .seconds(1)) { waited = true }
        defer { timer.cancel() }
        try rig.wait("a second") { waited }
        #expect(try connects() == before, "connected again within the hold-off")
    }

    @Test func bluetoothdRestartsAndTheControllerComesBack() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the press") { controller.volumeUpButton.isPressed }
        try rig.fake.command("stop")
        // The socket's hang-up and NameOwnerChanged may come in either order.
        try rig.wait("the disconnect and the report") { !controller.isConnected && rig.problems.contains(.bluetoothdMissing) }
        #expect(!controller.volumeUpButton.isPressed)
        try rig.fake.command("start")
        try rig.wait("the reconnect") { controller.isConnected }
        #expect(rig.manager.controller(address: Rig.first) === controller)
        #expect(!rig.problems.contains(.bluetoothdStoppedWhileConnecting(address: Rig.first)))
        try rig.send(Rig.first, Rig.restPacket)
        try rig.wait("packets again") { controller.statistics.received == 2 }
    }

    /// The embedding program gives the manager its log: the lines go there, in the library's
    /// words, naming no program.
    @Test func theManagerLogsThroughTheSinkItIsGiven() throws {
        let rig = try Rig(adapter: nil)
        defer { rig.stop() }
        rig.manager.start()
        rig.manager.startDiscovery()
        try rig.wait("the report") { rig.problems.contains(.noAdapter) }
        #expect(rig.log.lines.contains("no Bluetooth adapter (waiting for one)"), "\(rig.log.lines)")
        #expect(!rig.log.lines.contains { $0.contains("daydream-bridge") })
    }

    /// A program with its own words for a problem is told each new one once, and the manager
    /// then logs none itself.
    @Test func aProgramAnnouncesNewProblemsInItsOwnWords() throws {
        let rig = try Rig(adapter: nil)
        defer { rig.stop() }
        var announced: [DaydreamControllerManager.Problem] = []
        rig.manager.announceProblem = { announced.append($0) }
        rig.manager.start()
        rig.manager.startDiscovery()
        try rig.wait("the report") { rig.problems.contains(.noAdapter) }
        #expect(announced == [.noAdapter])
        #expect(!rig.log.lines.contains { $0.contains("no Bluetooth adapter") })
    }

    @Test func aMissingAdapterIsReportedThenUsedWhenItAppears() throws {
        let rig = try Rig(adapter: nil)
        defer { rig.stop() }
        rig.manager.start()
        rig.manager.startDiscovery()
        try rig.wait("the report") { rig.problems.contains(.noAdapter) }
        #expect(DaydreamControllerManager.Problem.noAdapter.description == "no Bluetooth adapter (waiting for one)")
        #expect(DaydreamControllerManager.Problem.noAdapter.advice.contains("rfkill list"))
        try rig.fake.command("add_adapter", ["powered": false])
        // Powered on, then discovering.
        try rig.wait("discovery") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        #expect(try rig.fake.state()["powered"] as? Bool == true)
        // The user turns it off: the manager says so and waits, without fighting.
        try rig.fake.command("set_property", ["path": "/org/bluez/hci0", "interface": "org.bluez.Adapter1",
                                              "name": "Powered", "value": false])
        try rig.wait("the report") { rig.problems.contains { if case .adapterOff = $0 { true } else { false } } }
        #expect(try rig.fake.state()["powered"] as? Bool == false)
        #expect(try rig.fake.log().filter { $0.hasPrefix("Set.Adapter1.Powered") }.count == 1)
    }

    /// The adapter's and discovery's machines over the bus: bluetoothd without an adapter, the
    /// grace, an adapter that is off, powering it on, discovering.
    @Test func theManagersMachinesGoThroughTheirNamedStatesOverTheBus() throws {
        let rig = try Rig(adapter: nil) { $0.adapterGracePeriod = .milliseconds(200) }
        defer { rig.stop() }
        rig.manager.start()
        rig.manager.startDiscovery()
        try rig.wait("the report") { rig.problems.contains(.noAdapter) }
        try rig.fake.command("add_adapter", ["powered": false])
        try rig.wait("discovery") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        try rig.sync()
        let adapter = rig.log.lines.filter { $0.hasPrefix("adapter: ") && $0.contains(" -> ") }
        #expect(Array(adapter.prefix(3)) == [
            "adapter: unknown -> awaited on service appeared",
            "adapter: awaited -> missing on adapter missing",
            "adapter: missing -> powering on on power on sent",
        ])
        // The answer to PowerOn and the Powered signal may come in either order.
        #expect(adapter.last?.hasSuffix(" -> powered on adapter powered") == true, "\(adapter)")
        #expect(rig.log.lines.filter { $0.hasPrefix("discovery: ") }
            == ["discovery: off -> starting on start", "discovery: starting -> on on started"])
    }

    @Test func anAdapterThatAppearsJustAfterBluetoothdIsNotReportedMissing() throws {
        // Real bluetoothd takes its bus name, then reads its adapters from the kernel.
        let rig = try Rig(adapter: nil)
        defer { rig.stop() }
        rig.manager.start()
        rig.manager.startDiscovery()
        try rig.sync()
        try rig.fake.command("add_adapter", ["powered": true])
        try rig.wait("discovery") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        // Past the grace period: still nothing to report.
        var graceOver = false
        let timer = rig.reactor.schedule(at: rig.reactor.now + rig.manager.options.adapterGracePeriod + .milliseconds(200)) { graceOver = true }
        defer { timer.cancel() }
        try rig.wait("the grace period's end") { graceOver }
        #expect(rig.problems.isEmpty, "reported: \(rig.problems)")
    }

    @Test func losingTheBusReleasesControllersAndReportsTheLoss() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("the press") { controller.volumeUpButton.isPressed }
        rig.bus.stop()
        try rig.wait("the loss") { rig.problems.contains(.busLost) }
        #expect(!controller.isConnected)
        #expect(!controller.volumeUpButton.isPressed)
    }

    @Test func pairNextControllerWaitsForAnUnpairedControllerAndPairsOnlyIt() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first), ["address": Rig.speaker, "name": "Speaker"]])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        var outcome: Result<ControllerFeed, PairingError>?
        let request = rig.manager.pairNextController { outcome = $0 }
        try rig.wait("discovery") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        try rig.sync()
        #expect(request.pairingAddress == nil)
        try rig.fake.command("add_device", Rig.controller(Rig.second, paired: false))
        try rig.wait("pairing") { outcome != nil }
        #expect(try outcome?.get().address == Rig.second)
        #expect(request.pairingAddress == Rig.second)
        let pairs = try rig.fake.log().filter { $0.hasPrefix("Pair ") }
        #expect(pairs == ["Pair /org/bluez/hci0/dev_C0_DD_EE_00_00_02"])
        try rig.wait("the connection") { rig.manager.controller(address: Rig.second)?.isConnected == true }
    }

    /// `pair`'s policy: pairing one controller never connects another paired before.
    @Test func pairingOneControllerLeavesAnotherPairedOneAlone() throws {
        let rig = try Rig(policy: .requestedOnly, devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        var outcome: Result<ControllerFeed, PairingError>?
        _ = rig.manager.pairNextController { outcome = $0 }
        try rig.wait("discovery") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        try rig.fake.command("add_device", Rig.controller(Rig.second, paired: false))
        try rig.wait("pairing") { outcome != nil }
        #expect(try outcome?.get().address == Rig.second)
        try rig.wait("the connection") { rig.manager.controller(address: Rig.second)?.isConnected == true }
        try rig.sync()
        let connects = try rig.fake.log().filter { $0.hasPrefix("Connect ") }
        #expect(!connects.contains { $0.hasSuffix("dev_C0_DD_EE_00_00_01") }, "\(connects)")
        #expect(rig.manager.controller(address: Rig.first) == nil)
    }

    @Test func theBatteryComesFromBlueZsBatteryPluginWhenItClaimsTheService() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["battery_plugin": true])])
        defer { rig.stop() }
        let controller = try rig.connected(Rig.first)
        try rig.wait("the level") { controller.batteryLevel == 0.85 }
        try rig.fake.command("set_battery", ["address": Rig.first, "percent": 33])
        try rig.wait("the change") { controller.batteryLevel == 0.33 }
        #expect(try !rig.fake.log().contains { $0.hasPrefix("ReadValue") && $0.hasSuffix("char0002") })
    }
}
