/// Samsung's Gear VR controller (SM-R323/324/325): 60-byte packets of three IMU samples on
/// the "Oculus Threemote" data service, started by `0800`, its echo, then `0100`.
/// The layout is `GearVRLayout`'s.
extension ControllerFamily {
    public static let gearVR = ControllerFamily(
        id: .gearVR, name: "gear-vr", displayName: "Gear VR controller", isExperimental: false,
        discovery: Discovery(namePrefixes: [GearVRGATT.namePrefix], serviceUUIDs: [GearVRGATT.dataService]),
        gatt: GATTProfile(
            dataService: GearVRGATT.dataService, input: GearVRGATT.input, command: GearVRGATT.command,
            packetLength: GearVRLayout.length, untouchable: [DaydreamGATT.firmwareUpdateServiceUUID],
            serviceLayout: GearVRGATT.serviceLayout),
        stream: StreamProtocol(
            start: [
                StreamProtocol.Step(command: GearVRCommand.vrMode, awaitsEcho: true),
                StreamProtocol.Step(command: GearVRCommand.sensors, awaitsEcho: false),
            ],
            echoTimeoutMilliseconds: 3000,
            keepAlive: GearVRCommand.keepAlive, keepAliveMilliseconds: 10_000,
            stop: GearVRCommand.off,
            restartAfterSilenceMilliseconds: 3000, restartTries: 2, echoLength: 2),
        buttons: [.click, .home, .volumeUp, .volumeDown, .trigger, .back],
        scale: GearVRLayout.scale, samplesPerPacket: 3,
        decode: { bytes throws(PacketDecodingError) in try DaydreamPacket(gearVR: bytes) },
        encode: { packet in packet.gearVRBytes },
        json: { packet in packet.gearVRJSONLine })
}

/// The Gear VR controller's GATT identifiers.
public enum GearVRGATT {
    /// Its advertised name is this, then the last four digits of its address in brackets.
    public static let namePrefix = "Gear VR Controller"
    /// The data service ("Oculus Threemote" in ASCII).
    public static let dataService = "4f63756c-7573-2054-6872-65656d6f7465"
    /// Notifies the 60-byte input packets (and 2-byte command echoes).
    public static let input = "c8c51726-81bc-483b-a052-f7a14ea3d281"
    /// Takes the 2-byte commands.
    public static let command = "c8c51726-81bc-483b-a052-f7a14ea3d282"
    /// Its HID-over-GATT layout under a non-standard UUID (not 0x1812: no kernel driver binds it).
    public static let vendorHIDService = "00001879-0000-1000-8000-00805f9b34fb"
    /// GAP, GATT, Device Information, Battery, 0x1879, the data service and FEF5 (never written).
    public static let serviceLayout: Set<String> = [
        "00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb",
        "0000180a-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb",
        vendorHIDService, dataService, DaydreamGATT.firmwareUpdateServiceUUID,
    ]
}

/// The commands verified on hardware, as written (little endian). No other is ever sent:
/// `0200` may enter the firmware update.
public enum GearVRCommand {
    public static let off: [UInt8] = [0x00, 0x00]
    public static let sensors: [UInt8] = [0x01, 0x00]
    public static let keepAlive: [UInt8] = [0x04, 0x00]
    public static let vrMode: [UInt8] = [0x08, 0x00]
}

/// Where the fields of a Gear VR packet sit (little endian).
public enum GearVRLayout {
    public static let length = 60
    /// Byte offsets of the three samples (time u32, acceleration i16 x3, gyro i16 x3).
    public static let sampleOffsets = [0, 16, 32]
    public static let magnetometer = 48
    public static let touch = 54
    public static let temperature = 57
    public static let buttons = 58
    public static let battery = 59
    /// Touch counts run 0...315 (the rim reads about 7 to 314); larger ones are clamped.
    public static let touchMaximum: UInt16 = 315
    /// Byte 58's 0x40: an idle flag, not a button.
    public static let idleFlag: UInt8 = 0x40
    /// 2048 counts per g; 14.285 counts per deg/s; touch 0...315.
    public static let scale = IMUScale(
        acceleration: UnitConversion.standardGravity / 2048, gyro: UnitConversion.radians(degrees: 1 / 14.285),
        touch: 1 / Double(touchMaximum))
    /// Byte 58's bits, in the common buttons.
    public static let buttonBits: [(bit: UInt8, button: DaydreamButtons)] = [
        (0x01, .trigger), (0x02, .home), (0x04, .back), (0x08, .click), (0x10, .volumeUp), (0x20, .volumeDown),
    ]
}

extension DaydreamPacket {
    /// Decodes a Gear VR notification: 60 bytes, or a 2-byte command echo (thrown as
    /// `.commandEcho`), anything else `.familyWrongLength`. The samples' acceleration and gyro
    /// are put on the common axes (`gearVRToCommonAxes`); the magnetometer stays as sent.
    public init(gearVR bytes: UnsafeRawBufferPointer) throws(PacketDecodingError) {
        guard bytes.count == GearVRLayout.length else {
            if bytes.count == 2 { throw .commandEcho(UInt16(bytes[0]) | UInt16(bytes[1]) << 8) }
            throw .familyWrongLength(family: .gearVR, count: bytes.count, expected: GearVRLayout.length)
        }
        func int16(_ offset: Int) -> Int16 { Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self)) }
        func vector(_ offset: Int) -> RawVector { RawVector(int16(offset), int16(offset + 2), int16(offset + 4)) }
        func sample(_ offset: Int) -> IMUSample {
            IMUSample(
                time: UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)),
                acceleration: vector(offset + 4).gearVRToCommonAxes, gyro: vector(offset + 10).gearVRToCommonAxes)
        }
        let last = sample(32)
        self.init(acceleration: last.acceleration, gyro: last.gyro)
        family = .gearVR
        clock = .microseconds
        sampleTime = last.time
        time = UInt16(truncatingIfNeeded: last.time / 1000) & 511
        sampleCount = 3
        sampleIndex = 2
        earlierSamples = EarlierSamples(sample(0), sample(16))
        extras.isDecoded = true
        extras.magnetometer = vector(GearVRLayout.magnetometer)
        let touch = (bytes[54], bytes[55], bytes[56])
        extras.rawTouchX = UInt16(touch.0 & 0x0F) << 6 | UInt16(touch.1 >> 2)
        extras.rawTouchY = UInt16(touch.1 & 0x03) << 8 | UInt16(touch.2)
        extras.touchFlags = touch.0 & 0xF0
        if Self.gearVRTouching(flags: extras.touchFlags) {
            // Never 0,0 while touching: that means "no finger" to every consumer.
            touchX = Swift.max(Swift.min(extras.rawTouchX, GearVRLayout.touchMaximum), 1)
            touchY = Swift.max(Swift.min(extras.rawTouchY, GearVRLayout.touchMaximum), 1)
        }
        extras.temperature = bytes[57]
        let byte58 = bytes[58]
        var pressed: DaydreamButtons = []
        for (bit, button) in GearVRLayout.buttonBits where byte58 & bit != 0 { pressed.insert(button) }
        buttons = pressed
        extras.buttonFlags = byte58 & 0xC0
        battery = bytes[59]
    }

    /// Bits 5:4 of byte 54 read `01` while a finger is down.
    static func gearVRTouching(flags: UInt8) -> Bool { (flags >> 4) & 0x03 == 0x01 }

    /// The Gear VR's byte 58 as sent: the buttons' bits and the flags.
    public var gearVRButtonsByte: UInt8 {
        var byte = extras.buttonFlags
        for (bit, button) in GearVRLayout.buttonBits where buttons.contains(button) { byte |= bit }
        return byte
    }

    /// The 60 bytes a Gear VR packet was decoded from (the three samples, back on the Gear VR's
    /// axes, magnetometer, touch, temperature, buttons and flags, battery).
    public var gearVRBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: GearVRLayout.length)
        func put16(_ value: Int16, _ offset: Int) {
            let bits = UInt16(bitPattern: value)
            bytes[offset] = UInt8(bits & 0xFF)
            bytes[offset + 1] = UInt8(bits >> 8)
        }
        func put(_ vector: RawVector, _ offset: Int) {
            put16(vector.x, offset)
            put16(vector.y, offset + 2)
            put16(vector.z, offset + 4)
        }
        for (index, offset) in GearVRLayout.sampleOffsets.enumerated() {
            let sample = sample(index)
            for byte in 0..<4 { bytes[offset + byte] = UInt8(truncatingIfNeeded: sample.time >> (8 * UInt32(byte))) }
            put(sample.acceleration.commonToGearVRAxes, offset + 4)
            put(sample.gyro.commonToGearVRAxes, offset + 10)
        }
        put(extras.magnetometer, GearVRLayout.magnetometer)
        // A packet made by hand (not decoded) has no raw coordinates: its touch is what it says.
        let madeByHand = !extras.isDecoded
        let x = madeByHand ? touchX : extras.rawTouchX
        let y = madeByHand ? touchY : extras.rawTouchY
        let touchFlags = madeByHand ? (isTouching ? 0x10 : 0x20) : extras.touchFlags
        bytes[54] = touchFlags & 0xF0 | UInt8(truncatingIfNeeded: x >> 6) & 0x0F
        bytes[55] = UInt8(truncatingIfNeeded: x << 2) & 0xFC | UInt8(truncatingIfNeeded: y >> 8) & 0x03
        bytes[56] = UInt8(truncatingIfNeeded: y)
        bytes[57] = extras.temperature
        bytes[58] = gearVRButtonsByte
        bytes[59] = battery ?? 0
        return bytes
    }
}
