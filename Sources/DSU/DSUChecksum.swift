import CZlib

/// The CRC32 (zlib's, the IEEE polynomial) a DSU message carries at `DSUProtocol.crcOffset`:
/// computed over the whole message with that field read as zero.
public enum DSUChecksum {
    /// The checksum of `message`, its CRC field taken as zero whatever it holds.
    public static func compute(_ message: UnsafeRawBufferPointer) -> UInt32 {
        let crcRange = DSUProtocol.crcOffset..<(DSUProtocol.crcOffset + 4)
        guard message.count >= crcRange.upperBound, let base = message.baseAddress else {
            return UInt32(truncatingIfNeeded: crc32(0, message.baseAddress?.assumingMemoryBound(to: Bytef.self), UInt32(message.count)))
        }
        let bytes = base.assumingMemoryBound(to: Bytef.self)
        let zeros: [Bytef] = [0, 0, 0, 0]
        var crc = crc32(0, bytes, UInt32(crcRange.lowerBound))
        crc = zeros.withUnsafeBufferPointer { crc32(crc, $0.baseAddress, 4) }
        crc = crc32(crc, bytes + crcRange.upperBound, UInt32(message.count - crcRange.upperBound))
        return UInt32(truncatingIfNeeded: crc)
    }

    /// Writes the checksum of `message` into its CRC field.
    public static func seal(_ message: UnsafeMutableRawBufferPointer) {
        let crc = compute(UnsafeRawBufferPointer(message))
        message.storeBytes(of: crc.littleEndian, toByteOffset: DSUProtocol.crcOffset, as: UInt32.self)
    }
}
