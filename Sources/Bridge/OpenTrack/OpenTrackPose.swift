import DaydreamProtocol
import EventVocabulary
import Mapping

/// One pose for opentrack's "UDP over network" input: the orientation relative to the zero in
/// degrees, read as the absolute pointer reads it (`AbsolutePointer.degrees`): yaw positive
/// turning right, pitch positive tipping the tip up, roll as `tilt = { source = "roll" }`
/// reads it. A 3-DoF controller has no position: x, y and z are 0.
struct OpenTrackPose: Equatable, Sendable {
    var yaw: Double
    var pitch: Double
    var roll: Double

    /// The datagram's length: six doubles.
    static let datagramLength = 48

    init(yaw: Double, pitch: Double, roll: Double) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }

    /// The pose of `orientation` relative to `zero`.
    @inline(__always)
    init(_ orientation: Quaternion, zero: Quaternion) {
        let pointer = AbsolutePointer.degrees(orientation, zero: zero)
        let relative = zero.conjugate * orientation
        self.init(yaw: pointer.x, pitch: -pointer.y, roll: UnitConversion.degrees(radians: -relative.roll))
    }

    /// Calls `body` with the datagram: x, y, z (0), yaw, pitch, roll as little-endian doubles.
    /// Built on the stack: nothing is allocated.
    @inline(__always)
    func withDatagram<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
            0, 0, 0, yaw.bitPattern.littleEndian, pitch.bitPattern.littleEndian, roll.bitPattern.littleEndian
        )
        return withUnsafeBytes(of: &words) { body($0) }
    }

    /// The pose a datagram holds, and its position; nil unless it is 48 bytes.
    static func decode(_ bytes: some Collection<UInt8>) -> (position: [Double], pose: OpenTrackPose)? {
        guard bytes.count == datagramLength else { return nil }
        let array = Array(bytes)
        let values = (0..<6).map { index in
            var bits: UInt64 = 0
            for byte in (0..<8).reversed() { bits = bits << 8 | UInt64(array[index * 8 + byte]) }
            return Double(bitPattern: bits)
        }
        return (Array(values[0..<3]), OpenTrackPose(yaw: values[3], pitch: values[4], roll: values[5]))
    }
}
