import BridgeConfig
import Mapping

/// What the D-Bus API reads and asks of the daemon (`BridgeDaemon` is one).
@MainActor
public protocol BridgeBusBackend: AnyObject {
    /// The configuration running now.
    var configuration: MappingConfiguration { get }
    /// The controllers seen so far.
    var controllers: [ControllerStatus] { get }
    /// Switches every controller (or the one at `address`) to `name`, releasing first.
    func switchProfile(to name: String, address: String?) -> ControlReply
    /// Switches every controller (or one) to its next profile.
    func cycleProfile(address: String?) -> ControlReply
    /// Reads the config again; the errors when the running one stays.
    func reload() -> ConfigReloader.Outcome
    /// Takes the next motion packet's orientation as the tilt's zero.
    func recenter(address: String?) -> ControlReply
    /// Starts measuring the gyro's bias of every connected controller (or the one at
    /// `address`); `stream`, when given, hears the progress and results.
    func calibrateGyro(address: String?, stream: ControlStream?) -> ControlReply
    /// Notes the application a desktop says has the focus.
    func setFocusedApplication(_ application: FocusedApplication)
}

extension BridgeDaemon: BridgeBusBackend {}
