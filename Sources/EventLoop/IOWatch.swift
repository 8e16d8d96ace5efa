/// A registration of one file descriptor with a `Reactor`: the handler runs on
/// the loop when the descriptor is ready for `interest` (hang-ups and errors are
/// always reported). The watch does not own the descriptor; cancel it before
/// closing the descriptor.
@MainActor
public final class IOWatch {
    /// The watched descriptor.
    public let fileDescriptor: Int32
    /// Called on the loop with what happened.
    public let handler: @MainActor (IOEvents) -> Void
    /// What the watch waits for; setting it updates the epoll registration.
    public var interest: IOInterest {
        didSet { if interest != oldValue { reactor?.update(self) } }
    }
    /// Whether `cancel()` has been called.
    public var isCancelled: Bool { reactor == nil }

    let token: UInt64
    weak var reactor: Reactor?

    init(fileDescriptor: Int32, interest: IOInterest, token: UInt64, reactor: Reactor,
         handler: @escaping @MainActor (IOEvents) -> Void) {
        self.fileDescriptor = fileDescriptor
        self.interest = interest
        self.token = token
        self.reactor = reactor
        self.handler = handler
    }

    /// Removes the descriptor from the loop (`EPOLL_CTL_DEL`). Safe to call twice.
    public func cancel() {
        reactor?.remove(self)
        reactor = nil
    }
}
