import Glibc
@testable import BridgeConfig

extension ConfigWatcher {
    /// True when the descriptor becomes readable within `milliseconds` and `readEvents` then
    /// reports a change.
    func changed(within milliseconds: Int32 = 200) -> Bool {
        var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, milliseconds)
        return readEvents()
    }
}
