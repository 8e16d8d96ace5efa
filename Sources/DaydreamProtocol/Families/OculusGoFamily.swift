/// The Oculus Go controller, experimental: decoded from a second-hand description (no capture is
/// published). 20-byte packets, paired before subscribing, no commands; after 3 s without a
/// packet it is subscribed again.
extension ControllerFamily {
    public static let oculusGo = ControllerFamily(
        id: .oculusGo, name: "oculus-go", displayName: "Oculus Go controller", isExperimental: true,
        discovery: Discovery(namePrefixes: [OculusGoGATT.namePrefix], serviceUUIDs: [OculusGoGATT.dataService]),
        gatt: GATTProfile(
            dataService: OculusGoGATT.dataService, input: OculusGoGATT.input, command: nil,
            packetLength: OculusGoLayout.length, untouchable: [],
            serviceLayout: OculusGoGATT.serviceLayout),
        stream: StreamProtocol(restartAfterSilenceMilliseconds: 3000, restartTries: .max),
        buttons: [.click, .home, .trigger, .back],
        scale: OculusGoLayout.scale, samplesPerPacket: 1,
        decode: { bytes throws(PacketDecodingError) in try DaydreamPacket(oculusGo: bytes) },
        encode: { packet in packet.oculusGoBytes },
        json: { packet in packet.oculusGoJSONLine })
}

/// The Oculus Go controller's GATT identifiers (second-hand).
public enum OculusGoGATT {
    public static let namePrefix = "OMVR"
    public static let dataService = "81265652-3692-ae93-e711-270f223c83b3"
    /// Notifies the 20-byte input packets.
    public static let input = "8126face-3692-ae93-e711-270f223c83b3"
    /// GAP, GATT, Device Information, Battery and the data service (the full table is not published).
    public static let serviceLayout: Set<String> = [
        "00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb",
        "0000180a-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb", dataService,
    ]
}

/// Where the fields of an Oculus Go packet sit (little endian; offsets before 14 inferred).
public enum OculusGoLayout {
    public static let length = 20
    /// u16 counter at 0, acceleration i16 x3 at 2, magnetometer i16 x3 at 8, touch x u16 at 14,
    /// y u16 at 16, byte 18 unknown, byte 19 buttons.
    public static let touchMaximum: UInt16 = 315
    /// Byte 19's 0x10: a finger is on the touchpad.
    public static let touchingFlag: UInt8 = 0x10
    /// About 127 counts per g; no gyro in this packet; touch 0...315. No source gives the
    /// accelerometer's axes, so its counts are handed on in the packet's order, unturned.
    public static let scale = IMUScale(
        acceleration: UnitConversion.standardGravity / 127, gyro: 0, touch: 1 / Double(touchMaximum))
    public static let buttonBits: [(bit: UInt8, button: DaydreamButtons)] = [
        (0x01, .home), (0x02, .back), (0x04, .trigger), (0x08, .click),
    ]
}

extension DaydreamPacket {
    /// Decodes an Oculus Go notification: 20 bytes, anything else `.familyWrongLength`.
    public init(oculusGo bytes: UnsafeRawBufferPointer) throws(PacketDecodingError) {
        guard bytes.count == OculusGoLayout.length else {
            throw .familyWrongLength(family: .oculusGo, count: bytes.count, expected: OculusGoLayout.length)
        }
        func uint16(_ offset: Int) -> UInt16 { UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)) }
        func vector(_ offset: Int) -> RawVector {
            RawVector(Int16(bitPattern: uint16(offset)), Int16(bitPattern: uint16(offset + 2)), Int16(bitPattern: uint16(offset + 4)))
        }
        self.init(acceleration: vector(2), status: bytes[18])
        family = .oculusGo
        clock = .none
        extras.isDecoded = true
        extras.counter = uint16(0)
        sequence = UInt8(truncatingIfNeeded: extras.counter) & 31
        extras.magnetometer = vector(8)
        extras.rawTouchX = uint16(14)
        extras.rawTouchY = uint16(16)
        let byte19 = bytes[19]
        extras.buttonFlags = byte19 & 0xF0
        if byte19 & OculusGoLayout.touchingFlag != 0 {
            touchX = Swift.max(Swift.min(extras.rawTouchX, OculusGoLayout.touchMaximum), 1)
            touchY = Swift.max(Swift.min(extras.rawTouchY, OculusGoLayout.touchMaximum), 1)
        }
        var pressed: DaydreamButtons = []
        for (bit, button) in OculusGoLayout.buttonBits where byte19 & bit != 0 { pressed.insert(button) }
        buttons = pressed
    }

    /// The 20 bytes an Oculus Go packet was decoded from.
    public var oculusGoBytes: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: OculusGoLayout.length)
        func put(_ value: UInt16, _ offset: Int) {
            bytes[offset] = UInt8(value & 0xFF)
            bytes[offset + 1] = UInt8(value >> 8)
        }
        func put(_ vector: RawVector, _ offset: Int) {
            put(UInt16(bitPattern: vector.x), offset)
            put(UInt16(bitPattern: vector.y), offset + 2)
            put(UInt16(bitPattern: vector.z), offset + 4)
        }
        put(extras.counter, 0)
        put(acceleration, 2)
        put(extras.magnetometer, 8)
        let madeByHand = !extras.isDecoded
        put(madeByHand ? touchX : extras.rawTouchX, 14)
        put(madeByHand ? touchY : extras.rawTouchY, 16)
        bytes[18] = status
        var byte19 = extras.buttonFlags & ~OculusGoLayout.touchingFlag
        if isTouching { byte19 |= OculusGoLayout.touchingFlag }
        for (bit, button) in OculusGoLayout.buttonBits where buttons.contains(button) { byte19 |= bit }
        bytes[19] = byte19
        return bytes
    }
}
