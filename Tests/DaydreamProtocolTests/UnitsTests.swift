import Testing
import Foundation
import DaydreamProtocol

@Suite("Scaling to SI units")
struct UnitsTests {
    @Test func accelerationAtRestIsAboutOneG() throws {
        let packet = try DaydreamPacket(#require(Hex.decode("5BEBFFB825FDB000041000B00000000000000000")))
        let g = packet.accelerationSI.length
        #expect(g > 9.8 && g < 10.3)
    }

    @Test func gyroCountIsAboutHalfADegreePerSecond() {
        let packet = DaydreamPacket(gyro: RawVector(4095, 0, -4095))
        #expect(abs(packet.rotationRate.x - 2048.0 * .pi / 180.0) < 1e-9)
        #expect(abs(packet.rotationRate.z + 2048.0 * .pi / 180.0) < 1e-9)
    }

    @Test func rotationVectorBecomesAUnitQuaternion() {
        // 90 degrees about z: 4095/4 counts.
        let packet = DaydreamPacket(orientation: RawVector(0, 0, 1024))
        let q = packet.quaternion
        let angle = 1024.0 * 2.0 * .pi / 4095.0
        #expect(abs(q.w - cos(angle / 2)) < 1e-12)
        #expect(abs(q.z - sin(angle / 2)) < 1e-12)
        #expect(abs(q.x) < 1e-12 && abs(q.y) < 1e-12)
        #expect(abs(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z - 1) < 1e-12)
        #expect(DaydreamPacket().quaternion == .identity)
    }

    @Test func touchIsNilOnlyWhenBothCoordinatesAreZero() {
        #expect(DaydreamPacket(touchX: 0, touchY: 0).touchPoint == nil)
        #expect(DaydreamPacket(touchX: 0, touchY: 128).touchPoint == TouchPoint(x: 0, y: 128.0 / 255.0))
        #expect(DaydreamPacket(touchX: 255, touchY: 0).touchPoint == TouchPoint(x: 1, y: 0))
    }

    @Test func hexAcceptsSeparatorsAndRejectsJunk() {
        #expect(Hex.decode("0a:FF 10-00") == [0x0A, 0xFF, 0x10, 0x00])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
        #expect(Hex.decode("a b") == nil)
        #expect(Hex.encode([0x0A, 0xFF]) == "0AFF")
    }
}
