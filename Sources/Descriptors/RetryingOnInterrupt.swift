#if canImport(Glibc)
import Glibc
#endif

/// Makes the system call in `call` until a signal does not interrupt it: again while it
/// returns -1 with `errno` `EINTR`. Returns the first other result, with `errno` as that
/// call left it, so a caller reads `errno` after a negative result as it would after the call.
///
/// For a call whose interruption means "do it again now". An event loop where an interruption
/// means "come back on the next turn" (`epoll_wait`, a read a level-triggered watch will
/// repeat) checks `EINTR` itself.
///
/// Inlined: a non-escaping closure, no allocation, so it costs what the hand-written loop did.
@inlinable @inline(__always)
public func retryingOnInterrupt<Result: FixedWidthInteger & SignedInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result != -1 || errno != EINTR { return result }
    }
}
