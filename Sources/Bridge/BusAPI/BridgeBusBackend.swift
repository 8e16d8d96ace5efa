import BridgeConfig
import Mapping

/// What the D-Bus API reads and asks of the daemon (`BridgeDaemon` is one).
@MainActor
public protocol BridgeBusBackend: AnyObject {
    /// The configuration running now.
    var configuration: MappingConfiguration { get }
    /// What the bridge shows, and its announcements of changes.
    var state: BridgeState { get }
    /// Carries out a command, as every door does.
    @discardableResult
    func perform(_ command: BridgeCommand) -> BridgeOutcome
}

extension BridgeDaemon: BridgeBusBackend {}
