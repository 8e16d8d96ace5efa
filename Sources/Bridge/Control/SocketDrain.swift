#if canImport(Glibc)
import Glibc
#endif
import Descriptors

/// Why reading a non-blocking socket stopped after taking all it had.
enum SocketDrainEnd: Equatable {
    /// Nothing more for now: the watch says when there is.
    case wouldBlock
    /// The peer closed its end.
    case closed
    /// `read(2)` failed with this `errno`.
    case failed(Int32)
}

/// Reads `descriptor` in chunks of `chunkSize` bytes, handing each to `take`, until it would
/// block, ends or fails (an interrupted read is tried again), and says which.
@discardableResult
func drainSocket(_ descriptor: Int32, chunkSize: Int, into take: (ArraySlice<UInt8>) -> Void) -> SocketDrainEnd {
    var chunk = [UInt8](repeating: 0, count: chunkSize)
    while true {
        let count = chunk.withUnsafeMutableBytes { buffer in retryingOnInterrupt { read(descriptor, buffer.baseAddress, buffer.count) } }
        if count > 0 {
            take(chunk[0..<count])
            continue
        }
        if count == 0 { return .closed }
        let code = errno
        return code == EAGAIN || code == EWOULDBLOCK ? .wouldBlock : .failed(code)
    }
}
