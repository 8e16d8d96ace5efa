import EventLoop

/// What a started focus source holds while it follows: the loop's watch on its display
/// server connection and the two callbacks `FocusSource.start` gave, dropped together.
@MainActor
final class FocusSubscription {
    /// Hears each focus change; nil once stopped.
    private(set) var changed: (@MainActor (WindowFocus) -> Void)?
    private var ended: (@MainActor (String) -> Void)?
    private var watch: IOWatch?

    init() {}

    /// Keeps the callbacks and watches `descriptor` (the `connection`, for the message), calling
    /// `readable` when it has something; false, after telling `ended`, when it cannot be watched.
    func start(
        watching descriptor: Int32, connection: String, reactor: Reactor,
        changed: @escaping @MainActor (WindowFocus) -> Void, ended: @escaping @MainActor (String) -> Void,
        readable: @escaping @MainActor () -> Void
    ) -> Bool {
        self.changed = changed
        self.ended = ended
        do {
            watch = try reactor.watch(descriptor, interest: .readable) { _ in readable() }
        } catch {
            ended("cannot watch the \(connection): \(error)")
            return false
        }
        return true
    }

    /// The display server closed the connection: stops watching and tells `ended` why.
    func closed(_ reason: String) {
        watch?.cancel()
        watch = nil
        ended?(reason)
    }

    /// Stops watching and forgets the callbacks.
    func stop() {
        watch?.cancel()
        watch = nil
        changed = nil
        ended = nil
    }
}
