import DaydreamCore
import DaydreamProtocol
import Mapping
import Timebase

/// The DualSense follows the controller's feed, as a DSU slot does: each packet's motion and
/// touch, and the battery. Attached after the session, a packet's state follows its events.
extension DualSenseDeviceSet: ControllerConsumer {
    public func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
        controllerInput(ControllerInput(packet: packet), at: time)
    }

    /// The session releases what the pad holds when the link goes down.
    public func linkChanged(connected: Bool, at time: MonotonicTime) {}

    public func batteryChanged(percent: Int, at time: MonotonicTime) {
        batteryChanged(percent: percent)
    }
}
