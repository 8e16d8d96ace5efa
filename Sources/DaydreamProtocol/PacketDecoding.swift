extension DaydreamPacket {
    /// Decodes one notification; anything that is not 20 bytes throws `.wrongLength`. Always
    /// inlined: the packet is then built where the caller hands it on, not copied there from the
    /// decoder's result field by field.
    @inlinable @inline(__always)
    public init(bytes: UnsafeRawBufferPointer) throws(PacketDecodingError) {
        // The length and offsets are `PacketLayout`'s, written out: this is inlined into callers,
        // where reading `PacketLayout`'s static properties would be a call each (BitLayoutTests
        // checks that they agree).
        guard bytes.count == 20 else {
            throw .wrongLength(bytes.count)
        }
        let reader = BitReader(bytes)
        time = UInt16(reader.unsigned(at: 0, width: 9))
        sequence = UInt8(reader.unsigned(at: 9, width: 5))
        orientation = reader.vector(at: 14)
        acceleration = reader.vector(at: 53)
        gyro = reader.vector(at: 92)
        touchX = UInt16(reader.unsigned(at: 131, width: 8))
        touchY = UInt16(reader.unsigned(at: 139, width: 8))
        buttons = DaydreamButtons(rawValue: UInt8(reader.unsigned(at: 147, width: 5)))
        status = bytes[19]
        // The fields other families fill, set here rather than by their declarations' defaults,
        // whose initializers would be calls from the modules this is inlined into.
        family = .daydream
        clock = .milliseconds512
        sampleTime = 0
        sampleCount = 1
        sampleIndex = 0
        earlierSamples = EarlierSamples()
        battery = nil
        extras = PacketExtras()
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

/// Reads big-endian bit fields out of a 20-byte buffer: the packet is loaded once as three
/// big-endian words, so each field is a shift or two and a mask, with no loop and no bounds check.
@usableFromInline
struct BitReader {
    /// Bits 0...63, bits 64...127, and bits 128...159 in the high half of the third word.
    @usableFromInline let words: (UInt64, UInt64, UInt64)

    /// `bytes` must hold exactly `PacketLayout.length` bytes (the decoder checks first).
    @inlinable init(_ bytes: UnsafeRawBufferPointer) {
        words = (
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
            UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
            UInt64(UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self))) &<< 32)
    }

    @inlinable @inline(__always) func word(_ index: Int) -> UInt64 {
        switch index {
        case 0: words.0
        case 1: words.1
        default: words.2
        }
    }

    /// `width` (1...32) bits starting at bit `offset`, as an unsigned number. Always inlined:
    /// with constant arguments each field folds to a shift and a mask.
    @inlinable @inline(__always)
    func unsigned(at offset: Int, width: Int) -> UInt32 {
        let index = offset >> 6
        let bit = UInt64(offset & 63)
        // The 64 bits from `offset` on, left-aligned; past bit 159 they read as zero.
        var window = word(index) &<< bit
        if bit != 0 && index < 2 { window |= word(index + 1) &>> (64 - bit) }
        return UInt32(truncatingIfNeeded: window &>> UInt64(64 - width))
    }

    /// A 13-bit two's complement field.
    @inlinable @inline(__always)
    func signed13(at offset: Int) -> Int16 {
        // Bit 12 moved to the sign bit, then an arithmetic shift back: the sign extended.
        Int16(truncatingIfNeeded: unsigned(at: offset, width: 13) &<< 3) &>> 3
    }

    @inlinable @inline(__always)
    func vector(at offset: Int) -> RawVector {
        RawVector(signed13(at: offset), signed13(at: offset + 13), signed13(at: offset + 26))
    }
}
