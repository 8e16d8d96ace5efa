@testable import Bridge
import DaydreamCore
import DaydreamProtocol
import Descriptors
import EventLoop
import Foundation
import Testing
import Timebase

/// `watch` on the daemon's control socket: the state at the start, packets thinned to 60 a
/// second with the latest winning, link, battery, profile and output events as they happen,
/// and nothing tapped once the last watcher leaves.
@Suite("watch", .serialized)
@MainActor
struct ControllerWatchTests {
    /// A client on the test's own loop: connects, asks, and reads what has arrived.
    final class Client {
        let descriptor: Int32
        var text = ""

        init(_ path: String, request: String) throws {
            let connection = try ControlClient.connect(path, nonBlocking: true)
            descriptor = dup(connection.rawValue)
            _ = FileOutput.write(request + "\n", to: descriptor)
        }

        /// The lines so far, without the times (the second word).
        var lines: [String] {
            text.split(separator: "\n").map { line in
                let words = line.split(separator: " ", maxSplits: 2).map(String.init)
                return words.count == 3 ? "\(words[0]) \(words[2])" : String(line)
            }
        }

        func readAvailable() {
            var bytes = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                guard count > 0 else { return }
                text += String(decoding: bytes[..<count], as: UTF8.self)
            }
        }

        func close() { Glibc.close(descriptor) }
    }

    static func packet(_ sequence: Int, buttons: DaydreamButtons = []) -> PacketBytes {
        var bytes = PacketBytes()
        bytes.withUnsafeMutableBytes { DaydreamPacket(sequence: UInt8(sequence % 32), buttons: buttons).encode(into: $0) }
        return bytes
    }

    static func hex(_ bytes: PacketBytes) -> String { bytes.withUnsafeBytes { Hex.encode(Array($0)) } }

    @Test func aWatcherSeesStatePacketsAndEventsAndLeavesNoTapBehind() throws {
        let harness = try DaemonTests.Harness()
        defer { harness.finish() }
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let feed = harness.controller()
        feed.batteryChanged(percent: 77, at: harness.reactor.now)
        let client = try Client(path, request: "watch")
        let address = "C0:DD:EE:00:00:01"
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.count == 4 }, timeout: .seconds(5)))
        #expect(client.lines == ["ok", "\(address) connected", "\(address) battery 77", "\(address) profile pad"])
        #expect(feed.consumerCount == 2)

        // A click, then nine more packets at once (one arrival time: a loaded machine may take
        // longer than a sixtieth of a second over the loop): the click's packet goes out, the rest
        // wait and only the latest follows, a sixtieth of a second later.
        let arrival = harness.reactor.now
        let click = Self.packet(1, buttons: .click)
        click.withUnsafeBytes { feed.receive($0, at: arrival) }
        var last = click
        for sequence in 2...10 {
            last = Self.packet(sequence, buttons: .click)
            last.withUnsafeBytes { feed.receive($0, at: arrival) }
        }
        // Written at once, without a turn of the loop: the click's packet and events, not the latest.
        client.readAvailable()
        #expect(client.lines.count == 6 && !client.lines.contains("\(address) \(Self.hex(last))"), "\(client.lines)")
        _ = ControlReply(harness.daemon.perform(.switchProfile("keys", controller: nil)))
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.contains("\(address) \(Self.hex(last))") },
                                    timeout: .seconds(5)))
        #expect(Array(client.lines.dropFirst(4)) == [
            "\(address) \(Self.hex(click))",
            "\(address) event gamepad EV_KEY BTN_SOUTH 1",
            "\(address) event gamepad EV_KEY BTN_SOUTH 0",
            "\(address) profile keys",
            "\(address) \(Self.hex(last))",
        ])

        feed.linkChanged(connected: false, at: harness.reactor.now)
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.last == "\(address) disconnected" }, timeout: .seconds(5)))

        // Every line reads back as what it says.
        let parsed = client.text.split(separator: "\n").dropFirst().map { WatchLine($0) }
        #expect(parsed.allSatisfy { $0 != nil && $0?.address == address })
        #expect(parsed.compactMap { $0?.event } == [
            .connected, .battery(77), .profile("pad"), .packet(click.withUnsafeBytes { Array($0) }),
            .output("gamepad EV_KEY BTN_SOUTH 1"), .output("gamepad EV_KEY BTN_SOUTH 0"), .profile("keys"),
            .packet(last.withUnsafeBytes { Array($0) }), .disconnected,
        ])
        #expect(WatchLine("C0:DD:EE:00:00:01 0.5 0012") == nil, "a packet of the wrong length")
        #expect(WatchLine("C0:DD:EE:00:00:01 soon connected") == nil)

        // The watcher leaves: the taps come off.
        client.close()
        #expect(harness.reactor.run(until: { feed.consumerCount == 1 }, timeout: .seconds(5)))
    }

    /// A packet that waits for the rate's next slot is superseded when a newer one goes out first
    /// (it arrived a sixtieth of a second after the last sent): the older never follows the newer,
    /// which would hand the page's gyro helper a step backwards in time.
    @Test func aWaitingPacketNeverFollowsANewerOne() throws {
        let harness = try DaemonTests.Harness()
        defer { harness.finish() }
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let feed = harness.controller()
        let client = try Client(path, request: "watch")
        defer { client.close() }
        let address = "C0:DD:EE:00:00:01"
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.count == 3 }, timeout: .seconds(5)))
        let start = harness.reactor.now
        let (sent, waits, newer) = (Self.packet(1), Self.packet(2), Self.packet(3))
        sent.withUnsafeBytes { feed.receive($0, at: start) }
        waits.withUnsafeBytes { feed.receive($0, at: start + .milliseconds(5)) }
        newer.withUnsafeBytes { feed.receive($0, at: start + .milliseconds(20)) }
        // Timers fire in the order they are due: the waiting packet's (a sixtieth of a second after
        // the first) before this one, whose profile switch marks the end of what the test reads.
        let marker = harness.reactor.schedule(at: start + .milliseconds(50)) {
            _ = ControlReply(harness.daemon.perform(.switchProfile("keys", controller: nil)))
        }
        defer { marker.cancel() }
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.contains("\(address) profile keys") },
                                    timeout: .seconds(5)))
        #expect(Array(client.lines.dropFirst(3)) == [
            "\(address) \(Self.hex(sent))", "\(address) \(Self.hex(newer))", "\(address) profile keys",
        ], "\(client.lines)")
    }

    /// The bias `auto-calibrate` measures at rest is said as `gyro-bias X Y Z` (deg/s), and
    /// reads back as what it says: -2, 0 and 4 gyro counts of 2048/4095 deg/s.
    @Test func anAutoCalibratedBiasIsSaid() throws {
        let harness = try DaemonTests.Harness(config: "[bridge]\nprofile = \"aim\"\n\n[profile.aim]\ngyro = { auto-calibrate = true }\n")
        defer { harness.finish() }
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let feed = harness.controller()
        let client = try Client(path, request: "watch")
        defer { client.close() }
        let address = "C0:DD:EE:00:00:01"
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.count == 3 }, timeout: .seconds(5)))
        for index in 0...150 {
            var bytes = PacketBytes()
            bytes.withUnsafeMutableBytes {
                DaydreamPacket(time: UInt16(index * 10 % 512), sequence: UInt8(index % 32), acceleration: RawVector(0, 127, 0),
                               gyro: RawVector(-2, 0, 4)).encode(into: $0)
            }
            bytes.withUnsafeBytes { feed.receive($0, at: harness.reactor.now) }
        }
        let said = "\(address) gyro-bias -1.0 0.0 2.0"
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.contains(said) }, timeout: .seconds(5)),
                "\(client.lines.filter { !$0.hasSuffix("0") || $0.contains("gyro") })")
        let line = client.text.split(separator: "\n").first { $0.contains("gyro-bias") }
        #expect(line.flatMap { WatchLine($0) }?.event == .gyroBias(Vector3(x: -1, y: 0, z: 2)))
        #expect(WatchLine("\(address) 0.5 gyro-bias 1 nan 2") == nil)
    }

    /// A controller that arrives while a stream watches is said as it is (its link, battery once
    /// read, profile), and a reading that changes nothing says nothing.
    @Test func aControllerThatArrivesDuringAWatchIsSaid() throws {
        let harness = try DaemonTests.Harness()
        defer { harness.finish() }
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let first = harness.controller()
        let client = try Client(path, request: "watch")
        defer { client.close() }
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.count == 3 }, timeout: .seconds(5)))
        let second = harness.controller("C0:DD:EE:00:00:02")
        second.batteryChanged(percent: 40, at: harness.reactor.now)
        second.batteryChanged(percent: 40, at: harness.reactor.now)
        second.batteryChanged(percent: 39, at: harness.reactor.now)
        #expect(harness.reactor.run(until: { client.readAvailable(); return client.lines.count >= 8 }, timeout: .seconds(5)))
        // The harness adds the feed, then its link comes up.
        #expect(Array(client.lines.dropFirst(3)) == [
            "C0:DD:EE:00:00:02 disconnected", "C0:DD:EE:00:00:02 profile pad", "C0:DD:EE:00:00:02 connected",
            "C0:DD:EE:00:00:02 battery 40", "C0:DD:EE:00:00:02 battery 39",
        ], "\(client.lines)")
        withExtendedLifetime(first) {}
    }
}
