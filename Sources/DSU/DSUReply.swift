/// Encodes the server's messages: each into a buffer the caller owns (so the per-packet path
/// allocates nothing), sealed with its CRC32.
public enum DSUReply {
    /// A version reply's length: header, type, the version, two bytes of padding (the length
    /// Dolphin's client checks the CRC over).
    public static let versionLength = 24
    /// A controller-info reply's length: header, type, the 11-byte slot description, a zero.
    public static let controllerInfoLength = 32
    /// A data message's length.
    public static let controllerDataLength = 100

    /// Writes the version reply into the first `versionLength` bytes of `buffer`.
    public static func encodeVersion(serverID: UInt32, into buffer: UnsafeMutableRawBufferPointer) {
        let message = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<versionLength])
        writeHeader(.version, serverID: serverID, into: message)
        LittleEndianWriter(message).u16(DSUProtocol.version, at: 20)
        DSUChecksum.seal(message)
    }

    /// Writes the controller-info reply for one slot into the first `controllerInfoLength` bytes.
    public static func encodeControllerInfo(_ info: DSUControllerInfo, serverID: UInt32, into buffer: UnsafeMutableRawBufferPointer) {
        let message = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<controllerInfoLength])
        writeHeader(.controllerInfo, serverID: serverID, into: message)
        writeInfo(info, into: LittleEndianWriter(message))
        DSUChecksum.seal(message)
    }

    /// Writes a data message into the first `controllerDataLength` bytes of `buffer`.
    public static func encodeControllerData(
        _ info: DSUControllerInfo, _ pad: DSUPadState, serverID: UInt32, into buffer: UnsafeMutableRawBufferPointer
    ) {
        let message = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<controllerDataLength])
        writeHeader(.controllerData, serverID: serverID, into: message)
        let writer = LittleEndianWriter(message)
        writeInfo(info, into: writer)
        writer.u8(pad.isActive ? 1 : 0, at: 31)
        writer.u32(pad.packetCounter, at: 32)
        writer.u8(pad.buttons1.rawValue, at: 36)
        writer.u8(pad.buttons2.rawValue, at: 37)
        writer.u8(pad.home ? 1 : 0, at: 38)
        writer.u8(pad.touchButton ? 1 : 0, at: 39)
        writer.u8(pad.leftStick.x, at: 40)
        writer.u8(pad.leftStick.y, at: 41)
        writer.u8(pad.rightStick.x, at: 42)
        writer.u8(pad.rightStick.y, at: 43)
        // The analog buttons, 255 pressed and 0 released for digital ones: d-pad left, down,
        // right, up, then Y, B, A, X, R1, L1, R2, L2: the first button byte's top four bits and
        // the second's eight, each from its bit 7 down.
        let buttonBits = UInt16(pad.buttons1.rawValue >> 4) << 8 | UInt16(pad.buttons2.rawValue)
        for index in 0..<12 { writer.u8(buttonBits & (0x800 >> index) != 0 ? 255 : 0, at: 44 + index) }
        writeTouch(pad.touch1, at: 56, into: writer)
        writeTouch(pad.touch2, at: 62, into: writer)
        writer.u64(pad.motionTimestamp, at: 68)
        writeVector(pad.acceleration, at: 76, into: writer)
        writeVector(pad.gyro, at: 88, into: writer)
        DSUChecksum.seal(message)
    }

    private static func writeHeader(_ type: DSUMessageType, serverID: UInt32, into message: UnsafeMutableRawBufferPointer) {
        let writer = LittleEndianWriter(message)
        writer.bytes(DSUProtocol.serverMagic, at: 0)
        writer.u16(DSUProtocol.version, at: 4)
        writer.u16(UInt16(message.count - DSUProtocol.headerLength), at: 6)
        writer.u32(0, at: 8)
        writer.u32(serverID, at: 12)
        writer.u32(type.rawValue, at: 16)
        for offset in DSUProtocol.minimumMessageLength..<message.count { message[offset] = 0 }
    }

    private static func writeInfo(_ info: DSUControllerInfo, into writer: LittleEndianWriter) {
        writer.u8(info.slot, at: 20)
        writer.u8(info.state.rawValue, at: 21)
        writer.u8(info.model.rawValue, at: 22)
        writer.u8(info.connection.rawValue, at: 23)
        writer.bytes(info.mac.bytes, at: 24)
        writer.u8(info.battery.rawValue, at: 30)
    }

    /// Three floats from `offset` on: the acceleration's x, y, z or the angular rate's pitch, yaw, roll.
    private static func writeVector(_ vector: (Float, Float, Float), at offset: Int, into writer: LittleEndianWriter) {
        writer.float(vector.0, at: offset)
        writer.float(vector.1, at: offset + 4)
        writer.float(vector.2, at: offset + 8)
    }

    private static func writeTouch(_ touch: DSUPadState.Touch, at offset: Int, into writer: LittleEndianWriter) {
        writer.u8(touch.isActive ? 1 : 0, at: offset)
        writer.u8(touch.id, at: offset + 1)
        writer.u16(touch.x, at: offset + 2)
        writer.u16(touch.y, at: offset + 4)
    }
}
