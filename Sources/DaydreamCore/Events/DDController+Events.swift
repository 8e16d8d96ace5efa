extension DDController {
    /// Calls `observer` on the main thread with every controller's `DDControllerEvent`s, after the
    /// controller's own `connectionChangedHandler`, until the returned observation is cancelled
    /// or released. Observers are called in the order they were added. Safe from any thread.
    ///
    /// This is the Foundation-free form of the library's notifications: one observer sees every
    /// controller, and compares the controller it is given (`===`) to follow just one.
    public nonisolated static func observeEvents(
        _ observer: @escaping DDControllerEventObserver
    ) -> DDControllerEventObservation {
        ControllerEventObservers.shared.add(observer)
    }
}
