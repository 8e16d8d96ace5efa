import Testing
import DaydreamProtocol

/// encode -> decode is the identity over the whole range of every field.
@Suite("Encode/decode round trips")
struct RoundTripTests {
    /// A small deterministic generator (SplitMix64) so failures reproduce.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static let extremes: [Int16] = [-4096, -4095, -1, 0, 1, 4094, 4095]

    static func randomSigned(_ rng: inout SplitMix) -> Int16 {
        Bool.random(using: &rng) ? extremes.randomElement(using: &rng) ?? 0 : Int16.random(in: -4096...4095, using: &rng)
    }

    static func randomPacket(_ rng: inout SplitMix) -> DaydreamPacket {
        func vector() -> RawVector { RawVector(randomSigned(&rng), randomSigned(&rng), randomSigned(&rng)) }
        return DaydreamPacket(
            time: UInt16.random(in: 0...511, using: &rng),
            sequence: UInt8.random(in: 0...31, using: &rng),
            orientation: vector(), acceleration: vector(), gyro: vector(),
            touchX: UInt16.random(in: 0...255, using: &rng), touchY: UInt16.random(in: 0...255, using: &rng),
            buttons: DaydreamButtons(rawValue: UInt8.random(in: 0...31, using: &rng)),
            status: UInt8.random(in: 0...255, using: &rng)
        )
    }

    @Test func randomStates() throws {
        var rng = SplitMix(state: 0xDA1D_2EA3)
        for _ in 0..<20_000 {
            let packet = Self.randomPacket(&rng)
            let decoded = try DaydreamPacket(packet.bytes)
            #expect(decoded == packet)
            if decoded != packet { return }
        }
    }

    @Test func everyFieldAtItsExtremes() throws {
        for low in [true, false] {
            let s: Int16 = low ? -4096 : 4095
            let packet = DaydreamPacket(
                time: low ? 0 : 511, sequence: low ? 0 : 31,
                orientation: RawVector(s, s, s), acceleration: RawVector(s, s, s), gyro: RawVector(s, s, s),
                touchX: low ? 0 : 255, touchY: low ? 0 : 255,
                buttons: low ? [] : [.click, .home, .app, .volumeDown, .volumeUp], status: low ? 0 : 255
            )
            #expect(try DaydreamPacket(packet.bytes) == packet)
        }
    }

    /// Each field lands in its own bits: setting one field to all ones changes no other.
    @Test func fieldsDoNotOverlap() throws {
        let single: [DaydreamPacket] = [
            DaydreamPacket(time: 511), DaydreamPacket(sequence: 31),
            DaydreamPacket(orientation: RawVector(-1, 0, 0)), DaydreamPacket(orientation: RawVector(0, -1, 0)),
            DaydreamPacket(orientation: RawVector(0, 0, -1)), DaydreamPacket(acceleration: RawVector(-1, 0, 0)),
            DaydreamPacket(acceleration: RawVector(0, -1, 0)), DaydreamPacket(acceleration: RawVector(0, 0, -1)),
            DaydreamPacket(gyro: RawVector(-1, 0, 0)), DaydreamPacket(gyro: RawVector(0, -1, 0)),
            DaydreamPacket(gyro: RawVector(0, 0, -1)), DaydreamPacket(touchX: 255), DaydreamPacket(touchY: 255),
            DaydreamPacket(buttons: DaydreamButtons(rawValue: 0x1F)), DaydreamPacket(status: 255),
        ]
        var seen = [UInt8](repeating: 0, count: 20)
        var total = 0
        for packet in single {
            let bytes = packet.bytes
            for index in 0..<20 {
                #expect(seen[index] & bytes[index] == 0, "bits of \(packet) overlap another field at byte \(index)")
                seen[index] |= bytes[index]
                total += bytes[index].nonzeroBitCount
            }
        }
        #expect(total == 160, "the fields cover all 160 bits")
    }

    @Test("Anything that is not 20 bytes is a typed error", arguments: [0, 1, 19, 21, 40, 512])
    func wrongLength(count: Int) {
        let bytes = [UInt8](repeating: 0xFF, count: count)
        #expect(throws: PacketDecodingError.wrongLength(count)) { try DaydreamPacket(bytes) }
        _ = bytes.withUnsafeBytes { raw in
            #expect(throws: PacketDecodingError.wrongLength(count)) { try DaydreamPacket(bytes: raw) }
        }
    }
}
