import DaydreamCore
import DaydreamProtocol

/// What the daemon shows of one controller (the D-Bus API's `Controller1` properties).
public struct ControllerStatus: Equatable, Sendable {
    /// `AA:BB:CC:DD:EE:FF`.
    public var address: String
    /// The name BlueZ knows it by, once it connected.
    public var name: String?
    /// Whether its link is up and streaming.
    public var isConnected: Bool
    /// The last battery level read, in percent.
    public var batteryPercent: Int?
    /// The firmware version from Device Information, once read.
    public var firmware: String?
    /// Its active profile.
    public var profile: String
    /// Its packets received, lost and malformed.
    public var statistics: DDControllerStatistics
    /// The gyro's measured bias (rad/s about each axis), once calibrated.
    public var gyroBias: Vector3?
    /// Whether the gyro's bias is being measured now.
    public var isCalibrating: Bool
    /// Whether it is lent to another program (Monado): connected, its input left to that program.
    public var isLent = false
}
