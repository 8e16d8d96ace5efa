import DaydreamProtocol
import EventVocabulary
import Testing
import Timebase
@testable import Mapping

/// The motion-sensor device's scaling, its timestamp and when it exists.
@Suite("Motion sensors")
struct MotionSensorTests {
    /// The real packet flat on a table (protocol.md): acceleration counts (0, 520, 11), gyro 0;
    /// the one with a finger on the pad has gyro counts (0, 0, 12).
    @Test func realPacketsScaleToUnitsPerGAndPerDegreePerSecond() throws {
        let flat = ControllerInput(packet: try DaydreamPacket(#require(Hex.decode("5BEBFFB825FDB000041000B00000000000000000"))))
        // 520 counts * 8 g / 4095 = 1.0159 g; at 8192 per g, 8322.
        #expect(MotionSensors.accelerationValue(flat.acceleration.y) == 8322)
        #expect(MotionSensors.accelerationValue(flat.acceleration.x) == 0)
        #expect(MotionSensors.accelerationValue(flat.acceleration.z) == 176)
        let touched = ControllerInput(packet: try DaydreamPacket(#require(Hex.decode("480BFE87EB00E801841000B00000000191FBA008"))))
        // 12 counts * 2048 / 4095 deg/s = 6.0015 deg/s; at 1024 per deg/s, 6146.
        #expect(MotionSensors.angularRateValue(touched.rotationRate.z) == 6146)
    }

    @Test func onePacketCountIsSixteenAccelerationUnits() {
        for count in [-4095, -1, 1, 511, 4095] {
            let value = MotionSensors.accelerationValue(Double(count) * Scale.acceleration)
            #expect(abs(Double(value) - Double(count) * 16.0039) < 1, "\(count) counts")
        }
        #expect(MotionSensors.accelerationValue(4095 * Scale.acceleration) == 65536)
        #expect(MotionSensors.accelerationValue(-4096 * Scale.acceleration) == -65536, "clamped to -8 g")
        #expect(MotionSensors.angularRateValue(4095 * Scale.gyro) == 2_097_152)
        #expect(MotionSensors.angularRateValue(-4096 * Scale.gyro) == -2_097_152, "clamped to -2048 deg/s")
        #expect(MotionSensors.accelerationValue(.nan) == 0)
    }

    /// The engine converts a packet's counts in integers: for every count the 13-bit field can
    /// hold, the same value as scaling it to SI units first.
    @Test func everyCountConvertsInIntegersAsItsScaledValueWould() {
        var differing: [String] = []
        for raw in -4096...4095 {
            let count = Int16(raw)
            let acceleration = MotionSensors.accelerationValue(Double(count) * Scale.acceleration)
            if MotionSensors.accelerationValue(count: count) != acceleration { differing.append("acceleration \(raw)") }
            let rate = MotionSensors.angularRateValue(Double(count) * Scale.gyro)
            if MotionSensors.angularRateValue(count: count) != rate { differing.append("angular rate \(raw)") }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        #expect(MotionSensors.accelerationValue(count: -4096) == -65536, "clamped to -8 g")
        #expect(MotionSensors.angularRateValue(count: 4095) == 2_097_152)
    }

    /// A packet's snapshot keeps its counts until its motion is set; both write the same frame.
    @Test func aPacketsCountsAndItsSIValuesWriteTheSameFrame() throws {
        let packet = try DaydreamPacket(#require(Hex.decode("480BFE87EB00E801841000B00000000191FBA008")))
        let fromPacket = ControllerInput(packet: packet)
        #expect(fromPacket.sensorCounts != nil)
        #expect(fromPacket.acceleration == packet.accelerationSI)
        #expect(fromPacket.rotationRate == packet.rotationRate)
        #expect(fromPacket.orientation == packet.quaternion)
        var given = fromPacket
        given.acceleration = packet.accelerationSI
        #expect(given.sensorCounts == nil, "a set value replaces the counts")
        #expect(given.rotationRate == packet.rotationRate, "and keeps the other")
        #expect(given == fromPacket)
        let profile = Profile(name: "motion", motionSensors: true)
        func frame(_ input: ControllerInput) -> [OutputEvent] {
            var engine = MappingEngine(configuration: MappingConfiguration(profiles: [profile]))
            var buffer = OutputBuffer()
            engine.update(input, at: .zero, into: &buffer)
            return buffer.events.filter { $0.device == .motion }
        }
        let counted = frame(fromPacket)
        #expect(counted.filter { $0.type == EventType.abs }.count >= 3, "the axes off rest: \(counted)")
        #expect(counted == frame(given))
    }

    @Test func timestampFollowsTheStampsAcrossTheirWrap() {
        var clock = MotionSensorClock()
        var time = MonotonicTime.zero
        var stamps: [UInt32] = []
        // 60 packets 16 ms apart from stamp 400: the stamp wraps at 512 after seven.
        for index in 0..<60 {
            stamps.append(clock.timestamp(stamp: ControllerStamp(milliseconds: UInt16((400 + 16 * index) % 512)), at: time))
            time = time + .milliseconds(16)
        }
        #expect(stamps == (0..<60).map { UInt32($0 * 16_000) })
    }

    @Test func timestampTakesTheArrivalWhenTheStampCannotBeBelieved() {
        var clock = MotionSensorClock()
        #expect(clock.timestamp(stamp: ControllerStamp(milliseconds: 10), at: .zero) == 0)
        // 700 ms later by arrival, 188 ms by the wrapped stamp: a gap, so the arrival counts.
        #expect(clock.timestamp(stamp: ControllerStamp(milliseconds: 198), at: .milliseconds(700)) == 700_000)
        // The same stamp twice (a clock that does not run): the arrival again.
        #expect(clock.timestamp(stamp: ControllerStamp(milliseconds: 198), at: .milliseconds(705)) == 705_000)
        #expect(clock.timestamp(stamp: nil, at: .milliseconds(715)) == 715_000)
    }

    @Test func timestampWrapsAsThirtyTwoBits() {
        var clock = MotionSensorClock()
        var last: UInt32 = 0
        var time = MonotonicTime.zero
        var wrapped = false
        // 72 minutes of packets a second apart (no stamps): past 2^32 microseconds.
        for _ in 0..<(72 * 60) {
            time = time + .seconds(1)
            let stamp = clock.timestamp(stamp: nil, at: time)
            if stamp < last { wrapped = true }
            #expect(stamp &- last == 1_000_000 || last == 0)
            last = stamp
        }
        #expect(wrapped)
    }

    @Test func theDeviceExistsOnlyWhenAProfileAsksForIt() {
        let plain = MappingConfiguration(profiles: [Profile(name: "a", click: .plain(.keys([EventCode.btnSouth])))])
        #expect(plain.capabilities[.motion] == nil)
        let asked = MappingConfiguration(profiles: [
            Profile(name: "a", click: .plain(.keys([EventCode.btnSouth]))),
            Profile(name: "b", motionSensors: true),
        ])
        #expect(asked.capabilities[.motion] == MotionSensors.capabilities)
        #expect(asked.capabilities[.gamepad] == plain.capabilities[.gamepad], "the pad is the same with or without it")
        #expect(asked.capabilities.deviceKinds == [.gamepad, .motion])
    }

    @Test func noSettingMayNameTheMotionDevice() {
        #expect(OutputDeviceKind(name: "motion") == .motion)
        #expect(!OutputDeviceKind.motion.takesSettings)
        #expect(OutputDeviceKind.kinds(accepting: [(EventType.abs, EventCode.absX)]) == [.gamepad])
        #expect(OutputDeviceKind.motion.accepts(type: EventType.msc, code: EventCode.mscTimestamp))
        #expect(!OutputDeviceKind.motion.accepts(type: EventType.abs, code: EventCode.absHat0x))
        #expect(!OutputDeviceKind.motion.accepts(type: EventType.key, code: EventCode.btnSouth))
        #expect(OutputDeviceKind.route(type: EventType.abs, code: EventCode.absX) == .gamepad, "routing is unchanged")
    }
}
