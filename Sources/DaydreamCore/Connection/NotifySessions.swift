import BlueZ
import DBus
import EventLoop

/// The `StartNotify` sessions one link holds in bluetoothd, so that each is undone.
///
/// BlueZ keeps a session per client and characteristic until `StopNotify` or
/// until the client leaves the bus, across disconnects (it subscribes again by
/// itself on the next connection), and while any session is open on a
/// characteristic it answers `AcquireNotify` there with `InProgress`. A session
/// left behind after a fallback would so keep every later `AcquireNotify` from
/// working. `StartNotify` answers `InProgress` when this client's session exists
/// but waits to be subscribed again (the device is not connected yet): that is
/// a session held, as good as success.
@MainActor
final class NotifySessions {
    private let client: BlueZClient
    private let label: String
    private let log: LogSink
    /// Characteristics with a session of ours (BlueZ answered success or `InProgress`).
    private var held: Set<String> = []
    /// Characteristics the current stream wants; a session that arrives for another is stopped.
    private var wanted: Set<String> = []

    init(client: BlueZClient, label: String, log: LogSink) {
        self.log = log
        self.client = client
        self.label = label
    }

    /// `StartNotify` on `path`; `completion` gets success when the session is held.
    func start(_ path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        wanted.insert(path)
        client.startNotify(characteristic: path) { [weak self] result in
            guard let self else { return }
            var outcome = result
            if case .failure(let error) = result, error.shortName == "InProgress" {
                outcome = .success(())
            }
            if case .success = outcome {
                held.insert(path)
                if !wanted.contains(path) {
                    // Asked for by a stream that ended before the answer came.
                    stop(path)
                }
            }
            completion(outcome)
        }
    }

    /// Undoes every session (the stream is over).
    func stopAll() {
        wanted.removeAll()
        for path in held.sorted() { stop(path) }
    }

    /// bluetoothd, or the device's objects, went away, and the sessions with them.
    func forgetAll() {
        wanted.removeAll()
        held.removeAll()
    }

    private func stop(_ path: String) {
        held.remove(path)
        client.stopNotify(characteristic: path) { [label, log] result in
            if case .failure(let error) = result { log.debug("\(label): StopNotify on \(path): \(error)") }
        }
    }
}
