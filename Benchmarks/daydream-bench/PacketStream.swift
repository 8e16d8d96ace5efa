import DaydreamProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A deterministic, realistic stream of encoded packets: the controller waved about,
/// a finger that comes and goes tracing circles on the pad, and buttons pressed now
/// and then, some long enough to be holds. One packet every `interval` (10 ms: 100 Hz).
struct PacketStream {
    /// `count` packets of 20 bytes, back to back.
    let bytes: [UInt8]
    let count: Int
    /// The time between packets in nanoseconds.
    let intervalNanoseconds: Int64

    init(count: Int, intervalNanoseconds: Int64 = 10_000_000, seed: UInt64 = 0xDA7D_2EA3) {
        self.count = count
        self.intervalNanoseconds = intervalNanoseconds
        var random = SplitMix64(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count * PacketLayout.length)
        var buttons: DaydreamButtons = []
        var buttonsLeft = 0
        var touching = false
        var touchLeft = 0
        let buttonChoices: [DaydreamButtons] = [.click, .home, .app, .volumeUp, .volumeDown, [.home, .app]]
        for index in 0..<count {
            let t = Double(index) * Double(intervalNanoseconds) / 1e9
            // Buttons: idle gaps, then a press of 3...150 packets (up to 1.5 s: taps and holds).
            if buttonsLeft == 0 {
                if buttons.isEmpty {
                    buttons = buttonChoices[Int(random.next() % UInt64(buttonChoices.count))]
                    buttonsLeft = 3 + Int(random.next() % 148)
                } else {
                    buttons = []
                    buttonsLeft = 20 + Int(random.next() % 300)
                }
            }
            buttonsLeft -= 1
            // Touch: strokes of 0.2...2 s, lifts of 0.1...1 s.
            if touchLeft == 0 {
                touching.toggle()
                touchLeft = touching ? 20 + Int(random.next() % 180) : 10 + Int(random.next() % 90)
            }
            touchLeft -= 1
            let angle = t * 3.1
            let touchX = touching ? UInt8(clamping: Int(128 + 100 * cos(angle))) : 0
            let touchY = touching ? UInt8(clamping: Int(128 + 100 * sin(angle))) : 0
            // Motion: a slow sweep in yaw and pitch, gravity plus a little noise.
            let yaw = 0.8 * sin(t * 0.7)
            let pitch = 0.4 * sin(t * 1.3)
            let noise = { (scale: Double) -> Int16 in Int16(Double(Int(random.next() % 2001) - 1000) / 1000 * scale) }
            let packet = DaydreamPacket(
                time: UInt16((index * Int(intervalNanoseconds / 1_000_000)) % 512),
                sequence: UInt8(index % 32),
                orientation: RawVector(Self.counts(pitch, Scale.orientation), Self.counts(yaw, Scale.orientation), noise(3)),
                acceleration: RawVector(noise(8), 520 &+ noise(8), 11 &+ noise(8)),
                gyro: RawVector(
                    Self.counts(0.4 * 1.3 * cos(t * 1.3), Scale.gyro),
                    Self.counts(0.8 * 0.7 * cos(t * 0.7), Scale.gyro),
                    noise(4)),
                touchX: UInt16(touchX == 0 && touchY == 0 && touching ? 1 : touchX),
                touchY: UInt16(touchY),
                buttons: buttons,
                status: 0
            )
            bytes.withUnsafeMutableBytes { raw in
                packet.encode(into: UnsafeMutableRawBufferPointer(rebasing: raw[(index * 20)..<(index * 20 + 20)]))
            }
        }
        self.bytes = bytes
    }

    private static func counts(_ value: Double, _ scale: Double) -> Int16 {
        Int16(clamping: Int((value / scale).rounded()))
    }
}

/// A small, fast, deterministic generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
