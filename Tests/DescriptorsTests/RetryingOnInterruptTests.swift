import CLinux
import Descriptors
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The retry on `EINTR`, with real interruptions. `epoll_pwait(2)` installs the signal mask it
/// is given only while it waits, so a signal made pending (and blocked) on this thread before the
/// call is delivered as the call starts waiting, and interrupts it: an `EINTR` every time, with
/// no race against another thread. `SIGURG` is used (ignored by default, sent by nothing else
/// here), with a handler installed without `SA_RESTART`.
@Suite(.serialized) struct RetryingOnInterruptTests {
    /// A pipe (a read end watched, a write end written to) and an epoll instance watching it.
    struct Pipe: ~Copyable {
        let readEnd: FileDescriptor
        let writeEnd: FileDescriptor
        let epoll: FileDescriptor

        init() throws {
            var ends: [Int32] = [-1, -1]
            let piped = pipe(&ends)
            let watcher = epoll_create1(Int32(EPOLL_CLOEXEC))
            readEnd = FileDescriptor(owning: ends[0])
            writeEnd = FileDescriptor(owning: ends[1])
            epoll = FileDescriptor(owning: watcher)
            try #require(piped == 0 && watcher >= 0)
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            try #require(epoll_ctl(watcher, EPOLL_CTL_ADD, ends[0], &event) == 0)
        }

        /// Waits (no timeout) for the read end to be readable, with `mask` while waiting: the
        /// number of events, or -1 and `errno`.
        func poll(unblocking mask: inout sigset_t) -> Int32 {
            var event = epoll_event()
            return epoll_pwait(epoll.rawValue, &event, 1, -1, &mask)
        }

        func writeByte() {
            var byte: UInt8 = 1
            #expect(write(writeEnd.rawValue, &byte, 1) == 1)
        }
    }

    /// Runs `body` with `SIGURG` caught (no `SA_RESTART`), blocked on this thread and pending
    /// for it; `body` gets the thread's mask without `SIGURG`, for `ppoll`. Restores all after.
    private static func withSignalPending(_ body: (inout sigset_t) throws -> Void) throws {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        var previousAction = sigaction()
        try #require(sigaction(SIGURG, &action, &previousAction) == 0)
        defer { sigaction(SIGURG, &previousAction, nil) }

        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGURG)
        var previousMask = sigset_t()
        try #require(pthread_sigmask(SIG_BLOCK, &blocked, &previousMask) == 0)
        // Unblocked before the handler goes: a signal still pending is caught, not ignored late.
        defer { pthread_sigmask(SIG_SETMASK, &previousMask, nil) }

        try #require(pthread_kill(pthread_self(), SIGURG) == 0)
        var pending = sigset_t()
        sigpending(&pending)
        try #require(sigismember(&pending, SIGURG) == 1)

        var waiting = previousMask
        sigdelset(&waiting, SIGURG)
        try body(&waiting)
    }

    /// The interruption is real: the bare call, set up the same way, fails with `EINTR`.
    @Test func theBareCallIsInterrupted() throws {
        let pipe = try Pipe()
        try Self.withSignalPending { mask in
            let result = pipe.poll(unblocking: &mask)
            let code = errno
            #expect(result == -1)
            #expect(code == EINTR)
        }
    }

    /// Through the helper the interrupted call is made again, and its second answer returned.
    @Test func anInterruptedCallIsMadeAgain() throws {
        let pipe = try Pipe()
        try Self.withSignalPending { mask in
            var calls = 0
            let result = retryingOnInterrupt {
                calls += 1
                // Readable only from the second call on: the first can only end by the signal.
                if calls == 2 { pipe.writeByte() }
                return pipe.poll(unblocking: &mask)
            }
            #expect(result == 1)
            #expect(calls == 2)
        }
    }

    /// Another failure is returned at once, with its `errno`, not retried.
    @Test func anotherFailureIsReturnedOnce() {
        var calls = 0
        var byte: UInt8 = 0
        let result = retryingOnInterrupt {
            calls += 1
            return read(-1, &byte, 1)
        }
        let code = errno
        #expect(result == -1)
        #expect(code == EBADF)
        #expect(calls == 1)
    }

    /// A success, zero included, is returned as it is.
    @Test func aSuccessIsReturnedOnce() throws {
        let pipe = try Pipe()
        pipe.writeByte()
        var calls = 0
        var byte: UInt8 = 0
        let result = retryingOnInterrupt {
            calls += 1
            return read(pipe.readEnd.rawValue, &byte, 1)
        }
        #expect(result == 1)
        #expect(byte == 1)
        #expect(calls == 1)
    }
}
