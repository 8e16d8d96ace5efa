import DaydreamProtocol
import EventVocabulary
import Mapping
import Testing
@testable import Bridge

/// opentrack's pose: the absolute pointer's reading of the orientation, in opentrack's datagram.
@Suite("opentrack pose")
struct OpenTrackPoseTests {
    static func rotation(x: Double = 0, y: Double = 0, z: Double = 0) -> Quaternion {
        Quaternion(rotationVector: Vector3(x: x, y: y, z: z))
    }

    @Test func yawAndPitchAreTheAbsolutePointersAnglesWithUpPositive() {
        let zero = Self.rotation(y: 0.3)
        let orientation = Self.rotation(x: 0.2, y: -0.5)
        let pose = OpenTrackPose(orientation, zero: zero)
        let pointer = AbsolutePointer.degrees(orientation, zero: zero)
        #expect(pose.yaw == pointer.x)
        #expect(pose.pitch == -pointer.y)
    }

    @Test func aTurnRightATipUpAndARollReadPositiveDegrees() {
        let degree = Double.pi / 180
        #expect(abs(OpenTrackPose(Self.rotation(y: -60 * degree), zero: .identity).yaw - 60) < 1e-9)
        #expect(abs(OpenTrackPose(Self.rotation(x: 30 * degree), zero: .identity).pitch - 30) < 1e-9)
        #expect(abs(OpenTrackPose(Self.rotation(z: -20 * degree), zero: .identity).roll - 20) < 1e-9)
    }

    @Test func theDatagramIsSixLittleEndianDoublesWithNoPosition() {
        let bytes = OpenTrackPose(yaw: 1.5, pitch: -2, roll: 0.25).withDatagram { Array($0) }
        #expect(bytes.count == 48)
        #expect(bytes[0..<24].allSatisfy { $0 == 0 })
        #expect(Array(bytes[24..<32]) == [0, 0, 0, 0, 0, 0, 0xF8, 0x3F])  // 1.5
        #expect(Array(bytes[32..<40]) == [0, 0, 0, 0, 0, 0, 0x00, 0xC0])  // -2
        #expect(OpenTrackPose.decode(bytes)?.pose == OpenTrackPose(yaw: 1.5, pitch: -2, roll: 0.25))
    }
}
