/// The Gear VR's IMU axes against the common frame.
///
/// The Gear VR counts on its own axes: +X right, +Y toward the trigger end, +Z out of the
/// touchpad face. Everything after the decoder (mapping, gyro aiming, DSU, the motion node)
/// reads the Daydream's: x right, y out of the touchpad, z toward the player. So the common
/// vector is (x, z, -y) of the Gear VR's counts: lying flat, gravity's (0, 0, 2048) becomes
/// (0, 2048, 0). The negation wraps, so a saturated -32768 stays -32768 and every vector
/// converts back to the counts it came from (a packet encodes to its bytes).
extension RawVector {
    /// Gear VR counts on the common axes.
    @inlinable public var gearVRToCommonAxes: RawVector { RawVector(x, z, 0 &- y) }

    /// A vector on the common axes as the Gear VR counts it: `gearVRToCommonAxes` undone.
    @inlinable public var commonToGearVRAxes: RawVector { RawVector(x, 0 &- z, y) }
}
