import DaydreamProtocol
import Timebase

/// What a controller's packets and link changes are handed to: the library's `DDController`
/// model, the daemon's mapping session, a DSU slot, a DualSense's motion and touchpad, the
/// monitor, the recorder, a test.
///
/// Attach one or more to a `ControllerFeed`; each hears everything, in the order they were
/// attached, on the main thread. `receive(_:at:)` is the per-packet path: the feed decodes each
/// notification once and hands every consumer the same packet (one that is not a packet is
/// counted in the feed's `statistics`, and consumers only hear that it was dropped).
@MainActor
public protocol ControllerConsumer: AnyObject {
    /// One packet, received at `time`.
    func receive(_ packet: DaydreamPacket, at time: MonotonicTime)
    /// The link came up and streams (`true`), or went down (`false`), at `time`.
    func linkChanged(connected: Bool, at time: MonotonicTime)
    /// A battery level was read, in percent (0...100).
    func batteryChanged(percent: Int, at time: MonotonicTime)
    /// A notification that was not a packet arrived at `time`, and was dropped.
    func malformedNotificationDropped(at time: MonotonicTime)
    /// Device Information strings were read; the ones not read yet are nil.
    func deviceInformationChanged(_ information: ControllerDeviceInformation)
    /// The controller was lent to another program (`true`: its link reports down as well) or
    /// taken back (`false`: its link reports up once it streams again).
    func lendingChanged(lent: Bool, at time: MonotonicTime)
}

extension ControllerConsumer {
    /// Battery readings are ignored unless a consumer asks for them.
    public func batteryChanged(percent: Int, at time: MonotonicTime) {}
    /// Dropped notifications are ignored unless a consumer counts them.
    public func malformedNotificationDropped(at time: MonotonicTime) {}
    /// Device Information is ignored unless a consumer asks for it.
    public func deviceInformationChanged(_ information: ControllerDeviceInformation) {}
    /// Lending is ignored unless a consumer shows it: the link's report is what releases.
    public func lendingChanged(lent: Bool, at time: MonotonicTime) {}
}
