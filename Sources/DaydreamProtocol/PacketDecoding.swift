extension DaydreamPacket {
    /// Decodes one notification; anything that is not 20 bytes throws `.wrongLength`.
    @inlinable
    public init(bytes: UnsafeRawBufferPointer) throws(PacketDecodingError) {
        guard bytes.count == PacketLayout.length else {
            throw .wrongLength(bytes.count)
        }
        let reader = BitReader(bytes)
        time = UInt16(reader.unsigned(at: 0, width: 9))
        sequence = UInt8(reader.unsigned(at: 9, width: 5))
        orientation = reader.vector(at: PacketLayout.orientation.offset)
        acceleration = reader.vector(at: PacketLayout.acceleration.offset)
        gyro = reader.vector(at: PacketLayout.gyro.offset)
        touchX = UInt8(reader.unsigned(at: 131, width: 8))
        touchY = UInt8(reader.unsigned(at: 139, width: 8))
        buttons = DaydreamButtons(rawValue: UInt8(reader.unsigned(at: 147, width: 5)))
        status = bytes[19]
    }

    /// Decodes one notification from any collection of bytes.
    @inlinable
    public init<Bytes: Collection>(_ bytes: Bytes) throws(PacketDecodingError) where Bytes.Element == UInt8 {
        guard bytes.count == PacketLayout.length else {
            throw .wrongLength(bytes.count)
        }
        var storage = PacketBytes()
        var index = 0
        for byte in bytes {
            storage[index] = byte
            index += 1
        }
        self = try storage.withUnsafeBytes { buffer throws(PacketDecodingError) in
            try DaydreamPacket(bytes: buffer)
        }
    }
}

/// Reads big-endian bit fields out of a 20-byte buffer.
@usableFromInline
struct BitReader {
    @usableFromInline let bytes: UnsafeRawBufferPointer

    @inlinable init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// `width` (at most 17) bits starting at bit `offset`, as an unsigned number.
    @inlinable
    func unsigned(at offset: Int, width: Int) -> UInt32 {
        let first = offset >> 3
        var window: UInt32 = 0
        for index in first..<(first + 3) {
            window <<= 8
            if index < bytes.count { window |= UInt32(bytes[index]) }
        }
        let shift = 24 - (offset & 7) - width
        return (window >> UInt32(shift)) & ((1 << UInt32(width)) - 1)
    }

    /// A 13-bit two's complement field.
    @inlinable
    func signed13(at offset: Int) -> Int16 {
        let raw = Int16(unsigned(at: offset, width: 13))
        return raw >= 4096 ? raw - 8192 : raw
    }

    @inlinable
    func vector(at offset: Int) -> RawVector {
        RawVector(signed13(at: offset), signed13(at: offset + 13), signed13(at: offset + 26))
    }
}
