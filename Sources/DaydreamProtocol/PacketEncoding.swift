extension DaydreamPacket {
    /// Writes this packet's 20 bytes into `buffer`, which must hold at least 20 bytes.
    /// Values wider than their field are masked to it.
    @inlinable
    public func encode(into buffer: UnsafeMutableRawBufferPointer) {
        precondition(buffer.count >= PacketLayout.length, "a packet needs 20 bytes")
        for index in 0..<PacketLayout.length { buffer[index] = 0 }
        var writer = BitWriter(buffer)
        writer.put(UInt32(time), at: 0, width: 9)
        writer.put(UInt32(sequence), at: 9, width: 5)
        writer.put(orientation, at: PacketLayout.orientation.offset)
        writer.put(acceleration, at: PacketLayout.acceleration.offset)
        writer.put(gyro, at: PacketLayout.gyro.offset)
        writer.put(UInt32(touchX), at: 131, width: 8)
        writer.put(UInt32(touchY), at: 139, width: 8)
        writer.put(UInt32(buttons.rawValue), at: 147, width: 5)
        buffer[19] = status
    }

    /// This packet's bytes, as its family encodes them.
    public var bytes: [UInt8] {
        family == .daydream ? daydreamBytes : family.family.encode(self)
    }

    /// This packet's 20 bytes in the Daydream's layout.
    public var daydreamBytes: [UInt8] {
        var result = [UInt8](repeating: 0, count: PacketLayout.length)
        result.withUnsafeMutableBytes { encode(into: $0) }
        return result
    }
}

/// Writes big-endian bit fields into a zeroed buffer.
@usableFromInline
struct BitWriter {
    @usableFromInline let bytes: UnsafeMutableRawBufferPointer

    @inlinable init(_ bytes: UnsafeMutableRawBufferPointer) { self.bytes = bytes }

    @inlinable
    mutating func put(_ value: UInt32, at offset: Int, width: Int) {
        let masked = value & ((1 << UInt32(width)) - 1)
        for bit in 0..<width where masked & (1 << UInt32(width - 1 - bit)) != 0 {
            let position = offset + bit
            bytes[position >> 3] |= UInt8(0x80 >> (position & 7))
        }
    }

    @inlinable
    mutating func put(_ vector: RawVector, at offset: Int) {
        put(UInt32(UInt16(bitPattern: vector.x)), at: offset, width: 13)
        put(UInt32(UInt16(bitPattern: vector.y)), at: offset + 13, width: 13)
        put(UInt32(UInt16(bitPattern: vector.z)), at: offset + 26, width: 13)
    }
}

/// Twenty bytes on the stack, for decoding without allocating.
public struct PacketBytes: Sendable {
    @usableFromInline var storage: (UInt64, UInt64, UInt32) = (0, 0, 0)

    public init() {}

    @inlinable
    public subscript(index: Int) -> UInt8 {
        get { withUnsafeBytes { $0[index] } }
        set { withUnsafeMutableBytes { $0[index] = newValue } }
    }

    @inlinable
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var copy = storage
        return try Swift.withUnsafeBytes(of: &copy) { raw throws(Failure) in
            try body(UnsafeRawBufferPointer(rebasing: raw[0..<PacketLayout.length]))
        }
    }

    @inlinable
    public mutating func withUnsafeMutableBytes<Result>(
        _ body: (UnsafeMutableRawBufferPointer) -> Result
    ) -> Result {
        Swift.withUnsafeMutableBytes(of: &storage) { raw in
            body(UnsafeMutableRawBufferPointer(rebasing: raw[0..<PacketLayout.length]))
        }
    }
}
