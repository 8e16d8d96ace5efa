#if canImport(Glibc)
import Glibc
#endif

/// A closure that hears one controller's event, on the main thread.
public typealias DDControllerEventObserver = @MainActor @Sendable (DDController, DDControllerEvent) -> Void

/// The observers of every controller's `DDControllerEvent`s.
///
/// Observers may be added and removed from any thread (the `Daydream` module adds its
/// notification poster from wherever its notification names are first read), so the list is
/// guarded by a mutex; events are delivered on the main thread, outside the lock, so an
/// observer may add or cancel observers.
final class ControllerEventObservers: @unchecked Sendable {
    /// The one list `DDController` reports to.
    static let shared = ControllerEventObservers()

    // Guarded by `mutex`: that is what makes the class Sendable.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var entries: [(identifier: UInt64, observer: DDControllerEventObserver)] = []
    private var nextIdentifier: UInt64 = 1

    private init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Adds `observer` after those already there; it hears events until the observation ends.
    func add(_ observer: @escaping DDControllerEventObserver) -> DDControllerEventObservation {
        let identifier = locked { () -> UInt64 in
            let identifier = nextIdentifier
            nextIdentifier += 1
            entries.append((identifier, observer))
            return identifier
        }
        return DDControllerEventObservation(identifier: identifier, observers: self)
    }

    /// Removes the observer added with `identifier`; nothing when it is already gone.
    func remove(_ identifier: UInt64) {
        locked { entries.removeAll { $0.identifier == identifier } }
    }

    /// Calls every observer, in the order they were added, with `event` of `controller`.
    @MainActor
    func report(_ event: DDControllerEvent, of controller: DDController) {
        let observers = locked { entries.map(\.observer) }
        for observer in observers { observer(controller, event) }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}
