@testable import Bridge
import DaydreamCore
import DaydreamProtocol
import EventVocabulary
import Foundation
import Testing
import Timebase

/// `calibrate` through the daemon's control socket: the reply streams the progress and the
/// result, the bias is stored, and a daemon started later applies it.
@Suite("gyro calibration in the daemon", .serialized)
@MainActor
struct GyroCalibrationDaemonTests {
    static let aiming = """
    [profile.aim]
    gyro = { counts-per-degree = 10 }
    home = "gyro-calibrate"
    """
    /// A resting gyro reading 3 counts (1.5 deg/s) about y: it drifts left.
    static let drift = RawVector(0, 3, 0)

    /// Packets 10 ms apart by the controller's stamps.
    @MainActor
    final class Stamps {
        var index = 0
        func send(_ harness: DaemonTests.Harness, _ feed: ControllerFeed, gyro: RawVector, buttons: DaydreamButtons = []) {
            let packet = DaydreamPacket(time: UInt16(index * 10 % 512), sequence: UInt8(index % 32), gyro: gyro, buttons: buttons)
            index += 1
            var bytes = PacketBytes()
            bytes.withUnsafeMutableBytes { packet.encode(into: $0) }
            bytes.withUnsafeBytes { feed.receive($0, at: harness.reactor.now) }
        }
    }

    static func relativeX(_ output: TestDeviceOutput) -> Int {
        output.events.filter { $0.type == EventType.rel && $0.code == EventCode.relX }.reduce(0) { $0 + Int($1.value) }
    }

    /// Lines streamed to the client thread, and its end.
    final class Streamed: @unchecked Sendable {
        private let lock = NSLock()
        private var collected: [String] = []
        private var ending: Result<ControlReply, any Error>?
        func add(_ line: String) { lock.withLock { collected.append(line) } }
        func end(_ result: Result<ControlReply, any Error>) { lock.withLock { ending = result } }
        var lines: [String] { lock.withLock { collected } }
        var result: Result<ControlReply, any Error>? { lock.withLock { ending } }
    }

    @Test func theProgressStreamsAndTheBiasIsStoredAndAppliedAfterARestart() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        let store = GyroBiasStore(directory: state)
        let harness = try DaemonTests.Harness(config: Self.aiming)
        defer { harness.finish() }
        harness.daemon.biasStore = store
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let feed = harness.controller()
        let stamps = Stamps()
        let output = try #require(harness.outputs.first)
        // Uncalibrated, a second at rest turns the camera: 1.5 deg/s x 10 counts.
        for _ in 0...100 { stamps.send(harness, feed, gyro: Self.drift) }
        #expect(Self.relativeX(output) == -15)

        let streamed = Streamed()
        Thread.detachNewThread {
            let result = Result { try ControlClient.stream(.calibrate(address: nil), paths: [path], silence: .seconds(10)) { streamed.add($0) } }
            streamed.end(result)
        }
        // The client thread cannot wake the loop, so it turns in short steps until the hold starts.
        let started = Date().addingTimeInterval(5)
        while harness.daemon.controllers.first?.isCalibrating != true, Date() < started { harness.reactor.runOnce(timeout: .milliseconds(10)) }
        #expect(harness.daemon.controllers.first?.isCalibrating == true)
        let before = Self.relativeX(output)
        for _ in 0..<201 {
            stamps.send(harness, feed, gyro: Self.drift)
            harness.reactor.runOnce(timeout: .zero)
        }
        let ended = Date().addingTimeInterval(5)
        while streamed.result == nil, Date() < ended { harness.reactor.runOnce(timeout: .milliseconds(10)) }
        #expect(try streamed.result?.get().succeeded == true)
        #expect(Self.relativeX(output) == before, "nothing aimed during the hold")
        #expect(streamed.lines == ["C0:DD:EE:00:00:01: measuring the gyro's bias: hold it still for 2 s"]
            + (1...9).map { "C0:DD:EE:00:00:01: measuring, \($0 * 10)%" }
            + ["C0:DD:EE:00:00:01: bias x 0.0 y 1.5 z 0.0 deg/s, stored"])
        #expect(store.load()["C0:DD:EE:00:00:01"].map { abs($0.y - Double(Self.drift.y) * 2048 / 4095 * Double.pi / 180) < 1e-12 } == true)
        // Calibrated: ten seconds at rest move nothing.
        for _ in 0..<1000 { stamps.send(harness, feed, gyro: Self.drift) }
        #expect(Self.relativeX(output) == before)

        // A daemon started later takes the stored bias for the controller.
        let later = try DaemonTests.Harness(config: Self.aiming)
        defer { later.finish() }
        later.daemon.biasStore = store
        let again = later.controller()
        let laterOutput = try #require(later.outputs.first)
        let laterStamps = Stamps()
        for _ in 0...1000 { laterStamps.send(later, again, gyro: Self.drift) }
        #expect(Self.relativeX(laterOutput) == 0)
        #expect(later.daemon.calibrationLines == ["C0:DD:EE:00:00:01: bias x 0.0 y 1.5 z 0.0 deg/s"])
    }

    /// A `nan` in the store reached the gyro path as the bias: the first packet's `Int(NaN)`
    /// trapped (SIGILL), at every restart. The line is refused, the gyro aims uncalibrated.
    @Test func aNonFiniteStoredBiasIsRefusedAndTheGyroStillAims() throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("daydream-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: state) }
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
        let store = GyroBiasStore(directory: state)
        try "C0:DD:EE:00:00:01 nan 0 0\n".write(toFile: store.path, atomically: false, encoding: .utf8)
        let harness = try DaemonTests.Harness(config: Self.aiming)
        defer { harness.finish() }
        harness.daemon.biasStore = store
        let feed = harness.controller()
        let output = try #require(harness.outputs.first)
        let stamps = Stamps()
        for _ in 0...100 { stamps.send(harness, feed, gyro: Self.drift) }
        #expect(Self.relativeX(output) == -15)
        #expect(harness.daemon.calibrationLines == ["C0:DD:EE:00:00:01: not calibrated"])
    }

    @Test func aMoveOrADisconnectEndsTheStreamWithTheReason() throws {
        let harness = try DaemonTests.Harness(config: Self.aiming)
        defer { harness.finish() }
        let path = harness.directory + "/run/control"
        try harness.daemon.start(controlSocket: path)
        let feed = harness.controller()
        let stamps = Stamps()
        stamps.send(harness, feed, gyro: Self.drift)

        for ending in ["moved", "disconnected"] {
            let streamed = Streamed()
            Thread.detachNewThread {
                streamed.end(Result { try ControlClient.stream(.calibrate(address: "c0:dd:ee:00:00:01"), paths: [path], silence: .seconds(10)) { streamed.add($0) } })
            }
            let started = Date().addingTimeInterval(5)
            while harness.daemon.controllers.first?.isCalibrating != true, Date() < started { harness.reactor.runOnce(timeout: .milliseconds(10)) }
            for _ in 0..<20 { stamps.send(harness, feed, gyro: Self.drift) }
            if ending == "moved" {
                stamps.send(harness, feed, gyro: RawVector(0, 200, 0))
            } else {
                feed.linkChanged(connected: false, at: harness.reactor.now)
            }
            let ended = Date().addingTimeInterval(5)
            while streamed.result == nil, Date() < ended { harness.reactor.runOnce(timeout: .milliseconds(10)) }
            #expect(streamed.lines.last?.hasPrefix("C0:DD:EE:00:00:01: failed: \(ending == "moved" ? "it moved" : "disconnected")") == true,
                    "\(streamed.lines)")
            #expect(harness.daemon.controllers.first?.isCalibrating == false)
        }
        #expect(harness.daemon.calibrationLines == ["C0:DD:EE:00:00:01: not calibrated"])
        // Disconnected now: nothing to measure, said at once.
        let reply = ControlReply(harness.daemon.perform(.calibrateGyro(controller: nil)))
        #expect(reply.message.hasPrefix("no controller is connected"), "\(reply)")
    }
}
