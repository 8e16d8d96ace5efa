import DaydreamCore
import DaydreamProtocol
import Testing
import Timebase

/// The Gear VR's packet carries its battery level (byte 59): it reaches the consumers and the
/// controller model as a reading, like the Daydream's from the Battery Service (0x180F).
@MainActor
@Suite struct GearVRBatteryTests {
    @MainActor final class Recorder: ControllerConsumer {
        var levels: [Int] = []
        var packets = 0
        func receive(_ packet: DaydreamPacket, at time: MonotonicTime) { packets += 1 }
        func linkChanged(connected: Bool, at time: MonotonicTime) {}
        func batteryChanged(percent: Int, at time: MonotonicTime) { levels.append(percent) }
    }

    static func packet(battery: UInt8) -> [UInt8] {
        var packet = DaydreamPacket(acceleration: RawVector(0, 2048, 0))
        packet.family = .gearVR
        packet.clock = .microseconds
        packet.battery = battery
        return packet.gearVRBytes
    }

    @Test func eachNewLevelInThePacketsIsAReading() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .gearVR)
        let recorder = Recorder()
        feed.attach(recorder)
        for level: UInt8 in [80, 80, 80, 79, 79, 255, 255] {
            Self.packet(battery: level).withUnsafeBytes { feed.receive($0, at: .seconds(1)) }
        }
        // Once a change, not once a packet; past 100 is 100, as a read level is clamped.
        #expect(recorder.levels == [80, 79, 100])
        #expect(feed.batteryPercent == 100)
        #expect(recorder.packets == 7 * 3)
    }

    @Test func aReadingFromTheBatteryServiceIsFollowedByThePacketsLevel() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .gearVR)
        let recorder = Recorder()
        feed.attach(recorder)
        feed.batteryChanged(percent: 81, at: .seconds(1))
        Self.packet(battery: 81).withUnsafeBytes { feed.receive($0, at: .seconds(2)) }
        Self.packet(battery: 78).withUnsafeBytes { feed.receive($0, at: .seconds(3)) }
        #expect(recorder.levels == [81, 78])
    }

    @Test func theControllerModelHasTheLevel() {
        let feed = ControllerFeed(address: "AA:BB:CC:DD:EE:01", family: .gearVR)
        let model = DDController(address: "AA:BB:CC:DD:EE:01", family: .gearVR, scheduler: ManualScheduler())
        model.follow(feed)
        #expect(model.batteryLevel == nil)
        Self.packet(battery: 64).withUnsafeBytes { feed.receive($0, at: .seconds(1)) }
        #expect(model.batteryLevel == 0.64)
    }
}
