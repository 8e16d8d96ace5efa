/// CRC-32 (IEEE 802.3: reflected, polynomial 0xEDB88320, as zlib and the kernel's `crc32_le`
/// with its inversions compute it) bit by bit: the tests' own, independent of zlib.
public enum BitwiseCRC32 {
    /// The CRC of `bytes`.
    public static func of<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The last four bytes of `bytes`, least significant first: where a CRC is stored.
    public static func littleEndianTail(of bytes: [UInt8]) -> UInt32 {
        bytes.suffix(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }
}
