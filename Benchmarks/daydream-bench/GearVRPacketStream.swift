import DaydreamProtocol
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// A deterministic stream of Gear VR notifications, 60 bytes each (controllers.md's layout):
/// the same kind of session as `PacketStream` (the controller waved about, a finger tracing
/// circles that comes and goes, buttons now and then, some held), at the Gear VR's 68 packets
/// a second, each with three IMU samples 4.9 ms apart on its microsecond clock.
struct GearVRPacketStream {
    static let length = 60
    /// `count` packets of 60 bytes, back to back.
    let bytes: [UInt8]
    let count: Int
    /// The time between packets in nanoseconds (68 a second).
    let intervalNanoseconds: Int64 = 14_705_882

    init(count: Int, seed: UInt64 = 0x6EA8_0324) {
        self.count = count
        var random = SplitMix64(seed: seed)
        var bytes = [UInt8](repeating: 0, count: count * Self.length)
        var buttons: UInt8 = 0
        var buttonsLeft = 0
        var touching = false
        var touchLeft = 0
        // Byte 58's bits: trigger, home, back, click, volume up, volume down, and two at once.
        let buttonChoices: [UInt8] = [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x05]
        let sampleMicroseconds = 1_000_000.0 / (68 * 3)
        for index in 0..<count {
            let base = index * Self.length
            func put16(_ value: Int, _ offset: Int) {
                let bits = UInt16(bitPattern: Int16(clamping: value))
                bytes[base + offset] = UInt8(bits & 0xFF)
                bytes[base + offset + 1] = UInt8(bits >> 8)
            }
            for sample in 0..<3 {
                let step = index * 3 + sample
                let t = Double(step) * sampleMicroseconds / 1e6
                let time = UInt32(truncatingIfNeeded: Int(Double(step) * sampleMicroseconds))
                let offset = 16 * sample
                for byte in 0..<4 { bytes[base + offset + byte] = UInt8(truncatingIfNeeded: time >> (8 * UInt32(byte))) }
                let noise = { (scale: Double) -> Int in Int(Double(Int(random.next() % 2001) - 1000) / 1000 * scale) }
                // Flat, touchpad up: gravity on +Z at 2048 counts per g; a slow sweep at 14.285 counts per deg/s.
                put16(noise(16), offset + 4)
                put16(noise(16), offset + 6)
                put16(2048 + noise(16), offset + 8)
                put16(Int(14.285 * 30 * cos(t * 1.3)) + noise(4), offset + 10)
                put16(noise(4), offset + 12)
                put16(Int(14.285 * 45 * cos(t * 0.7)) + noise(4), offset + 14)
            }
            put16(312, 48)
            put16(-148, 50)
            put16(905, 52)
            if buttonsLeft == 0 {
                if buttons == 0 {
                    buttons = buttonChoices[Int(random.next() % UInt64(buttonChoices.count))]
                    buttonsLeft = 2 + Int(random.next() % 100)
                } else {
                    buttons = 0
                    buttonsLeft = 14 + Int(random.next() % 200)
                }
            }
            buttonsLeft -= 1
            let wasTouching = touching
            if touchLeft == 0 {
                touching.toggle()
                touchLeft = touching ? 14 + Int(random.next() % 120) : 7 + Int(random.next() % 60)
            }
            touchLeft -= 1
            let angle = Double(index) * Double(intervalNanoseconds) / 1e9 * 3.1
            let x = touching ? 158 + Int(120 * cos(angle)) : 0
            let y = touching ? 158 + Int(120 * sin(angle)) : 0
            let state: UInt8 = touching ? 0x10 : (wasTouching ? 0x00 : 0x20)
            bytes[base + 54] = state | UInt8(x >> 6) & 0x0F
            bytes[base + 55] = UInt8(x & 0x3F) << 2 | UInt8(y >> 8) & 0x03
            bytes[base + 56] = UInt8(y & 0xFF)
            bytes[base + 57] = 31
            bytes[base + 58] = buttons | (buttons == 0 && !touching ? 0x40 : 0)
            bytes[base + 59] = 80
        }
        self.bytes = bytes
    }
}

/// `--only NAME --packets N --family gear-vr`: `count` Gear VR packets through the pipeline of
/// `profile` (each packet's three samples handed on by the feed, as the daemon's), untimed, the
/// loop's due-timer check included; returns the events encoded.
@MainActor
func runGearVRPackets(_ profile: BenchProfile, stream: GearVRPacketStream, count: Int) -> Int {
    let scheduler = ManualScheduler()
    let output = EncodingOutput()
    let pipeline = Pipeline(profile, output: output, scheduler: scheduler)
    pipeline.feed.family = .gearVR
    var virtualTime: Int64 = 1_000_000_000
    stream.bytes.withUnsafeBytes { all in
        for index in 0..<count {
            virtualTime += stream.intervalNanoseconds
            let time = MonotonicTime(nanoseconds: virtualTime)
            scheduler.advance(to: time)
            let start = (index % stream.count) * GearVRPacketStream.length
            pipeline.process(UnsafeRawBufferPointer(rebasing: all[start..<(start + GearVRPacketStream.length)]), at: time)
        }
    }
    return output.totalEvents
}
