/// What `DDController.observeEvents(_:)` returns: the observer is called until `cancel()`, or
/// until this object is released, whichever comes first.
public final class DDControllerEventObservation: Sendable {
    private let identifier: UInt64
    private let observers: ControllerEventObservers

    init(identifier: UInt64, observers: ControllerEventObservers) {
        self.identifier = identifier
        self.observers = observers
    }

    deinit {
        observers.remove(identifier)
    }

    /// Stops calling the observer. Safe to call more than once, from any thread.
    public func cancel() {
        observers.remove(identifier)
    }
}
