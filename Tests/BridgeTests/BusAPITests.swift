@testable import Bridge
import BridgeConfig
import DBus
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Foundation
import Glibc
import TestSupport
import Testing
import Timebase

/// The D-Bus API of a daemon in this process, as clients written elsewhere see it: `busctl`
/// (systemd's sd-bus) and `gdbus` (GLib) against a private dbus-daemon, while the test's loop
/// runs the daemon.
@MainActor
@Suite("D-Bus API", .serialized, .requires(TestEnvironment.canRunDBusTests && BusClientTool.available, "needs dbus-daemon, busctl and gdbus"))
struct BusAPITests {
    static let name = BridgeBusNames.busName
    static let bridge = BridgeBusNames.bridgePath
    static let controller = "/org/daydream_bridge/controller/C0_DD_EE_00_00_01"

    @MainActor
    final class Rig: BusClientRig {
        let harness: DaemonTests.Harness
        let bus: TestBus
        let api: BridgeBusService
        var reactor: Reactor { harness.reactor }
        var busAddress: String { bus.socketAddress }

        init(config: String = DaemonTests.twoProfiles) throws {
            harness = try DaemonTests.Harness(config: config)
            bus = try TestBus()
            api = BridgeBusService(bus: .session, address: bus.socketAddress, backend: harness.daemon, version: "9.8.7", reactor: harness.reactor)
            api.start()
            let started = harness.reactor.run(until: { [api] in api.ownsName }, timeout: .seconds(5), checkingEvery: .milliseconds(5))
            #expect(started)
        }

        func finish() {
            api.stop()
            harness.finish()
            bus.stop()
        }

        /// A property's value as `busctl get-property` prints it (`s "pad"`).
        func get(_ path: String, _ interface: String, _ property: String) throws -> String {
            try busctl("get-property", BusAPITests.name, path, interface, property).stdout.trimmingCharacters(in: .newlines)
        }

        /// `gdbus monitor` on the bridge's name, once it hears the bridge (`BusClientRig.monitor`):
        /// probe controllers (C0:DD:EE:00:AA:xx) are added until one of their InterfacesAdded arrives.
        func monitor() throws -> (tool: BusClientTool, baseline: Int) {
            try monitor(BusAPITests.name, announce: { probe in
                _ = harness.controller(String(format: "C0:DD:EE:00:AA:%02X", probe))
            }, until: "00_AA_", owner: "bridge")
        }

        /// The signals the monitor printed after `baseline`, one line each, from the bridge's
        /// paths, without the probe controllers'.
        func signals(_ monitor: (tool: BusClientTool, baseline: Int)) -> [String] {
            String(decoding: Array(monitor.tool.stdout.utf8).dropFirst(monitor.baseline), as: UTF8.self)
                .split(separator: "\n").map(String.init)
                .filter { $0.hasPrefix("/org/daydream_bridge") && !$0.contains("00_AA_") }
        }

        /// A packet with `sequence`, as the link hands it over.
        func send(_ feed: ControllerFeed, sequence: UInt8) {
            let packet = DaydreamPacket(sequence: sequence)
            var bytes = PacketBytes()
            bytes.withUnsafeMutableBytes { packet.encode(into: $0) }
            bytes.withUnsafeBytes { feed.receive($0, at: reactor.now) }
        }

        /// A controller connected, with its battery and firmware read.
        func connectController() -> ControllerFeed {
            let feed = harness.controller()
            feed.batteryChanged(percent: 87, at: reactor.now)
            feed.deviceInformationChanged(ControllerDeviceInformation(firmwareVersion: "1.2.3"))
            return feed
        }
    }

    @Test func busctlWalksTheTreeAndReadsEveryProperty() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let feed = rig.connectController()
        for sequence: UInt8 in [5, 6, 9] { rig.send(feed, sequence: sequence) }  // 7 and 8 lost on the way
        feed.receive(UnsafeRawBufferPointer(start: nil, count: 0), at: rig.reactor.now)  // not a packet

        let tree = try rig.busctl("tree", "--list", Self.name)
        #expect(tree.stdout.split(separator: "\n") == ["/", "/org", Substring(Self.bridge), "/org/daydream_bridge/controller", Substring(Self.controller)], "\(tree.stderr)")
        #expect(try rig.get(Self.bridge, BridgeBusNames.bridgeInterface, "Version") == "s \"9.8.7\"")
        #expect(try rig.get(Self.bridge, BridgeBusNames.bridgeInterface, "Profiles") == "as 2 \"pad\" \"keys\"")
        #expect(try rig.get(Self.bridge, BridgeBusNames.bridgeInterface, "Identity") == "s \"default\"")
        let all = try rig.gdbus("call", "--dest", Self.name, "--object-path", Self.controller, "--method",
                                "org.freedesktop.DBus.Properties.GetAll", BridgeBusNames.controllerInterface)
        #expect(all.stdout == "({'Address': <'C0:DD:EE:00:00:01'>, 'Battery': <byte 0x57>, 'Calibrating': <false>, 'Connected': <true>, "
            + "'Firmware': <'1.2.3'>, 'GyroBias': <@ad []>, 'Lent': <false>, 'Name': <''>, 'Packets': <uint64 3>, 'PacketsLost': <uint64 2>, "
            + "'PacketsMalformed': <uint64 1>, 'Profile': <'pad'>},)\n", "\(all.stderr)")
        let managed = try rig.gdbus("call", "--dest", Self.name, "--object-path", Self.bridge, "--method",
                                    "org.freedesktop.DBus.ObjectManager.GetManagedObjects")
        #expect(managed.stdout.hasPrefix("({objectpath '\(Self.controller)': {'org.daydream_bridge.Controller1': {'Address':"), "\(managed.stderr)")
    }

    @Test func methodsSwitchProfilesAndErrorsNameTheChoices() throws {
        let rig = try Rig()
        defer { rig.finish() }
        _ = rig.connectController()
        let interface = BridgeBusNames.bridgeInterface

        #expect(try rig.busctl("call", Self.name, Self.bridge, interface, "SetProfile", "s", "keys").status == 0)
        #expect(rig.harness.daemon.controllers.map(\.profile) == ["keys"])
        let unknown = try rig.gdbus("call", "--dest", Self.name, "--object-path", Self.bridge, "--method", interface + ".SetProfile", "nope")
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("org.daydream_bridge.Error.UnknownProfile: no profile 'nope'; profiles: pad, keys"), "\(unknown.stderr)")
        #expect(try rig.busctl("call", Self.name, Self.bridge, interface, "NextProfile").status == 0)
        #expect(rig.harness.daemon.controllers.map(\.profile) == ["pad"])

        let set = try rig.busctl("set-property", Self.name, Self.controller, BridgeBusNames.controllerInterface, "Profile", "s", "keys")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try rig.get(Self.controller, BridgeBusNames.controllerInterface, "Profile") == "s \"keys\"")
        let badSet = try rig.busctl("set-property", Self.name, Self.controller, BridgeBusNames.controllerInterface, "Profile", "s", "x")
        #expect(badSet.stderr.contains("no profile 'x'; profiles: pad, keys"), "\(badSet.stderr)")
        let readOnly = try rig.busctl("set-property", Self.name, Self.controller, BridgeBusNames.controllerInterface, "Battery", "y", "5")
        #expect(readOnly.stderr.contains("Battery is read-only"), "\(readOnly.stderr)")

        #expect(try rig.busctl("call", Self.name, Self.bridge, interface, "SetFocusedApplication", "ss", "org.mozilla.firefox", "Mozilla").status == 0)
        #expect(rig.harness.daemon.focusedApplication == FocusedApplication(ids: ["org.mozilla.firefox"], title: "Mozilla"))
        let spaced = try rig.busctl("call", Self.name, Self.bridge, interface, "SetFocusedApplication", "ss", "a b", "x")
        #expect(spaced.stderr.contains("app_id 'a b' has white space"), "\(spaced.stderr)")
        #expect(try rig.busctl("call", Self.name, Self.bridge, interface, "SetFocusedApplication", "ss", "", "").status == 0)
        #expect(rig.harness.daemon.focusedApplication == FocusedApplication(ids: [], title: ""), "empty: nothing has the focus")
        #expect(try rig.busctl("call", Self.name, Self.controller, BridgeBusNames.controllerInterface, "Recenter").status == 0)
    }

    /// `Pair` and `Forget` are the bridge's commands, refused as every door refuses them: this
    /// daemon reads no Bluetooth (over BlueZ they pair and forget: BridgePairingTests).
    @Test func pairAndForgetAreTheBridgesCommands() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let interface = BridgeBusNames.bridgeInterface
        for (method, argument) in [("Pair", ""), ("Forget", "C0:DD:EE:00:00:01")] {
            let refused = try rig.gdbus("call", "--dest", Self.name, "--object-path", Self.bridge, "--method", "\(interface).\(method)", argument)
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("org.daydream_bridge.Error.NoBluetooth: \(BridgeRefusal.noBluetooth.message)"), "\(refused.stderr)")
        }
    }

    /// A 60 MiB app_id stalled the loop 6.4 s and took 1.2 GB; a 16 MiB profile name came back
    /// whole in the error. Both are refused by their size, quoting 64 bytes of them; a long
    /// title is cut, not refused. Sent with the project's own client: busctl and gdbus take the
    /// value from argv, which holds at most 128 KiB.
    @Test func oversizedNamesAreRefusedQuotingOnlyTheirStart() throws {
        let rig = try Rig()
        defer { rig.finish() }
        _ = rig.connectController()
        let client = try BusConnection(address: rig.bus.socketAddress, reactor: rig.reactor)
        #expect(rig.reactor.run(until: { client.uniqueName != nil }, timeout: .seconds(5)))
        func call(_ method: String, _ arguments: [String]) -> DBusError? {
            var outcome: Result<[DBusValue], DBusError>?
            client.call(destination: Self.name, path: Self.bridge, interface: BridgeBusNames.bridgeInterface, method: method,
                        arguments: arguments.map { .string($0) }, timeout: .seconds(20)) { outcome = $0 }
            #expect(rig.reactor.run(until: { outcome != nil }, timeout: .seconds(30)))
            if case .failure(let error) = outcome { return error }
            return nil
        }
        let huge = String(repeating: "a", count: 16 << 20)

        let appID = call("SetFocusedApplication", [huge, "x"])
        #expect(appID?.name == "org.daydream_bridge.Error.InvalidArgument")
        #expect(appID?.message == "app_id is 16777216 bytes, longer than the 255 taken: '\(String(repeating: "a", count: 64))...'")
        #expect(rig.harness.daemon.focusedApplication == nil)

        let profile = call("SetProfile", [huge])
        #expect(profile?.name == "org.daydream_bridge.Error.InvalidArgument")
        #expect(profile?.message == "profile name is 16777216 bytes, longer than the 255 taken: '\(String(repeating: "a", count: 64))...'")
        #expect(rig.harness.daemon.controllers.map(\.profile) == ["pad"])

        let longest = String(repeating: "b", count: 255)
        #expect(call("SetFocusedApplication", [longest, String(repeating: "é", count: 3000)]) == nil)
        #expect(rig.harness.daemon.focusedApplication == FocusedApplication(ids: [longest], title: String(repeating: "é", count: 512)))
        client.close()
    }

    @Test func aBrokenReloadIsAnErrorAndKeepsTheRunningConfig() throws {
        let rig = try Rig()
        defer { rig.finish() }
        try "[profile.pad]\nclick = \"BTN_NOPE\"\n".write(toFile: rig.harness.configPath, atomically: true, encoding: .utf8)
        let broken = try rig.gdbus("call", "--dest", Self.name, "--object-path", Self.bridge, "--method",
                                   BridgeBusNames.bridgeInterface + ".Reload")
        #expect(broken.status != 0)
        #expect(broken.stderr.contains("org.daydream_bridge.Error.InvalidConfig"), "\(broken.stderr)")
        #expect(broken.stderr.contains("config.toml:2:"), "the error names file:line:column: \(broken.stderr)")
        #expect(try rig.get(Self.bridge, BridgeBusNames.bridgeInterface, "Profiles") == "as 2 \"pad\" \"keys\"")

        let monitor = try rig.monitor()
        try DaemonTests.otherProfiles.write(toFile: rig.harness.configPath, atomically: true, encoding: .utf8)
        #expect(try rig.busctl("call", Self.name, Self.bridge, BridgeBusNames.bridgeInterface, "Reload").status == 0)
        #expect(rig.reactor.run(until: { monitor.tool.stdout.contains("arrows") }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        #expect(rig.signals(monitor) == [
            "/org/daydream_bridge: org.freedesktop.DBus.Properties.PropertiesChanged ('org.daydream_bridge.Bridge1', "
                + "{'Profiles': <['pad', 'arrows']>}, @as [])",
        ])
        monitor.tool.stop()
    }

    @Test func everyChangeArrivesAsASignal() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let monitor = try rig.monitor()
        let feed = rig.connectController()
        feed.linkChanged(connected: false, at: rig.reactor.now)
        feed.linkChanged(connected: true, at: rig.reactor.now)
        _ = ControlReply(rig.harness.daemon.perform(.switchProfile("keys", controller: nil)))
        feed.batteryChanged(percent: 86, at: rig.reactor.now)
        for _ in 0..<5 { rig.harness.send(feed, []) }  // packets: counted, never announced
        #expect(rig.reactor.run(until: { monitor.tool.stdout.contains("byte 0x56") }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        let changed = "/org/daydream_bridge/controller/C0_DD_EE_00_00_01: org.freedesktop.DBus.Properties.PropertiesChanged "
            + "('org.daydream_bridge.Controller1', "
        let signals = rig.signals(monitor)
        #expect(signals.first?.hasPrefix("/org/daydream_bridge: org.freedesktop.DBus.ObjectManager.InterfacesAdded "
            + "(objectpath '\(Self.controller)'") == true, "\(signals)")
        #expect(Array(signals.dropFirst()) == [
            changed + "{'Connected': <true>}, @as [])",
            changed + "{'Battery': <byte 0x57>}, @as [])",
            changed + "{'Firmware': <'1.2.3'>}, @as [])",
            changed + "{'Connected': <false>}, @as [])",
            changed + "{'Connected': <true>}, @as [])",
            changed + "{'Profile': <'keys'>}, @as [])",
            changed + "{'Battery': <byte 0x56>}, @as [])",
        ])
        monitor.tool.stop()
    }

    /// `CalibrateGyro()`: `Calibrating` goes true, and after the hold (2 s by the controller's
    /// stamps) `GyroBias` holds the measured rate in deg/s and `Calibrating` goes false.
    @Test func calibrateGyroAnnouncesTheHoldAndTheBias() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let feed = rig.connectController()
        let monitor = try rig.monitor()
        let interface = BridgeBusNames.controllerInterface
        let refused = try rig.busctl("call", Self.name, Self.controller, interface, "CalibrateGyro")
        #expect(refused.status == 0, "\(refused.stderr)")
        #expect(try rig.get(Self.controller, interface, "Calibrating") == "b true")
        for index in 0...200 {
            let packet = DaydreamPacket(time: UInt16(index * 10 % 512), sequence: UInt8(index % 32), gyro: RawVector(-2, 0, 4))
            var bytes = PacketBytes()
            bytes.withUnsafeMutableBytes { packet.encode(into: $0) }
            bytes.withUnsafeBytes { feed.receive($0, at: rig.reactor.now) }
        }
        #expect(rig.reactor.run(until: { monitor.tool.stdout.contains("'GyroBias': <[") }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        let changed = "\(Self.controller): org.freedesktop.DBus.Properties.PropertiesChanged ('org.daydream_bridge.Controller1', "
        // -2 and 4 counts of 2048/4095 deg/s, averaged over 200 packets (the last digits are the sum's rounding).
        let signals = rig.signals(monitor).suffix(2)
        #expect(signals.first == changed + "{'Calibrating': <true>}, @as [])")
        #expect(signals.last?.hasPrefix(changed + "{'Calibrating': <false>, 'GyroBias': <[-1.00024420024") == true, "\(signals)")
        #expect(signals.last?.contains(", 0.0, 2.0004884004") == true, "\(signals)")
        feed.linkChanged(connected: false, at: rig.reactor.now)
        let offline = try rig.busctl("call", Self.name, Self.controller, interface, "CalibrateGyro")
        #expect(offline.stderr.contains("is not connected; connect it, hold it still and calibrate again"), "\(offline.stderr)")
        monitor.tool.stop()
    }

    /// `gyro = { auto-calibrate = true }`: a controller at rest (its orientation and
    /// accelerometer still) gets its bias measured after 1 s by the controller's stamps, without
    /// a `CalibrateGyro()`, and `GyroBias` says it (deg/s), as after a calibration.
    @Test func autoCalibrationShowsTheBiasItMeasured() throws {
        let rig = try Rig(config: "[bridge]\nprofile = \"aim\"\n\n[profile.aim]\ngyro = { auto-calibrate = true }\n")
        defer { rig.finish() }
        let feed = rig.connectController()
        let monitor = try rig.monitor()
        #expect(try rig.get(Self.controller, BridgeBusNames.controllerInterface, "GyroBias") == "ad 0")
        for index in 0...150 {
            let packet = DaydreamPacket(time: UInt16(index * 10 % 512), sequence: UInt8(index % 32), orientation: RawVector(10, -20, 5),
                                        acceleration: RawVector(0, 127, 3), gyro: RawVector(-2, 0, 4))
            var bytes = PacketBytes()
            bytes.withUnsafeMutableBytes { packet.encode(into: $0) }
            bytes.withUnsafeBytes { feed.receive($0, at: rig.reactor.now) }
        }
        #expect(rig.reactor.run(until: { monitor.tool.stdout.contains("'GyroBias': <[") }, timeout: .seconds(10), checkingEvery: .milliseconds(5)))
        let changed = "\(Self.controller): org.freedesktop.DBus.Properties.PropertiesChanged ('org.daydream_bridge.Controller1', "
        // -2 and 4 counts of 2048/4095 deg/s, the mean of the packets of the first second at rest.
        let signals = rig.signals(monitor)
        #expect(signals.last?.hasPrefix(changed + "{'GyroBias': <[-1.00024420024") == true, "\(signals)")
        #expect(signals.last?.contains(", 0.0, 2.0004884004") == true, "\(signals)")
        monitor.tool.stop()
    }

    @Test func theNameIsTakenAgainWhenTheBusComesBack() throws {
        let rig = try Rig()
        defer { rig.finish() }
        _ = rig.connectController()
        try rig.bus.restart()
        #expect(rig.reactor.run(until: { !rig.api.ownsName }, timeout: .seconds(5), checkingEvery: .milliseconds(5)))
        #expect(rig.reactor.run(until: { rig.api.ownsName }, timeout: .seconds(10), checkingEvery: .milliseconds(5)), "\(rig.harness.logged.joined(separator: "\n"))")
        #expect(try rig.get(Self.controller, BridgeBusNames.controllerInterface, "Battery") == "y 87")
        #expect(rig.harness.logged.contains { $0.contains("the session bus went away: taking org.daydream_bridge again") })
    }

    @Test func aSecondBridgeWaitsForTheNameAndTakesItWhenTheFirstStops() throws {
        let rig = try Rig()
        defer { rig.finish() }
        let second = BridgeBusService(bus: .session, address: rig.bus.socketAddress, backend: rig.harness.daemon, version: "2", reactor: rig.reactor)
        second.start()
        #expect(rig.reactor.run(until: { rig.harness.logged.contains { $0.contains("another program owns org.daydream_bridge") } },
                                timeout: .seconds(5), checkingEvery: .milliseconds(5)))
        #expect(!second.ownsName)
        rig.api.stop()
        #expect(rig.reactor.run(until: { second.ownsName }, timeout: .seconds(5), checkingEvery: .milliseconds(5)))
        #expect(try rig.get(Self.bridge, BridgeBusNames.bridgeInterface, "Version") == "s \"2\"")
        second.stop()
    }

    @Test func aMissingBusIsWaitedFor() throws {
        let harness = try DaemonTests.Harness()
        defer { harness.finish() }
        let scratch = try TemporaryDirectory(prefix: "daydream-nobus")
        let api = BridgeBusService(bus: .session, address: "unix:path=\(scratch.path)/none", backend: harness.daemon, version: "1",
                                   reactor: harness.reactor)
        api.start()
        defer { api.stop() }
        #expect(harness.logged.contains { $0.contains("no D-Bus API yet: the session bus does not answer") })
        #expect(!api.ownsName)
    }
}
