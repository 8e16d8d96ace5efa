import Descriptors
import Foundation
import TestSupport

/// A datagram socket standing in for systemd's `$NOTIFY_SOCKET`: collects what the daemon reports.
final class NotifySocket {
    let path: String
    private let descriptor: FileDescriptor

    init(directory: String) throws {
        path = directory + "/notify"
        let opened = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard opened >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        descriptor = FileDescriptor(owning: opened)
        guard UnixSocketPath.bind(descriptor.rawValue, to: path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(descriptor.rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// The next message (its fields joined by newlines), or nil after `timeout` seconds.
    func receive(timeout: TimeInterval = 5) -> String? {
        let end = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < end {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
            if count > 0 { return String(decoding: buffer[0..<count], as: UTF8.self) }
        }
        return nil
    }

    /// Messages until one contains `field`; all of them, or nil on timeout.
    func receive(until field: String, timeout: TimeInterval = 5) -> [String]? {
        var messages: [String] = []
        let end = Date().addingTimeInterval(timeout)
        while Date() < end, let message = receive(timeout: end.timeIntervalSinceNow) {
            messages.append(message)
            if message.split(separator: "\n").contains(where: { $0 == field }) { return messages }
        }
        return nil
    }
}
