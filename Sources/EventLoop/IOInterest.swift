import CLinux
import Glibc

/// What a file descriptor watch waits for.
public struct IOInterest: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Data to read (`EPOLLIN`).
    public static let readable = IOInterest(rawValue: EPOLLIN.rawValue)
    /// Room to write (`EPOLLOUT`).
    public static let writable = IOInterest(rawValue: EPOLLOUT.rawValue)
}

/// What happened on a watched file descriptor in one loop turn.
public struct IOEvents: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The events of an `epoll_event`, with `EPOLLRDHUP` reported as `hangup`.
    init(epoll mask: UInt32) {
        rawValue = mask & EPOLLRDHUP.rawValue != 0 ? mask | EPOLLHUP.rawValue : mask
    }

    /// `EPOLLIN`: data to read (or end of file).
    public static let readable = IOEvents(rawValue: EPOLLIN.rawValue)
    /// `EPOLLOUT`: room to write.
    public static let writable = IOEvents(rawValue: EPOLLOUT.rawValue)
    /// `EPOLLHUP` (or `EPOLLRDHUP`): the other end went away.
    public static let hangup = IOEvents(rawValue: EPOLLHUP.rawValue)
    /// `EPOLLERR`: an error is pending on the descriptor.
    public static let error = IOEvents(rawValue: EPOLLERR.rawValue)
}
