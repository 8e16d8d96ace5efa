import Descriptors
import Glibc
import VirtualHID

/// The kernel's end of `/dev/uhid`, played over a `SOCK_SEQPACKET` socket pair (one message
/// per read, as on the real device): the device under test gets the other end.
final class FakeUHIDKernel {
    let kernelEnd: FileDescriptor
    private(set) var deviceEnd: FileDescriptor?

    init() throws {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw SystemCallError("socketpair")
        }
        kernelEnd = FileDescriptor(owning: pair[0])
        deviceEnd = FileDescriptor(owning: pair[1])
        _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
    }

    /// The device's end, once.
    func takeDeviceEnd() -> FileDescriptor? { deviceEnd.take() }

    /// Every message the device wrote so far, in order.
    func messages() -> [[UInt8]] {
        var messages: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: UHIDMessage.eventSize + 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(kernelEnd.rawValue, $0.baseAddress, $0.count) }
            if count <= 0 { return messages }
            messages.append(Array(buffer[..<count]))
        }
    }

    /// Sends `message` to the device, as the kernel would; false when the socket had no room.
    @discardableResult
    func send(_ message: [UInt8]) -> Bool {
        message.withUnsafeBytes { write(kernelEnd.rawValue, $0.baseAddress, $0.count) } == message.count
    }

    static func type(_ message: [UInt8]) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(message[$1]) << (8 * UInt32($1)) }
    }

    /// The report inside a `UHID_INPUT2` message.
    static func inputReport(_ message: [UInt8]) -> [UInt8]? {
        guard type(message) == 12, message.count >= 6 else { return nil }
        let size = Int(message[4]) | Int(message[5]) << 8
        return Array(message[6..<(6 + size)])
    }
}
