#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: its name and `errno`.
public struct SystemCallError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The call that failed, e.g. `epoll_ctl`.
    public let call: String
    /// The `errno` it left.
    public let code: Int32

    /// Captures the current `errno` for `call`.
    public init(_ call: String, code: Int32 = errno) {
        self.call = call
        self.code = code
    }

    public var description: String { "\(call): \(String(cString: strerror(code)))" }
}
