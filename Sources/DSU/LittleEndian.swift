/// Reads little-endian integers from a buffer at byte offsets the caller has checked.
struct LittleEndianReader {
    let bytes: UnsafeRawBufferPointer

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    var count: Int { bytes.count }

    func u8(at offset: Int) -> UInt8 { bytes[offset] }

    func u16(at offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }

    func u32(at offset: Int) -> UInt32 {
        UInt32(u16(at: offset)) | UInt32(u16(at: offset + 2)) << 16
    }
}

/// Writes little-endian values into a fixed-size message buffer at given offsets.
struct LittleEndianWriter {
    let bytes: UnsafeMutableRawBufferPointer

    init(_ bytes: UnsafeMutableRawBufferPointer) { self.bytes = bytes }

    func u8(_ value: UInt8, at offset: Int) { bytes[offset] = value }

    func u16(_ value: UInt16, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: value)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: value >> 8)
    }

    func u32(_ value: UInt32, at offset: Int) {
        u16(UInt16(truncatingIfNeeded: value), at: offset)
        u16(UInt16(truncatingIfNeeded: value >> 16), at: offset + 2)
    }

    func u64(_ value: UInt64, at offset: Int) {
        u32(UInt32(truncatingIfNeeded: value), at: offset)
        u32(UInt32(truncatingIfNeeded: value >> 32), at: offset + 4)
    }

    func float(_ value: Float, at offset: Int) { u32(value.bitPattern, at: offset) }

    func bytes(_ values: [UInt8], at offset: Int) {
        for (index, value) in values.enumerated() { bytes[offset + index] = value }
    }
}
