import Testing
import DaydreamProtocol

/// The three real captures in protocol.md decode to the counts given there.
@Suite("Real packets from protocol.md")
struct RealPacketTests {
    @Test func flatOnATable() throws {
        let packet = try DaydreamPacket(#require(Hex.decode("5BEBFFB825FDB000041000B00000000000000000")))
        #expect(packet.time == 183)
        #expect(packet.sequence == 26)
        #expect(packet.orientation == RawVector(-3, -2011, -74))
        #expect(packet.acceleration == RawVector(0, 520, 11))
        #expect(packet.gyro == RawVector(0, 0, 0))
        #expect(packet.touchPoint == nil)
        #expect(packet.buttons == [])
        #expect(packet.status == 0)
    }

    @Test func fingerOnThePad() throws {
        let packet = try DaydreamPacket(#require(Hex.decode("480BFE87EB00E801841000B00000000191FBA008")))
        #expect(packet.time == 144)
        #expect(packet.sequence == 2)
        #expect(packet.orientation == RawVector(-12, 2027, 29))
        #expect(packet.acceleration == RawVector(6, 520, 11))
        #expect(packet.gyro == RawVector(0, 0, 12))
        #expect(packet.touchX == 143)
        #expect(packet.touchY == 221)
        #expect(packet.buttons == [])
        #expect(packet.status == 0x08)
        let point = try #require(packet.touchPoint)
        #expect(abs(point.x - 143.0 / 255.0) < 1e-12)
        #expect(abs(point.y - 221.0 / 255.0) < 1e-12)
    }

    @Test func volumeUpHeld() throws {
        let packet = try DaydreamPacket(#require(Hex.decode("26F80361C2002002C40FFE400000000000001011")))
        #expect(packet.time == 77)
        #expect(packet.sequence == 30)
        #expect(packet.orientation == RawVector(27, 450, 4))
        #expect(packet.acceleration == RawVector(11, 519, -28))
        #expect(packet.gyro == RawVector(0, 0, 0))
        #expect(packet.touchPoint == nil)
        #expect(packet.buttons == .volumeUp)
        #expect(packet.status == 0x11)
    }

    @Test("Real packets encode back to the same bytes", arguments: [
        "5BEBFFB825FDB000041000B00000000000000000",
        "480BFE87EB00E801841000B00000000191FBA008",
        "26F80361C2002002C40FFE400000000000001011",
    ])
    func reencodes(hex: String) throws {
        let bytes = try #require(Hex.decode(hex))
        #expect(try DaydreamPacket(bytes).bytes == bytes)
    }

    /// Regression for the widely copied decoder that masks orientation x with 0x80 >> 5.
    @Test func orientationXUsesAllThreeBitsOfItsThirdGroup() throws {
        let packet = DaydreamPacket(orientation: RawVector(-4096 + 7, 0, 0))
        #expect(try DaydreamPacket(packet.bytes).orientation.x == -4089)
    }
}
