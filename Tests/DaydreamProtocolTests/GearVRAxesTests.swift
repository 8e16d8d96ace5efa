import Testing
import DaydreamProtocol

/// The Gear VR counts on its own axes (+X right, +Y toward the trigger end, +Z out of the
/// touchpad face); its decoder hands on the common ones (the Daydream's: x right, y out of the
/// pad, z toward the player), and its encoder and `decode`'s `raw` give the counts back as sent.
@Suite("Gear VR axes")
struct GearVRAxesTests {
    /// A packet whose three samples all hold `acceleration` and `gyro`, as the Gear VR counts them.
    static func packet(acceleration: (Int16, Int16, Int16), gyro: (Int16, Int16, Int16)) -> [UInt8] {
        var bytes: [UInt8] = []
        func u16(_ value: Int16) { bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)] }
        for time: UInt32 in [1000, 5850, 10700] {
            bytes += [UInt8(time & 0xFF), UInt8(time >> 8 & 0xFF), UInt8(time >> 16 & 0xFF), UInt8(time >> 24)]
            u16(acceleration.0); u16(acceleration.1); u16(acceleration.2)
            u16(gyro.0); u16(gyro.1); u16(gyro.2)
        }
        bytes += [UInt8](repeating: 0, count: 6) + [0x20, 0, 0, 30, 0x40, 80]
        return bytes
    }

    static func decode(_ bytes: [UInt8]) throws(PacketDecodingError) -> DaydreamPacket {
        try bytes.withUnsafeBytes { raw in Result { () throws(PacketDecodingError) in try DaydreamPacket(gearVR: raw) } }.get()
    }

    @Test func lyingFlatGravityIsUpOutOfThePadAsOnTheDaydream() throws {
        let packet = try Self.decode(Self.packet(acceleration: (0, 0, 2048), gyro: (0, 0, 0)))
        for index in 0..<3 { #expect(packet.sample(index).acceleration == RawVector(0, 2048, 0)) }
        #expect(abs(packet.accelerationSI.y - 9.80665) < 1e-9)
    }

    @Test func aTurnRightAboutItsUpAxisIsAYawNotARoll() throws {
        // Turning right about its Z (out of the face) is negative on the Gear VR, as on the
        // Daydream's y; the tip up about its X stays on x; a roll about its Y becomes -z.
        let packet = try Self.decode(Self.packet(acceleration: (0, 0, 2048), gyro: (1428, 300, -714)))
        #expect(packet.gyro == RawVector(1428, -714, -300))
        #expect(packet.forSample(0).gyro == RawVector(1428, -714, -300))
    }

    @Test(arguments: [Int16.min, -1, 0, 1, Int16.max])
    func everyCountEncodesBackToTheSameBytes(count: Int16) throws {
        let bytes = Self.packet(acceleration: (count, count, count), gyro: (1, count, 0 &- count))
        #expect(try Self.decode(bytes).gearVRBytes == bytes)
    }

    @Test func handMadePacketsAreGivenOnTheCommonAxes() {
        var packet = DaydreamPacket(acceleration: RawVector(0, 2048, 0), gyro: RawVector(0, -714, 0))
        packet.family = .gearVR
        packet.clock = .microseconds
        let bytes = packet.gearVRBytes
        // The last sample's counts, at 36...47: acceleration z 2048, gyro z -714.
        let last = Array(bytes[36..<48])
        #expect(last == [0, 0, 0, 0, 0x00, 0x08, 0, 0, 0, 0, 0x36, 0xFD])
    }

    @Test func decodeShowsTheCountsAsTheyWereSent() throws {
        let line = try Self.decode(Self.packet(acceleration: (0, 0, 2048), gyro: (1428, 300, -714))).jsonLine
        #expect(line.contains("\"acceleration\": [0, 0, 2048], \"gyro\": [1428, 300, -714]"))
    }
}
