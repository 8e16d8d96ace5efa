/// Writes `DualSenseInputState`s as Bluetooth input reports (id 0x31, 78
/// bytes) in the layout hid-playstation reads: the id, a sequence byte, then
/// `struct dualsense_input_report`, then the CRC (`DualSenseChecksum`). It
/// keeps what runs across reports: the report counters and the touch contact
/// number, which a new finger increments.
///
/// The report is written in place into `report`, so encoding allocates
/// nothing while no one else holds a copy of it.
public struct DualSenseInputReportEncoder: Sendable {
    /// The last report encoded; all zeros but the id (and its CRC) before the first.
    public private(set) var report: [UInt8]
    private var counter: UInt8 = 0
    private var contact: UInt8 = 0
    private var touching = false

    /// Offsets in the report: the id at 0, the Bluetooth sequence byte at 1,
    /// the state from 2 (hid-playstation's `&data[2]`).
    enum Offset {
        static let sequence = 1
        static let leftStick = 2, rightStick = 4, leftTrigger = 6, rightTrigger = 7, counter = 8
        static let buttons = 9, gyro = 17, acceleration = 23, sensorTime = 29
        static let touch = 34, secondTouch = 38, status = 54
    }

    /// Bit 7 of a touch point's contact byte: no finger.
    static let inactiveContact: UInt8 = 0x80

    public init() {
        report = [UInt8](repeating: 0, count: DualSenseReportID.state.length)
        report[0] = DualSenseReportID.state.rawValue
        report[Offset.touch] = Self.inactiveContact
        report[Offset.secondTouch] = Self.inactiveContact
        DualSenseChecksum.seal(&report, seed: DualSenseChecksum.inputSeed)
    }

    /// Encodes `state` into `report`.
    public mutating func encode(_ state: DualSenseInputState) {
        report[Offset.leftStick] = state.leftStick.x
        report[Offset.leftStick + 1] = state.leftStick.y
        report[Offset.rightStick] = state.rightStick.x
        report[Offset.rightStick + 1] = state.rightStick.y
        report[Offset.leftTrigger] = state.leftTrigger
        report[Offset.rightTrigger] = state.rightTrigger
        // The sequence number in the high nibble, as the host's reports carry theirs.
        report[Offset.sequence] = (counter & 0x0F) << 4
        report[Offset.counter] = counter
        counter &+= 1

        // Byte 9: hat in the low nibble, square/cross/circle/triangle above it;
        // bytes 10-11: the other eleven buttons in Buttons' order.
        let buttons = state.buttons.rawValue
        report[Offset.buttons] = state.dpad.rawValue | UInt8((buttons & 0x0F) << 4)
        report[Offset.buttons + 1] = UInt8((buttons >> 4) & 0xFF)
        report[Offset.buttons + 2] = UInt8((buttons >> 12) & 0x07)

        let gyroScale = DualSenseMotionUnits.gyroCountsPerDegreePerSecond
        let accelerationScale = DualSenseMotionUnits.accelerationCountsPerG
        store(Self.count(state.rotationRate.x, gyroScale), at: Offset.gyro)
        store(Self.count(state.rotationRate.y, gyroScale), at: Offset.gyro + 2)
        store(Self.count(state.rotationRate.z, gyroScale), at: Offset.gyro + 4)
        store(Self.count(state.acceleration.x, accelerationScale), at: Offset.acceleration)
        store(Self.count(state.acceleration.y, accelerationScale), at: Offset.acceleration + 2)
        store(Self.count(state.acceleration.z, accelerationScale), at: Offset.acceleration + 4)

        // The sensor clock counts thirds of a microsecond, wrapping at 32 bits.
        let ticks = UInt32(truncatingIfNeeded: state.sensorTime &* 3)
        for index in 0..<4 {
            report[Offset.sensorTime + index] = UInt8((ticks >> (8 * UInt32(index))) & 0xFF)
        }

        encodeTouch(state.touch)

        // Status: charge in tenths (10 full) low, 1 charging or 0 discharging high.
        let tenths = min(state.batteryPercent / 10, 10)
        report[Offset.status] = tenths | (state.charging ? 0x10 : 0x00)

        DualSenseChecksum.seal(&report, seed: DualSenseChecksum.inputSeed)
    }

    private mutating func encodeTouch(_ touch: DualSenseInputState.Touch?) {
        if let touch {
            if !touching {
                contact = (contact &+ 1) & 0x7F
                touching = true
            }
            report[Offset.touch] = contact
            report[Offset.touch + 1] = UInt8(touch.x & 0xFF)
            report[Offset.touch + 2] = UInt8((touch.x >> 8) & 0x0F) | UInt8((touch.y & 0x0F) << 4)
            report[Offset.touch + 3] = UInt8((touch.y >> 4) & 0xFF)
        } else {
            touching = false
            // The last position stays, as on the pad; the bit says it is stale.
            report[Offset.touch] = contact | Self.inactiveContact
        }
    }

    /// `value * scale`, rounded and clamped to 16 bits.
    static func count(_ value: Double, _ scale: Double) -> Int16 {
        let scaled = (value * scale).rounded()
        if scaled.isNaN { return 0 }
        return Int16(max(Double(Int16.min), min(Double(Int16.max), scaled)))
    }

    private mutating func store(_ value: Int16, at offset: Int) {
        let bits = UInt16(bitPattern: value)
        report[offset] = UInt8(bits & 0xFF)
        report[offset + 1] = UInt8(bits >> 8)
    }
}
