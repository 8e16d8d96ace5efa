import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase

/// Gyro aiming in the engine: mouse counts, the switch (off while touching, from the packet the
/// finger lands in), a stick that follows the rate and centres when the gyro stops.
@Suite("gyro in the engine")
struct GyroEngineTests {
    static let degree = Double.pi / 180
    static let flat = Vector3(x: 0, y: 9.81, z: 0)

    /// One packet every 10 ms (by arrival; no controller clock), turning at `yawDegrees` per second.
    static func packet(yawDegrees: Double, pitchDegrees: Double = 0, touch: TouchPoint? = nil, buttons: DaydreamButtons = []) -> ControllerInput {
        var input = ControllerInput(buttons: buttons, touch: touch)
        input.acceleration = flat
        input.rotationRate = Vector3(x: pitchDegrees * degree, y: yawDegrees * degree, z: 0)
        return input
    }

    static func run(_ settings: GyroSettings, _ packets: [ControllerInput]) -> [[OutputEvent]] {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [Profile(name: "aim", gyro: settings)]))
        var frames: [[OutputEvent]] = []
        for (index, input) in packets.enumerated() {
            var buffer = OutputBuffer()
            engine.update(input, at: .milliseconds(Int64(index * 10)), into: &buffer)
            frames.append(buffer.events)
        }
        return frames
    }

    static func sum(_ frames: [[OutputEvent]], _ code: UInt16) -> Int {
        frames.joined().filter { $0.type == EventType.rel && $0.code == code }.reduce(0) { $0 + Int($1.value) }
    }

    @Test func aTurnMovesTheMouseByDegreesTimesSensTimesCounts() {
        var settings = GyroSettings()
        settings.minSens = 2
        settings.maxSens = 2
        settings.countsPerDegree = 10
        // Turning right (negative about y) at 30 deg/s for 1 s after the first packet: 30 x 2 x 10 = 600 counts right.
        let frames = Self.run(settings, (0...100).map { _ in Self.packet(yawDegrees: -30, pitchDegrees: 5) })
        #expect(Self.sum(frames, EventCode.relX) == 600)
        #expect(Self.sum(frames, EventCode.relY) == -100, "tipping up moves up")
        #expect(frames.joined().allSatisfy { $0.device == .mouse })
    }

    /// Issue 46: `cutoff-speed = 5` subtracted 5 deg/s from every faster turn (450 counts for the
    /// turn below). JSM passes a turn above the cutoff whole: 50 deg/s x 1 s x sens 1 x 10 counts
    /// a degree = 500 counts; a 4 deg/s turn is below it: 0.
    @Test func aTurnAboveTheCutoffPassesWhole() {
        var settings = GyroSettings()
        settings.countsPerDegree = 10
        settings.cutoffSpeed = 5
        // 101 packets 10 ms apart: 100 intervals, 1 s of turning.
        #expect(Self.sum(Self.run(settings, (0...100).map { _ in Self.packet(yawDegrees: -50) }), EventCode.relX) == 500)
        #expect(Self.sum(Self.run(settings, (0...100).map { _ in Self.packet(yawDegrees: -4) }), EventCode.relX) == 0)
    }

    /// Cutoff 2, recovery 6 deg/s: a 4 deg/s turn is scaled by (4 - 2) / (6 - 2) = 0.5, so 1 s of
    /// it is 4 x 0.5 x 10 = 20 counts; 10 deg/s is above the recovery: 10 x 10 = 100 counts.
    @Test func theRecoveryScalesATurnBetweenCutoffAndRecovery() {
        var settings = GyroSettings()
        settings.countsPerDegree = 10
        settings.cutoffSpeed = 2
        settings.cutoffRecovery = 6
        #expect(Self.sum(Self.run(settings, (0...100).map { _ in Self.packet(yawDegrees: -4) }), EventCode.relX) == 20)
        #expect(Self.sum(Self.run(settings, (0...100).map { _ in Self.packet(yawDegrees: -10) }), EventCode.relX) == 100)
    }

    /// doc/configuration.md says `air-mouse = { speed = S, always = true }` (without its drift
    /// deadzone) moves the pointer as `gyro = { sens = S }` does: the same counts for a turn.
    @Test func theAirMouseWithoutDeadzoneMovesAsGyroWithTheSameSens() {
        var gyro = GyroSettings()
        gyro.minSens = 2.5
        gyro.maxSens = 2.5
        var airMouse = AirMouseSettings()
        airMouse.speed = 2.5
        airMouse.deadzone = 0
        airMouse.always = true
        let turn = (0...200).map { index in Self.packet(yawDegrees: index < 100 ? -30 : 12, pitchDegrees: index < 50 ? 7 : -4) }
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [Profile(name: "air", airMouse: airMouse)]))
        var frames: [[OutputEvent]] = []
        for (index, input) in turn.enumerated() {
            var buffer = OutputBuffer()
            engine.update(input, at: .milliseconds(Int64(index * 10)), into: &buffer)
            frames.append(buffer.events)
        }
        let gyroFrames = Self.run(gyro, turn)
        for code in [EventCode.relX, EventCode.relY] {
            #expect(abs(Self.sum(frames, code) - Self.sum(gyroFrames, code)) <= 1, "code \(code)")
        }
        // After the first packet, 99 at 30 deg/s right and 101 at 12 left: 17.58 degrees right.
        let degreesRight: Double = 30 * 0.99 - 12 * 1.01
        let counts: Double = degreesRight * 2.5 * 1000 * Double.pi / 180
        #expect(abs(Double(Self.sum(gyroFrames, EventCode.relX)) - counts) <= 1)
    }

    @Test func offWhileTouchingStopsInThePacketTheFingerLands() {
        var settings = GyroSettings()
        settings.enabling = .offWhileTouched
        settings.countsPerDegree = 10
        var packets = (0..<5).map { _ in Self.packet(yawDegrees: -100) }
        packets.append(Self.packet(yawDegrees: -100, touch: TouchPoint(x: 0.5, y: 0.5)))
        packets.append(Self.packet(yawDegrees: -100, touch: TouchPoint(x: 0.5, y: 0.5)))
        packets.append(Self.packet(yawDegrees: -100))
        let frames = Self.run(settings, packets)
        #expect(Self.sum([frames[4]], EventCode.relX) == 10)
        #expect(Self.sum([frames[5], frames[6]], EventCode.relX) == 0, "no motion from the packet the finger lands in")
        #expect(Self.sum([frames[7]], EventCode.relX) == 10, "the turn since the last packet counts once the finger is off")
    }

    @Test func aToggleSwitchesOnEachPress() {
        var settings = GyroSettings()
        settings.enabling = .toggle(.app)
        settings.countsPerDegree = 10
        let packets = [Self.packet(yawDegrees: -100), Self.packet(yawDegrees: -100), Self.packet(yawDegrees: -100, buttons: .app),
                       Self.packet(yawDegrees: -100), Self.packet(yawDegrees: -100, buttons: .app), Self.packet(yawDegrees: -100),
                       Self.packet(yawDegrees: -100)]
        let frames = Self.run(settings, packets)
        // The first packet only starts the clock; a press switches from its own packet on.
        #expect(frames.map { Self.sum([$0], EventCode.relX) } == [0, 10, 0, 0, 10, 10, 10])
    }

    @Test func theStickFollowsTheRateAndCentresWhenTheGyroStops() {
        var settings = GyroSettings()
        settings.output = .rightStick
        settings.stickSpeed = 200
        settings.enabling = .onWhileHeld(.home)
        let frames = Self.run(settings, [Self.packet(yawDegrees: -100, buttons: .home), Self.packet(yawDegrees: -100, buttons: .home),
                                         Self.packet(yawDegrees: -100)])
        let rx = frames.map { $0.filter { $0.type == EventType.abs && $0.code == EventCode.absRx }.map(\.value) }
        #expect(rx[1] == [16384], "100 of 200 deg/s: half way right")
        #expect(rx[2] == [0], "released: centred")
        #expect(frames.joined().filter { $0.type == EventType.abs }.allSatisfy { $0.device == .gamepad })
        #expect(Profile(name: "p", gyro: settings).capabilities[.gamepad]?.absInfo(EventCode.absRy) == .stick)
    }
}
