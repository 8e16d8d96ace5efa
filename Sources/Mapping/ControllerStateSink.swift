import Timebase

/// A sink that carries the controller's own state besides the mapping's events: the
/// DualSense's motion sensors, touchpad and battery. The session hands it every packet's
/// input after the mapping's events, and every battery reading.
public protocol ControllerStateSink: AnyObject {
    /// The controller's state from the packet received at `time`.
    func controllerInput(_ input: ControllerInput, at time: MonotonicTime)
    /// The controller's battery, in percent.
    func batteryChanged(percent: Int)
}
