/// A registration (a signal match, an observer) that ends when `cancel()` is called.
@MainActor
public final class CancellationToken {
    private var onCancel: (@MainActor () -> Void)?

    /// A token that calls `onCancel` on the first `cancel()`.
    public init(onCancel: @escaping @MainActor () -> Void) { self.onCancel = onCancel }

    /// Ends the registration; safe to call twice.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}

/// A signal subscription (`BusConnection.subscribe(_:handler:)`); `cancel()` ends it and
/// removes the bus match (`RemoveMatch`).
public typealias SignalSubscription = CancellationToken
