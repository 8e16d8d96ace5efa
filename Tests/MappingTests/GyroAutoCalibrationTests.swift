import DaydreamProtocol
import Foundation
import EventVocabulary
import Mapping
import Testing
import Timebase

/// `gyro = { auto-calibrate = true }` in the engine: the controller's fused orientation and its
/// accelerometer tell a real rest from a slow turn; a rest's raw mean replaces the stored bias.
@Suite("gyro auto-calibration")
struct GyroAutoCalibrationTests {
    static let degree = Double.pi / 180
    /// A resting gyro that reads 1.5 deg/s about y (yaw), -1 about x and 0.5 about z: it drifts.
    static let bias = Vector3(x: -1 * degree, y: 1.5 * degree, z: 0.5 * degree)
    /// Gravity with the controller flat on a table.
    static let flat = Vector3(x: 0, y: 9.8, z: 0)
    static let interval = 1.0 / 70

    /// Yaw by `angle` radians, as the controller sends it: a rotation vector in counts of 2 pi / 4095.
    static func orientation(yaw angle: Double) -> Quaternion {
        let counts = (angle / Scale.orientation).rounded()
        return Quaternion(rotationVector: Vector3(x: 0, y: counts * Scale.orientation, z: 0))
    }

    /// A gyro reading: `rate` (rad/s) as the gyro's counts of 0.5 deg/s give it, with `noise`
    /// counts added about each axis.
    static func reading(_ rate: Vector3, noise: Double = 0) -> Vector3 {
        func counts(_ value: Double) -> Double { ((value / Scale.gyro).rounded() + noise) * Scale.gyro }
        return Vector3(x: counts(rate.x), y: counts(rate.y), z: counts(rate.z))
    }

    /// Mouse aiming with 10 counts a degree, auto-calibrating, starting from `stored` (the
    /// bias `calibrate` stored, as the bridge sets it at connection).
    struct Controller: ~Copyable {
        var engine: MappingEngine
        var packets = 0
        var notices: [MappingNotice] = []

        init(stored: Vector3 = .zero, autoCalibrate: Bool = true) {
            var settings = GyroSettings()
            settings.countsPerDegree = 10
            settings.autoCalibrate = autoCalibrate
            engine = MappingEngine(configuration: MappingConfiguration(profiles: [Profile(name: "aim", gyro: settings)]))
            engine.setGyroBias(stored)
        }

        /// The seconds the last packet was read at.
        var clock = 0.0

        /// One packet `after` seconds after the last (1/70 s); the counts it moved the mouse (x, y).
        mutating func send(rate: Vector3, acceleration: Vector3 = GyroAutoCalibrationTests.flat, orientation: Quaternion = .identity,
                           after: Double = GyroAutoCalibrationTests.interval) -> (x: Int, y: Int) {
            let input = ControllerInput(orientation: orientation, rotationRate: rate, acceleration: acceleration)
            var buffer = OutputBuffer()
            if packets > 0 { clock += after }
            engine.update(input, at: MonotonicTime(nanoseconds: Int64((clock * 1e9).rounded())), into: &buffer)
            packets += 1
            notices += engine.takeNotices()
            let moves = buffer.events.filter { $0.type == EventType.rel }
            return (moves.filter { $0.code == EventCode.relX }.reduce(0) { $0 + Int($1.value) },
                    moves.filter { $0.code == EventCode.relY }.reduce(0) { $0 + Int($1.value) })
        }

        var refinements: Int {
            notices.filter { if case .gyroBiasRefined = $0 { true } else { false } }.count
        }
    }

    /// Noise of -1, 0 or +1 gyro count, a fixed sequence with a zero mean over each 3 packets.
    static func noise(_ index: Int) -> Double { Double(index % 3 - 1) }

    /// A drifting controller at rest with a stored bias a third off: the stored one applies
    /// first (it drifts 1/3 as much), then the rest's mean replaces it and the drift is gone.
    /// By hand: without the refinement, the yaw third of 1.5 deg/s over the last 5 s would be
    /// 0.5 x 5 x 10 = 25 counts; with it, none.
    @Test func aDriftingControllerAtRestEndsAtZeroDrift() {
        let stored = Vector3(x: Self.bias.x * 2 / 3, y: Self.bias.y * 2 / 3, z: Self.bias.z * 2 / 3)
        var controller = Controller(stored: stored)
        #expect(controller.engine.gyroBias == stored)
        var late = (x: 0, y: 0)
        for index in 0..<(10 * 70) {
            let moved = controller.send(rate: Self.reading(Self.bias, noise: Self.noise(index)))
            if index >= 5 * 70 { late = (late.x + moved.x, late.y + moved.y) }
        }
        let refined = controller.engine.gyroBias
        #expect(abs(refined.x - Self.bias.x) < 0.05 * Self.degree && abs(refined.y - Self.bias.y) < 0.05 * Self.degree
                && abs(refined.z - Self.bias.z) < 0.05 * Self.degree, "\(refined)")
        #expect(controller.engine.refinedGyroBias == refined)
        #expect(abs(late.x) <= 1 && abs(late.y) <= 1, "the last 5 s moved \(late)")
        #expect(controller.refinements >= 8, "once a second of rest from the first: \(controller.refinements)")

        var manual = Controller(stored: stored, autoCalibrate: false)
        var drift = 0
        for index in 0..<(10 * 70) {
            let moved = manual.send(rate: Self.reading(Self.bias, noise: Self.noise(index)))
            if index >= 5 * 70 { drift += moved.x }
        }
        #expect(abs(abs(drift) - 25) <= 2, "without auto-calibrate the stored bias leaves \(drift) counts")
    }

    /// A slow steady 2 deg/s turn about gravity held for 10 s: the raw gyro is as steady as at
    /// rest and the accelerometer does not change, but the fused orientation turns, so it is
    /// never taken for rest. By hand: 2 deg/s x 10 s x 10 counts = 200 counts to the right
    /// (turning right is negative about y), all of them.
    @Test func aSlowSteadyTurnIsNeverTakenForRest() {
        var controller = Controller(stored: Self.bias)
        let turn = Vector3(x: 0, y: -2 * Self.degree, z: 0)
        var total = 0
        // 701 packets: 700 intervals of 1/70 s after the first, 10 s.
        for index in 0...700 {
            let rate = Self.reading(Vector3(x: Self.bias.x, y: Self.bias.y + turn.y, z: Self.bias.z))
            total += controller.send(rate: rate, orientation: Self.orientation(yaw: turn.y * Double(index) * Self.interval)).x
        }
        #expect(controller.refinements == 0)
        #expect(controller.engine.gyroBias == Self.bias, "the stored bias still applies")
        // The readings are whole gyro counts: the turn the bias-free reading carries is by hand
        // (2 deg/s rounded to counts of 0.5 deg/s: 2.0) x 10 s x 10.
        #expect(abs(total - 200) <= 1, "\(total)")
    }

    /// Turned about in the hand for 2 s, then set down on a table: the rest is measured and the
    /// drift stops within 2 s of setting it down.
    @Test func aControllerSetDownRecalibratesWithinAFewSeconds() {
        var controller = Controller()
        var yaw = 0.0
        for index in 0..<(2 * 70) {
            let phase = Double(index) * Self.interval
            let rate = Vector3(x: 20 * Self.degree * sin(phase * 5), y: 40 * Self.degree * cos(phase * 3), z: 0)
            yaw += rate.y * Self.interval
            let hand = Vector3(x: 0.5 * sin(phase * 7), y: 9.8, z: 0.5 * cos(phase * 11))
            _ = controller.send(rate: Self.reading(Vector3(x: rate.x + Self.bias.x, y: rate.y + Self.bias.y, z: Self.bias.z)),
                                acceleration: hand, orientation: Self.orientation(yaw: yaw))
        }
        #expect(controller.refinements == 0, "in the hand it never rests")
        let resting = Self.orientation(yaw: yaw)
        var firstRefinement: Int?
        var late = 0
        for index in 0..<(5 * 70) {
            let moved = controller.send(rate: Self.reading(Self.bias, noise: Self.noise(index)), orientation: resting)
            if firstRefinement == nil, controller.refinements > 0 { firstRefinement = index }
            if index >= 2 * 70 { late += abs(moved.x) + abs(moved.y) }
        }
        let settled = firstRefinement ?? .max
        #expect(settled <= 2 * 70, "refined after \(settled) packets on the table (Int.max: never)")
        #expect(late <= 2, "after the first 2 s on the table the mouse moved \(late) counts")
    }

    /// A gap in the packets (a profile without auto-calibrate in between, say) is not time at
    /// rest: half a second of packets, 5 s of nothing, then half a second more is 1 s of rest,
    /// measured at its last packet, not at the first packet after the gap.
    @Test func aGapInThePacketsIsNotTimeAtRest() {
        var controller = Controller()
        for _ in 0..<35 { _ = controller.send(rate: Self.reading(Self.bias)) }
        _ = controller.send(rate: Self.reading(Self.bias), after: 5)
        #expect(controller.refinements == 0, "the gap counted as rest")
        for _ in 0..<34 { _ = controller.send(rate: Self.reading(Self.bias)) }
        #expect(controller.refinements == 1)
    }

    /// Held in the hand, still but for the hand's tremor in the accelerometer: not a rest.
    @Test func aHandsTremorIsNoRest() {
        var detector = GyroAutoCalibration()
        for index in 0..<(3 * 70) {
            let tremor = Vector3(x: index.isMultiple(of: 2) ? 0.3 : -0.3, y: 9.8, z: 0)
            #expect(detector.add(rate: Self.bias, acceleration: tremor, seconds: Self.interval, orientation: { .identity }) == nil)
        }
    }
}

/// A Gear VR sends no orientation: the feed estimates it from the same gyro, so its bias turns
/// the estimate as a slow turn would. Its rests are judged by the raw rate and the
/// accelerometer, and a Gear VR at rest is calibrated like a Daydream.
@Suite("gyro auto-calibration with an estimated orientation")
struct GyroAutoCalibrationEstimatedTests {
    @Test func aGearVRAtRestIsCalibratedThoughItsEstimateDrifts() {
        var settings = GyroSettings()
        settings.countsPerDegree = 10
        settings.autoCalibrate = true
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [Profile(name: "aim", gyro: settings)]))
        // 1.5 deg/s of bias about y (14.285 counts per deg/s), lying flat: the estimate turns
        // 1.5 degrees a second, three times the rest's 0.5 degree limit.
        let biasCounts: Int16 = 21
        let degreesPerCount = 1 / 14.285
        var refined = 0
        for index in 0..<(4 * 206) {
            var packet = DaydreamPacket(acceleration: RawVector(0, 2048, 0), gyro: RawVector(0, biasCounts, 0))
            packet.family = .gearVR
            packet.clock = .microseconds
            packet.sampleTime = UInt32(4_854 * index)
            let turned = Double(index) / 206 * Double(biasCounts) * degreesPerCount
            packet.orientation = RawVector(0, Int16((turned * Double.pi / 180 / Scale.orientation).rounded()), 0)
            let input = ControllerInput(packet: packet)
            #expect(!input.orientationIsFused)
            var buffer = OutputBuffer()
            engine.update(input, at: MonotonicTime(nanoseconds: Int64(4_854_000 * index)), into: &buffer)
            refined += engine.takeNotices().filter { if case .gyroBiasRefined = $0 { true } else { false } }.count
        }
        #expect(refined >= 2, "refined \(refined) times in 4 s of rest")
        let bias = engine.gyroBias.y * 180 / Double.pi
        #expect(abs(bias - Double(biasCounts) * degreesPerCount) < 0.01, "bias \(bias) deg/s")
    }

    @Test func aDaydreamsOrientationIsTheFirmwares() {
        #expect(ControllerInput(packet: DaydreamPacket(orientation: RawVector(0, 5, 0))).orientationIsFused)
    }
}
