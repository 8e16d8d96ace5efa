import Testing
import DaydreamProtocol

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
}
