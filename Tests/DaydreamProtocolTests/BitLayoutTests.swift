import Testing
import DaydreamProtocol

/// The decoder against a plain reading of `PacketLayout`, one bit at a time, over random bytes:
/// checks the word-at-a-time field extraction independently of the encoder.
@Suite("Decoding matches the bit layout")
struct BitLayoutTests {
    /// Bit `index` of `bytes`, bit 0 being the most significant bit of byte 0.
    static func bit(_ bytes: [UInt8], _ index: Int) -> UInt32 {
        UInt32(bytes[index / 8] >> (7 - UInt8(index % 8)) & 1)
    }

    static func field(_ bytes: [UInt8], _ layout: (offset: Int, width: Int)) -> UInt32 {
        (layout.offset..<(layout.offset + layout.width)).reduce(0) { $0 << 1 | bit(bytes, $1) }
    }

    static func signedVector(_ bytes: [UInt8], _ layout: (offset: Int, width: Int)) -> RawVector {
        func component(_ index: Int) -> Int16 {
            let raw = Int16(field(bytes, (layout.offset + index * layout.width, layout.width)))
            return raw >= 4096 ? raw - 8192 : raw
        }
        return RawVector(component(0), component(1), component(2))
    }

    @Test("every field of 20 000 random packets, and all-ones and all-zeros")
    func randomBytes() throws {
        #expect(PacketLayout.length == 20)
        var rng = RoundTripTests.SplitMix(state: 0xDA1D_2EA3)
        var samples: [[UInt8]] = [Array(repeating: 0, count: 20), Array(repeating: 0xFF, count: 20)]
        for _ in 0..<20_000 { samples.append((0..<20).map { _ in UInt8.random(in: 0...255, using: &rng) }) }
        for bytes in samples {
            let packet = try DaydreamPacket(bytes)
            let expected = DaydreamPacket(
                time: UInt16(Self.field(bytes, PacketLayout.time)),
                sequence: UInt8(Self.field(bytes, PacketLayout.sequence)),
                orientation: Self.signedVector(bytes, PacketLayout.orientation),
                acceleration: Self.signedVector(bytes, PacketLayout.acceleration),
                gyro: Self.signedVector(bytes, PacketLayout.gyro),
                touchX: UInt16(Self.field(bytes, PacketLayout.touchX)),
                touchY: UInt16(Self.field(bytes, PacketLayout.touchY)),
                buttons: DaydreamButtons(rawValue: UInt8(Self.field(bytes, PacketLayout.buttons))),
                status: UInt8(Self.field(bytes, PacketLayout.status)))
            #expect(packet == expected, "bytes \(bytes)")
            if packet != expected { return }
        }
    }
}
