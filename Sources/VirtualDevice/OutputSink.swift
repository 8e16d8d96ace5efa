import Mapping

/// Where the bridge writes the mapping's output: real uinput devices
/// (`VirtualDeviceSet`) or memory (`RecordingSink`, for tests and `replay --print`).
public protocol OutputSink: AnyObject {
    /// Writes `events` in order. Each device's events go out as one frame
    /// when that device's `SYN_REPORT` comes. An event the sink cannot take
    /// is skipped, the others are still written, then the first error is thrown.
    func send(_ events: [OutputEvent]) throws(VirtualDeviceError)

    /// Releases every key that is down and returns every axis to rest, one
    /// frame (ending in `SYN_REPORT`) per device that was not at rest. A
    /// partly sent frame is dropped first.
    func releaseAll() throws(VirtualDeviceError)
}

extension OutputSink {
    /// Writes everything in `buffer`; see `send(_:)`.
    public func send(_ buffer: OutputBuffer) throws(VirtualDeviceError) {
        try send(buffer.events)
    }
}
