import Bridge
import BridgeConfig

/// `[opentrack]`: starting the head tracker output.
enum OpenTrackStartup {
    /// The sender to the configured address, or nil, logged in one line, when its socket cannot
    /// be made: the bridge runs on without it. An address off this machine is logged as the
    /// choice it is.
    @MainActor
    static func start(_ configuration: OpenTrackConfiguration) -> OpenTrackSender? {
        do {
            let sender = try OpenTrackSender(configuration)
            if !configuration.sendTo.isLoopback {
                Logger.notice("opentrack: sending to \(configuration.sendTo), not a loopback address: "
                    + "the orientation leaves this machine (as asked)")
            }
            return sender
        } catch {
            Logger.error("opentrack: \(error); running without it")
            return nil
        }
    }
}
