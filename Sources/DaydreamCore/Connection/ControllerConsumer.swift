import Timebase

/// What a controller's packets and link changes are handed to: the library's `DDController`
/// model, the daemon's mapping session, the monitor, the recorder, a test.
///
/// Attach one or more to a `ControllerFeed`; each hears everything, in the order they were
/// attached, on the main thread. `receive(_:at:)` is the per-packet path: it gets the
/// notification's bytes as read (a well-formed one is 20 bytes) and must not keep the buffer.
@MainActor
public protocol ControllerConsumer: AnyObject {
    /// One notification, received at `time`. The bytes are valid only during the call.
    func receive(_ bytes: UnsafeRawBufferPointer, at time: MonotonicTime)
    /// The link came up and streams (`true`), or went down (`false`), at `time`.
    func linkChanged(connected: Bool, at time: MonotonicTime)
    /// A battery level was read, in percent (0...100).
    func batteryChanged(percent: Int, at time: MonotonicTime)
    /// Device Information strings were read; the ones not read yet are nil.
    func deviceInformationChanged(_ information: ControllerDeviceInformation)
}

extension ControllerConsumer {
    /// Battery readings are ignored unless a consumer asks for them.
    public func batteryChanged(percent: Int, at time: MonotonicTime) {}
    /// Device Information is ignored unless a consumer asks for it.
    public func deviceInformationChanged(_ information: ControllerDeviceInformation) {}
}
