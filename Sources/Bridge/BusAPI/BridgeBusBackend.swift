import BridgeConfig
import Mapping

/// What the D-Bus API reads and asks of the daemon (`BridgeDaemon` is one).
@MainActor
public protocol BridgeBusBackend: AnyObject {
    /// The configuration running now.
    var configuration: MappingConfiguration { get }
    /// The controllers seen so far.
    var controllers: [ControllerStatus] { get }
    /// Carries out a command, as every door does.
    @discardableResult
    func perform(_ command: BridgeCommand) -> BridgeOutcome
}

extension BridgeDaemon: BridgeBusBackend {}
