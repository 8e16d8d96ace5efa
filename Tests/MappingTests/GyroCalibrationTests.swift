import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
import Timebase

@Suite("gyro calibration")
struct GyroCalibrationTests {
    @Test func aConstantBiasIsMeasuredOverTheHold() {
        var calibration = GyroCalibration(duration: 0.1)
        var last = GyroCalibration.Step.measuring(0)
        let bias = Vector3(x: 0.01, y: -0.02, z: 0.005)
        for index in 0..<10 {
            let noise = index.isMultiple(of: 2) ? 0.001 : -0.001
            last = calibration.add(Vector3(x: bias.x + noise, y: bias.y - noise, z: bias.z), seconds: 0.01)
        }
        guard case .done(let measured) = last else {
            Issue.record("not done after 0.1 s: \(last)")
            return
        }
        #expect(abs(measured.x - bias.x) < 1e-12 && abs(measured.y - bias.y) < 1e-12 && abs(measured.z - bias.z) < 1e-12)
    }

    @Test func progressAndAMoveAreSaid() {
        var calibration = GyroCalibration(duration: 0.1)
        guard case .measuring(let first) = calibration.add(.zero, seconds: 0.01),
              case .measuring(let second) = calibration.add(.zero, seconds: 0.04) else {
            Issue.record("not measuring")
            return
        }
        #expect(abs(first - 0.1) < 1e-9 && abs(second - 0.5) < 1e-9)
        #expect(calibration.add(Vector3(x: 0, y: 0.5, z: 0), seconds: 0.01) == .moved)
    }
}

/// Calibration in the engine: the `gyro-calibrate` action measures over the controller's clock,
/// says its progress, and the bias it finds comes off every rate the gyro aims with.
@Suite("gyro calibration in the engine")
struct GyroCalibrationEngineTests {
    static let degree = Double.pi / 180
    /// A resting gyro that reads 1.5 deg/s about y (yaw) and -0.8 about x: it drifts.
    static let bias = Vector3(x: -0.8 * degree, y: 1.5 * degree, z: 0.3 * degree)

    /// A mouse-aiming profile (1 count per degree at sens 1, no cutoff) with calibrate on home.
    static func engine() -> MappingEngine {
        var settings = GyroSettings()
        settings.countsPerDegree = 1
        return MappingEngine(configuration: MappingConfiguration(profiles: [
            Profile(name: "aim", home: .plain(.calibrateGyro), gyro: settings),
        ]))
    }

    /// Packets 10 ms apart by the controller's clock (stamp in ms mod 512), all read at the same
    /// arrival time step of 1 ms: the hold is timed by the stamps.
    struct Feeder: ~Copyable {
        var engine: MappingEngine
        var index = 0
        var notices: [MappingNotice] = []

        mutating func send(_ rate: Vector3, buttons: DaydreamButtons = []) -> [OutputEvent] {
            var input = ControllerInput(buttons: buttons)
            input.acceleration = Vector3(x: 0, y: 9.81, z: 0)
            input.rotationRate = rate
            input.controllerTime = ControllerStamp(milliseconds: UInt16(index * 10 % 512))
            var buffer = OutputBuffer()
            engine.update(input, at: .milliseconds(Int64(index)), into: &buffer)
            index += 1
            notices += engine.takeNotices()
            return buffer.events
        }

        static func counts(_ events: [OutputEvent], _ code: UInt16) -> Int {
            events.filter { $0.type == EventType.rel && $0.code == code }.reduce(0) { $0 + Int($1.value) }
        }
    }

    @Test func theMeasuredBiasStopsTheDriftAndKeepsRealTurns() {
        var feeder = Feeder(engine: Self.engine())
        // Before: a second at rest drifts 1.5 counts a second left (turning left moves left).
        var drifted = 0
        for _ in 0...100 { drifted += Feeder.counts(feeder.send(Self.bias), EventCode.relX) }
        #expect(drifted == -1, "1.5 deg/s for 1 s at 1 count per degree: 1.5 counts, one whole so far")
        _ = feeder.send(Self.bias, buttons: .home)
        _ = feeder.send(Self.bias)
        // The hold: 2 s by the stamps, nothing aimed meanwhile.
        var aimedWhileMeasuring = 0
        for _ in 0..<200 { aimedWhileMeasuring += feeder.send(Self.bias).count }
        #expect(aimedWhileMeasuring == 0)
        let progress = feeder.notices.compactMap { notice -> Double? in
            if case .gyroCalibrationProgress(let fraction) = notice { return fraction }
            return nil
        }
        #expect(progress == [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9])
        guard case .gyroCalibrated(let measured)? = feeder.notices.last else {
            Issue.record("no result: \(feeder.notices)")
            return
        }
        #expect(abs(measured.x - Self.bias.x) < 1e-9 && abs(measured.y - Self.bias.y) < 1e-9 && abs(measured.z - Self.bias.z) < 1e-9)
        #expect(feeder.engine.gyroBias == measured)
        // After: ten seconds at rest move nothing; a real 20 deg/s right turn for 1 s moves 20 counts.
        var still = 0
        for _ in 0..<1000 { still += Feeder.counts(feeder.send(Self.bias), EventCode.relX) }
        #expect(still == 0)
        var turned = 0
        let right = Vector3(x: Self.bias.x, y: Self.bias.y - 20 * Self.degree, z: Self.bias.z)
        for _ in 0..<100 { turned += Feeder.counts(feeder.send(right), EventCode.relX) }
        #expect(turned == 20)
    }

    @Test func aMoveDuringTheHoldChangesNothing() {
        var feeder = Feeder(engine: Self.engine())
        feeder.engine.setGyroBias(Vector3(x: 0, y: 0.001, z: 0))
        _ = feeder.send(.zero)
        _ = feeder.send(.zero, buttons: .home)
        for _ in 0..<50 { _ = feeder.send(Self.bias) }
        _ = feeder.send(Vector3(x: 0, y: 30 * Self.degree, z: 0))
        #expect(feeder.notices.last == .gyroCalibrationFailed)
        #expect(feeder.engine.gyroBias == Vector3(x: 0, y: 0.001, z: 0), "the bias from before stays")
        #expect(feeder.engine.gyroCalibrationProgress == nil)
        // And aiming is back at once.
        #expect(Feeder.counts(feeder.send(Vector3(x: 0, y: -150 * Self.degree, z: 0)), EventCode.relX) == 1)
    }
}
