import BlueZ
import DBus
@testable import DaydreamCore
import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

/// Pairing only on the user's intent, and only a device that checks out:
/// the name and FE55 are spoofable, and a look-alike with a HID service gets
/// a keyboard from bluetoothd. A device is looked at unbonded and bonded only
/// when its services are the controller's; a HID service, at any moment, gets
/// it blocked (the link drops at once) and removed.
@MainActor
@Suite(.serialized, .requires(TestEnvironment.canRunDBusTests, "needs dbus-daemon, python3-dbus, python3-gi"))
struct PairingSafetyTests {
    typealias Rig = ManagerRig
    static let hid = "00001812-0000-1000-8000-00805f9b34fb"
    static let fe55 = "0000fe55-0000-1000-8000-00805f9b34fb"

    func devices(_ rig: Rig) throws -> [String: [String: Any]] {
        try rig.fake.state()["devices"] as? [String: [String: Any]] ?? [:]
    }

    func path(_ address: String) -> String { "/org/bluez/hci0/dev_" + address.replacingOccurrences(of: ":", with: "_") }

    func pair(_ rig: Rig, _ address: String) throws -> Result<ControllerFeed, PairingError> {
        var outcome: Result<ControllerFeed, PairingError>?
        rig.manager.pair(address: address) { outcome = $0 }
        try rig.wait("the pairing's end") { outcome != nil }
        return try #require(outcome)
    }

    @Test func discoveryConnectsPairedControllersAndPairsNothing() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let known = try rig.connected(Rig.first)
        rig.manager.startDiscovery()
        try rig.fake.command("add_device", Rig.controller(Rig.second, paired: false))
        try rig.wait("the sighting") { rig.sightings.contains(Rig.second) }
        try rig.sync()
        #expect(known.isConnected)
        #expect(rig.manager.controller(address: Rig.second) == nil)
        #expect(try !rig.fake.log().contains { $0.hasSuffix(path(Rig.second)) && !$0.hasPrefix("GetManagedObjects") })
        #expect(rig.manager.agent.decisions.isEmpty)
    }

    @Test func aLookAlikeWithAHIDServiceIsBlockedAndRemovedWithoutEverBeingBonded() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first), Rig.controller(Rig.second, paired: false, ["hid_service": true])])
        defer { rig.stop() }
        let known = try rig.connected(Rig.first)
        guard case .failure(let error) = try pair(rig, Rig.second) else { throw TestFailure("the look-alike was kept") }
        #expect(error.address == Rig.second)
        #expect(error.description.contains("HID service (0x1812)"), "\(error)")
        #expect(error.description.contains("removed it"), "\(error)")
        // Looked at over an unbonded link, never bonded, never Trusted, no link.
        let log = try rig.fake.log()
        #expect(log.contains("Connect \(path(Rig.second))"), "\(log)")
        #expect(!log.contains("Pair \(path(Rig.second))"), "\(log)")
        #expect(!rig.manager.agent.decisions.contains { $0.contains(Rig.second) && $0.hasSuffix("accepted") })
        // Blocked first (bluetoothd drops the link and its HID profile at once), Disconnect (off the
        // kernel's auto-connect list), then removed.
        let blocked = try #require(log.firstIndex(of: "Set.Device1.Blocked \(path(Rig.second))"), "\(log)")
        let disconnected = try #require(log.firstIndex(of: "Disconnect \(path(Rig.second))"), "\(log)")
        let removed = try #require(log.firstIndex(of: "RemoveDevice /org/bluez/hci0"), "\(log)")
        #expect(blocked < disconnected && disconnected < removed, "\(log)")
        #expect(!log.contains("Set.Device1.Trusted \(path(Rig.second))"))
        #expect(!log.contains { $0.hasPrefix("AcquireNotify \(path(Rig.second))") })
        #expect(try devices(rig)[Rig.second] == nil)
        #expect(rig.manager.knownControllers.map(\.address) == [Rig.first])
        #expect(rig.problems.contains { if case .pairingFailed(Rig.second, _) = $0 { true } else { false } })
        // The known controller is untouched and still streams.
        #expect(known.isConnected)
        try rig.send(Rig.first, Rig.volumeUpPacket)
        try rig.wait("its packet") { known.volumeUpButton.isPressed }
    }

    @Test func aLookAlikeWithoutTheInputCharacteristicIsRemoved() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false, ["daydream_input": false])])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        guard case .failure(let error) = try pair(rig, Rig.first) else { throw TestFailure("the look-alike was kept") }
        #expect(error.description.contains("no Daydream input characteristic"), "\(error)")
        #expect(try devices(rig)[Rig.first] == nil)
        #expect(try !rig.fake.log().contains("Set.Device1.Trusted \(path(Rig.first))"))
    }

    @Test func aDeviceAdvertisingAHIDServiceIsNotEvenPaired() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false, [
            "uuids": ["0000fe55-0000-1000-8000-00805f9b34fb", Self.hid],
        ])])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        guard case .failure(let error) = try pair(rig, Rig.first) else { throw TestFailure("paired") }
        #expect(error.description.contains("HID service"), "\(error)")
        #expect(try !rig.fake.log().contains { $0.hasPrefix("Pair ") || $0.hasPrefix("Connect ") })
    }

    @Test func aControllerIsLookedAtUnbondedThenBondedThenTrusted() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false)])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        let controller = try pair(rig, Rig.first).get()
        // Pairing returns before the stream subscribes: read the log once it has.
        try rig.wait("the connection") { controller.isConnected }
        let log = try rig.fake.log()
        let connect = try #require(log.firstIndex(of: "Connect \(path(Rig.first))"))
        let trusted = try #require(log.firstIndex(of: "Set.Device1.Trusted \(path(Rig.first))"))
        let pairCall = try #require(log.firstIndex(of: "Pair \(path(Rig.first))"))
        #expect(connect < pairCall && pairCall < trusted, "\(log)")
        #expect(rig.manager.agent.decisions == ["RequestConfirmation \(Rig.first) accepted"])
        // No subscription before the check passed and Trusted was set.
        let acquire = try #require(log.firstIndex { $0.hasPrefix("AcquireNotify \(path(Rig.first))") })
        #expect(trusted < acquire, "\(log)")
    }

    /// `run --pair` left the agent registered, answering BlueZ for nothing until the daemon
    /// stopped. Once the pairing is over it is unregistered, whether it ended paired or refused.
    @Test func theAgentIsUnregisteredWhenPairingEnds() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false), Rig.controller(Rig.second, paired: false)])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        _ = try pair(rig, Rig.first).get()
        try rig.wait("the agent unregistered after pairing") { (try? rig.fake.state()["agent"]) is NSNull }
        #expect(try rig.fake.log().contains("UnregisterAgent \(PairingAgent.path)"))
        #expect(!rig.manager.agent.isRegistered)

        try rig.fake.command("configure", ["address": Rig.second, "resolves": false])
        rig.manager.pair(address: Rig.second) { _ in }
        try rig.wait("the agent registered again") { (try? rig.fake.state()["agent"] as? [Any]) != nil }
        try rig.fake.command("remove_device", ["address": Rig.second])  // refused: it went away
        try rig.wait("the agent unregistered after a refusal") { (try? rig.fake.state()["agent"]) is NSNull }
    }

    /// A rig with one controller not paired yet, its manager started and its agent registered
    /// (stopped again if that fails).
    func rigWithItsAgent() throws -> Rig {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false)])
        do {
            rig.manager.start()
            try rig.wait("the cache") { rig.manager.client.isReady }
            var registered: Result<Void, DBusError>?
            rig.manager.agent.register { registered = $0 }
            try rig.wait("the agent") { registered != nil }
            return rig
        } catch {
            rig.stop()
            throw error
        }
    }

    /// Any connection on the bus could call the agent's methods and have a controller's pairing
    /// confirmed. Only org.bluez's owner is answered; another caller gets AccessDenied.
    @Test func theAgentAnswersOnlyBlueZ() throws {
        let rig = try rigWithItsAgent()
        defer { rig.stop() }
        rig.manager.agent.allow(address: Rig.first)

        let stranger = try BusConnection(address: rig.bus.address, reactor: rig.reactor)
        let bridge = try #require(rig.manager.client.connection.uniqueName)
        var answer: Result<[DBusValue], DBusError>?
        stranger.call(destination: bridge, path: PairingAgent.path, interface: "org.bluez.Agent1", method: "RequestConfirmation",
                      arguments: [.objectPath(path(Rig.first)), .uint32(123456)]) { answer = $0 }
        try rig.wait("the stranger's answer") { answer != nil }
        guard case .failure(let error) = answer else { throw TestFailure("a stranger's RequestConfirmation was accepted") }
        #expect(error.name == "org.freedesktop.DBus.Error.AccessDenied", "\(error)")
        #expect(!rig.manager.agent.decisions.contains("RequestConfirmation \(Rig.first) accepted"), "\(rig.manager.agent.decisions)")

        let fromBlueZ = try rig.fake.command("agent", ["address": Rig.first, "method": "RequestConfirmation", "args": [123456]]) as? String
        #expect(fromBlueZ == "accepted", "BlueZ itself is still answered")
    }

    @Test func pairingNewControllersIsAnOptInThatEndsWithDiscovery() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first)])
        defer { rig.stop() }
        let known = try rig.connected(Rig.first)
        rig.manager.startDiscovery(pairingNewControllers: true)
        try rig.fake.command("add_device", Rig.controller(Rig.second, paired: false))
        try rig.wait("the new controller") { rig.manager.controller(address: Rig.second)?.isConnected == true }
        #expect(try devices(rig)[Rig.second]?["Trusted"] as? Bool == true)
        // A look-alike during the opt-in is refused, once: it is not paired again when seen again.
        try rig.fake.command("add_device", Rig.controller(Rig.speaker, paired: false, ["hid_service": true]))
        try rig.wait("the refusal") { rig.problems.contains { if case .pairingFailed(Rig.speaker, _) = $0 { true } else { false } } }
        try rig.wait("its removal") { (try? devices(rig)[Rig.speaker]) == nil }
        try rig.fake.command("add_device", Rig.controller(Rig.speaker, paired: false, ["hid_service": true]))
        try rig.sync()
        #expect(try rig.fake.log().filter { $0 == "Connect \(path(Rig.speaker))" }.count == 1)
        #expect(try !rig.fake.log().contains("Pair \(path(Rig.speaker))"))

        // Discovery stopped, a known controller away: discovery goes on, pairing does not.
        rig.manager.stopDiscovery()
        try rig.fake.command("drop", ["address": Rig.first, "present": false])
        try rig.wait("the disconnect") { !known.isConnected }
        try rig.wait("discovery for the absent controller") { (try? rig.fake.state()["discovering"] as? Bool) == true }
        let third = "C0:DD:EE:00:00:03"
        try rig.fake.command("add_device", Rig.controller(third, paired: false))
        try rig.wait("the sighting") { rig.sightings.contains(third) }
        try rig.sync()
        #expect(try !rig.fake.log().contains("Pair \(path(third))"))
        #expect(rig.manager.controller(address: third) == nil)
    }

    @Test func pairNextControllerWithSeveralCandidatesPairsNoneAndNamesThem() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false), Rig.controller(Rig.second, paired: false)])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        var outcome: Result<ControllerFeed, PairingError>?
        let request = rig.manager.pairNextController { outcome = $0 }
        try rig.wait("the answer") { outcome != nil }
        guard case .failure(let error) = outcome else { throw TestFailure("paired one of two") }
        #expect(error.candidates.map(\.address) == [Rig.first, Rig.second])
        #expect(request.pairingAddress == nil)
        // The answer comes first; StopDiscovery reaches bluetoothd after it.
        try rig.wait("discovery to stop") { (try? rig.fake.state()["discovering"] as? Bool) == false }
        #expect(try !rig.fake.log().contains { $0.hasPrefix("Pair ") })
    }

    @Test func aDeviceWithServicesTheControllerLacksIsRefusedBeforeBonding() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false, [
            "extra_services": ["00001813-0000-1000-8000-00805f9b34fb", "6e400001-b5a3-f393-e0a9-e50e24dcca9e"],
        ])])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        guard case .failure(let error) = try pair(rig, Rig.first) else { throw TestFailure("paired") }
        #expect(error.description.contains("services a Daydream controller does not have "
                                           + "(0x1813, 6e400001-b5a3-f393-e0a9-e50e24dcca9e)"), "\(error)")
        let log = try rig.fake.log()
        #expect(log.contains("Connect \(path(Rig.first))"))
        #expect(!log.contains("Pair \(path(Rig.first))"), "\(log)")
        #expect(!log.contains("Set.Device1.Trusted \(path(Rig.first))"))
        #expect(try devices(rig)[Rig.first] == nil)
    }

    /// How a `pair` ends, once it has.
    final class Outcome {
        var result: Result<ControllerFeed, PairingError>?
    }

    /// Starts pairing a controller that connects unbonded but whose services never resolve, so
    /// the look before bonding goes on until `verificationTimeout` or the device goes away.
    func pairingAControllerThatNeverResolves(_ rig: Rig) throws -> Outcome {
        try rig.fake.command("configure", ["address": Rig.first, "resolves": false])
        rig.manager.start()
        try rig.wait("the cache") { rig.manager.client.isReady }
        let outcome = Outcome()
        rig.manager.pair(address: Rig.first) { outcome.result = $0 }
        return outcome
    }

    @Test func theAgentRefusesEveryRequestForADeviceStillBeingLookedAt() throws {
        // A timeout no test machine reaches: the look ends when the device goes away.
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false)]) { $0.verificationTimeout = .seconds(600) }
        defer { rig.stop() }
        let outcome = try pairingAControllerThatNeverResolves(rig)
        try rig.wait("the connection") { (try? devices(rig)[Rig.first]?["Connected"] as? Bool) == true }
        // What bluetoothd asks the agent when the kernel pairs on a profile's demand (legacy Just Works).
        for (method, args) in [("RequestAuthorization", [Any]()), ("RequestConfirmation", [123456])] {
            let answer = try rig.fake.command("agent", ["address": Rig.first, "method": method, "args": args]) as? String
            #expect(answer == "org.bluez.Error.Rejected", "\(method)")
        }
        try rig.sync()
        #expect(outcome.result == nil, "the look ended before the device went away")
        try rig.fake.command("remove_device", ["address": Rig.first])
        try rig.wait("the refusal") { outcome.result != nil }
        guard case .failure(let error) = outcome.result else { throw TestFailure("paired") }
        #expect(error.description.contains("went away before it was paired"), "\(error)")
        #expect(try !rig.fake.log().contains("Pair \(path(Rig.first))"))
    }

    @Test func aDeviceWhoseServicesNeverResolveIsRefusedAtTheTimeout() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, paired: false)]) { $0.verificationTimeout = .seconds(1) }
        defer { rig.stop() }
        let outcome = try pairingAControllerThatNeverResolves(rig)
        try rig.wait("the timeout") { outcome.result != nil }
        guard case .failure(let error) = outcome.result else { throw TestFailure("paired") }
        #expect(error.description.contains("could not be read in time"), "\(error)")
        #expect(try !rig.fake.log().contains("Pair \(path(Rig.first))"))
        #expect(try devices(rig)[Rig.first] == nil)
    }

    @Test func theAgentAuthorizesOnlyTheControllersOwnServices() throws {
        let rig = try rigWithItsAgent()
        defer { rig.stop() }
        func authorize(_ uuid: String) throws -> String? {
            try rig.fake.command("agent", ["address": Rig.first, "method": "AuthorizeService", "args": [uuid]]) as? String
        }
        rig.manager.agent.allow(address: Rig.first)
        #expect(try authorize(Self.hid) == "org.bluez.Error.Rejected")
        #expect(try authorize("00001124-0000-1000-8000-00805f9b34fb") == "org.bluez.Error.Rejected")  // classic HID
        #expect(try authorize(Self.fe55) == "accepted")
        rig.manager.agent.disallow(address: Rig.first)
        #expect(try authorize(Self.fe55) == "org.bluez.Error.Rejected")
        #expect(rig.manager.agent.decisions.contains("AuthorizeService \(Rig.first) 0x1812 rejected"), "\(rig.manager.agent.decisions)")
    }

    @Test func aControllerThatShowsAHIDServiceOnAConnectionIsBlockedAndRemoved() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first), Rig.controller(Rig.second)])
        defer { rig.stop() }
        let known = try rig.connected(Rig.first)
        let other = try rig.connected(Rig.second)
        // Its table changes while connected (Service Changed): bluetoothd adds 0x1812 to UUIDs.
        try rig.fake.command("service_changed", ["address": Rig.first, "hid_service": true])
        try rig.wait("its removal") { (try? devices(rig)[Rig.first]) == nil }
        let log = try rig.fake.log()
        let blocked = try #require(log.firstIndex(of: "Set.Device1.Blocked \(path(Rig.first))"), "\(log)")
        let disconnected = try #require(log.firstIndex(of: "Disconnect \(path(Rig.first))"), "\(log)")
        let removed = try #require(log.firstIndex(of: "RemoveDevice /org/bluez/hci0"), "\(log)")
        #expect(blocked < disconnected && disconnected < removed, "\(log)")
        #expect(!known.isConnected)
        #expect(rig.manager.controller(address: Rig.first) == nil)
        #expect(rig.problems.contains { "\($0)".contains(Rig.first) && "\($0)".contains("0x1812") }, "\(rig.problems)")
        // The other controller streams on.
        #expect(other.isConnected)
        try rig.send(Rig.second, Rig.volumeUpPacket)
        try rig.wait("its packet") { other.volumeUpButton.isPressed }
    }

    @Test func aPairedDeviceRememberedWithAHIDServiceIsRemovedNotConnected() throws {
        let rig = try Rig(devices: [Rig.controller(Rig.first, ["uuids": [Self.fe55, Self.hid]])])
        defer { rig.stop() }
        rig.manager.start()
        try rig.wait("its removal") { (try? devices(rig)[Rig.first]) == nil }
        let log = try rig.fake.log()
        #expect(!log.contains("Connect \(path(Rig.first))"), "\(log)")
        #expect(log.contains("Set.Device1.Blocked \(path(Rig.first))"), "\(log)")
        #expect(rig.manager.controller(address: Rig.first) == nil)
    }
}
