/// A request the bridge carries out, whichever door brought it: a signal, the control socket,
/// the D-Bus API or a desktop's focus report. Each door only parses its own form into one of
/// these and renders the `BridgeOutcome`; `BridgeDaemon.perform(_:)` carries it out, so a
/// request means the same and fails the same way through every door.
public enum BridgeCommand: Equatable, Sendable {
    /// Switch every controller (or the one at `controller`) to the profile `name`, releasing
    /// everything first; without a controller, new controllers start in it too.
    case switchProfile(_ name: String, controller: String?)
    /// Switch every controller (or one) to its next profile in configuration order.
    case nextProfile(controller: String?)
    /// Read the configuration again; the running one stays when the new one has errors.
    case reload
    /// A desktop says `application` has the focus now: profiles follow the `applications` rules.
    case focusChanged(FocusedApplication)
    /// Take the next motion packet's orientation as the tilt's zero, for every controller (or one).
    case recenter(controller: String?)
    /// Measure the gyro's bias of every connected controller (or one), held still.
    case calibrateGyro(controller: String?)
    /// Lend every connected controller (or one) to another program (Monado): everything
    /// released, the input notifications let go, the connection and the bond kept.
    case lend(controller: String?)
    /// Take every lent controller (or one) back: subscribe to its input again.
    case reclaim(controller: String?)
    /// Find an unpaired controller (or the one at `controller`) and pair it, its services checked
    /// first as `daydream-bridge pair` checks them; it then connects like every paired one.
    case pair(controller: String?)
    /// Remove the controller at `controller` and its pairing from BlueZ.
    case forget(controller: String)
}

/// What came of a command: the lines that say what was done (the status after a switch, the
/// controllers being measured), or why nothing was.
public typealias BridgeOutcome = Result<[String], BridgeRefusal>
