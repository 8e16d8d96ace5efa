import DaydreamCore
import DaydreamProtocol
import Testing
import Timebase

/// A Gear VR's feed: each notification's three samples reach the consumers one by one, each
/// with its own time; an echo is no packet and no malformed one.
@MainActor
@Suite struct GearVRFeedTests {
    @MainActor final class Recorder: ControllerConsumer {
        var packets: [DaydreamPacket] = []
        var malformed = 0
        func receive(_ packet: DaydreamPacket, at time: MonotonicTime) { packets.append(packet) }
        func linkChanged(connected: Bool, at time: MonotonicTime) {}
        func malformedNotificationDropped(at time: MonotonicTime) { malformed += 1 }
    }

    /// A Gear VR packet with samples at `times` whose gyro x is 10, 20, 30 and the trigger held.
    static func packet(times: [UInt32]) -> [UInt8] {
        var packet = DaydreamPacket(gyro: RawVector(30, 0, 0), buttons: [.trigger])
        packet.family = .gearVR
        packet.clock = .microseconds
        packet.sampleCount = 3
        packet.sampleIndex = 2
        packet.sampleTime = times[2]
        packet.earlierSamples = EarlierSamples(
            IMUSample(time: times[0], gyro: RawVector(10, 0, 0)), IMUSample(time: times[1], gyro: RawVector(20, 0, 0)))
        packet.battery = 64
        return packet.gearVRBytes
    }

    @Test func everySampleReachesTheConsumersWithItsOwnTime() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .gearVR)
        let recorder = Recorder()
        feed.attach(recorder)
        Self.packet(times: [100, 4950, 9800]).withUnsafeBytes { feed.receive($0, at: .seconds(1)) }
        #expect(recorder.packets.map(\.gyro.x) == [10, 20, 30])
        #expect(recorder.packets.map(\.stamp) == [100, 4950, 9800].map { ControllerStamp(microseconds: $0) })
        #expect(recorder.packets.map(\.isLatestSample) == [false, false, true])
        #expect(recorder.packets.allSatisfy { $0.buttons == [.trigger] && $0.battery == 64 })
        #expect(feed.statistics.received == 1)
    }

    @Test func anEchoIsHandedToTheLinkNeverToTheConsumers() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .gearVR)
        let recorder = Recorder()
        feed.attach(recorder)
        var echoes: [UInt16] = []
        feed.commandEchoed = { echoes.append($0) }
        [UInt8]([0x08, 0x00]).withUnsafeBytes { feed.receive($0, at: .seconds(1)) }
        [UInt8](repeating: 0, count: 20).withUnsafeBytes { feed.receive($0, at: .seconds(1)) }
        #expect(echoes == [0x0008])
        #expect(recorder.packets.isEmpty)
        #expect(recorder.malformed == 1)
        #expect(feed.statistics.malformed == 1)
    }

    @Test func aModelCountsANotificationOnceAndSeesTheTrigger() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .gearVR)
        let model = DDController(address: "AA:BB:CC:DD:EE:01", family: .gearVR, scheduler: ManualScheduler())
        model.follow(feed)
        Self.packet(times: [100, 4950, 9800]).withUnsafeBytes { feed.receive($0, at: .seconds(1)) }
        #expect(model.statistics.received == 1)
        #expect(model.triggerButton.isPressed)
        #expect(!model.backButton.isPressed)
        #expect(model.family == .gearVR)
    }
}

/// A Gear VR's packets carry no orientation: the feed works it out from the three samples of
/// each, at their own times, so the pointer, tilt and opentrack turn with it.
@MainActor
@Suite struct GearVRFeedOrientationTests {
    /// Packets of three samples 5 ms apart: `rest` samples lying flat, then `turning` samples
    /// turning right at `degreesPerSecond`, gravity on the common frame's y throughout.
    static func packets(rest: Int, turning: Int, degreesPerSecond: Double) -> [[UInt8]] {
        let gyroY = Int16(-(degreesPerSecond * 14.285).rounded())
        let samples = (0..<(rest + turning)).map { index in
            IMUSample(time: UInt32(1_000 + 5_000 * index), acceleration: RawVector(0, 2048, 0),
                      gyro: RawVector(0, index < rest ? 0 : gyroY, 0))
        }
        return stride(from: 0, to: samples.count, by: 3).map { start in
            var packet = DaydreamPacket(acceleration: samples[start + 2].acceleration, gyro: samples[start + 2].gyro)
            packet.family = .gearVR
            packet.clock = .microseconds
            packet.sampleCount = 3
            packet.sampleIndex = 2
            packet.sampleTime = samples[start + 2].time
            packet.earlierSamples = EarlierSamples(samples[start], samples[start + 1])
            return packet.gearVRBytes
        }
    }

    @Test func aTurnRightReadsAsTheOrientationsYaw() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .gearVR)
        let recorder = GearVRFeedTests.Recorder()
        feed.attach(recorder)
        let packets = Self.packets(rest: 3, turning: 198, degreesPerSecond: 90)
        for (index, bytes) in packets.enumerated() {
            bytes.withUnsafeBytes { feed.receive($0, at: .milliseconds(Int64(15 * index))) }
        }
        // Each turning sample integrates its rate over the 5 ms before it.
        let rate = (90 * 14.285).rounded() / 14.285
        let expected = -198 * 0.005 * rate
        let yaw = (recorder.packets.last?.quaternion.yaw ?? 0) * 180 / Double.pi
        #expect(abs(yaw - expected) < 0.2, "yaw \(yaw), expected \(expected)")
        #expect(recorder.packets.prefix(3).allSatisfy { $0.orientation == .zero })
        let pitch = (recorder.packets.last?.quaternion.pitch ?? 1) * 180 / Double.pi
        #expect(abs(pitch) < 0.2)
    }

    @Test func theDaydreamKeepsItsFirmwaresOrientation() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .daydream)
        let recorder = GearVRFeedTests.Recorder()
        feed.attach(recorder)
        DaydreamPacket(orientation: RawVector(0, -683, 0), gyro: RawVector(0, 500, 0)).bytes
            .withUnsafeBytes { feed.receive($0, at: .seconds(1)) }
        #expect(recorder.packets.map(\.orientation) == [RawVector(0, -683, 0)])
    }
}
