/// The motion-sensor device's axes, as the kernel's `INPUT_PROP_ACCELEROMETER` convention and
/// hid-playstation's DualSense node have them: acceleration on `ABS_X/Y/Z` in units of
/// 1/8192 g, angular rate on `ABS_RX/RY/RZ` in units of 1/1024 degree per second (the axes'
/// `resolution`), and `MSC_TIMESTAMP` in microseconds.
///
/// Ranges cover the Daydream's sensors (protocol.md): ±8 g (4095 counts = 8 g, so one count is
/// 16 units) and ±2048 deg/s (4095 counts = 2048 deg/s, one count 512 units); the one count
/// beyond (-4096) is clamped. Fuzz 0 and flat 0: one count is already 16 or 512 units.
///
/// Axes: the Daydream's are the DualSense node's already (x to the right, y out of the
/// touchpad's face, z back towards the holder; the gyro right-handed about them: pitch, yaw,
/// roll), so each goes to its axis unchanged: lying flat, `ABS_Y` reads +1 g.
public enum MotionSensors {
    /// Acceleration units per g (`ABS_X/Y/Z` resolution), as hid-playstation.
    public static let unitsPerG: Int32 = 8192
    /// Angular-rate units per degree per second (`ABS_RX/RY/RZ` resolution), as hid-playstation.
    public static let unitsPerDegreePerSecond: Int32 = 1024

    /// ±8 g.
    public static let acceleration = AbsInfo(minimum: -8 * unitsPerG, maximum: 8 * unitsPerG, resolution: unitsPerG)
    /// ±2048 deg/s.
    public static let angularRate = AbsInfo(
        minimum: -2048 * unitsPerDegreePerSecond, maximum: 2048 * unitsPerDegreePerSecond,
        resolution: unitsPerDegreePerSecond)

    /// The acceleration axes, x, y, z.
    public static let accelerationAxes = [EventCode.absX, EventCode.absY, EventCode.absZ]
    /// The angular-rate axes, about x, y, z.
    public static let angularRateAxes = [EventCode.absRx, EventCode.absRy, EventCode.absRz]

    /// Every code the device carries: the six axes and `MSC_TIMESTAMP`.
    public static var capabilities: DeviceCapabilities {
        DeviceCapabilities(
            absoluteAxes: accelerationAxes.map { AbsoluteAxis(code: $0, info: acceleration) }
                + angularRateAxes.map { AbsoluteAxis(code: $0, info: angularRate) },
            miscCodes: [EventCode.mscTimestamp])
    }

    /// Whether a code is one of the device's own.
    public static func carries(type: UInt16, code: UInt16) -> Bool {
        capabilities.carries(type: type, code: code)
    }
}

extension DeviceKindDescription {
    /// The motion sensors: `BUS_VIRTUAL` da7d:0004, named as hid-playstation names a pad's
    /// ("... Motion Sensors", a suffix SDL never takes for a gamepad), with
    /// `INPUT_PROP_ACCELEROMETER` and exactly `MotionSensors.capabilities`. No code routes to
    /// it and no setting may name it: its axes carry the sensors alone.
    public static let motion = DeviceKindDescription(
        name: "motion", deviceName: "Daydream Controller Motion Sensors", product: 0x0004,
        properties: [InputProperty.accelerometer],
        classificationCodes: MotionSensors.capabilities, ownCodes: MotionSensors.capabilities, takesSettings: false)
}
