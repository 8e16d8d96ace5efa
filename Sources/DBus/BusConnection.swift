import CDBus
import EventLoop
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// A private connection to a message bus (`DBusConnection *`), driven by a
/// `Reactor`: libdbus's watches and timeouts become loop registrations, and
/// messages are dispatched at the end of each loop turn. Nothing here blocks:
/// calls complete through callbacks.
@MainActor
public final class BusConnection {
    let raw: OpaquePointer
    /// The loop the connection runs on.
    public let reactor: Reactor
    /// The bus's name for this connection (`:1.42`), once `Hello` has answered.
    public private(set) var uniqueName: String?
    /// Called once when the bus connection is lost (dbus-daemon stopped).
    public var disconnectedHandler: (@MainActor () -> Void)?
    /// Whether the connection is still open (false once closed: `close()` releases `raw`).
    public var isConnected: Bool { !closed && dbus_connection_get_is_connected(raw) != 0 }

    private var watchGroups: [Int32: WatchGroup] = [:]
    private var timeouts: [OpaquePointer: TimeoutSlot] = [:]
    private var dispatchScheduled = false
    private var pendingCalls: Set<OpaquePointer> = []
    /// The signal subscriptions in the order they were made (by increasing id), so each signal
    /// reaches its handlers in that order without sorting them per signal.
    private var subscriptions: [(id: UInt64, rule: MatchRule, handler: @MainActor (Message) -> Void)] = []
    private var nextSubscription: UInt64 = 0
    private var objects: [String: @MainActor (Message) -> Result<[DBusValue], DBusError>?] = [:]
    private var closed = false

    /// The system bus: `$DAYDREAM_DBUS_ADDRESS`, else `$DBUS_SYSTEM_BUS_ADDRESS`, else
    /// `unix:path=/run/dbus/system_bus_socket`.
    public static var systemBusAddress: String {
        for name in ["DAYDREAM_DBUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS"] {
            if let value = getenv(name), value.pointee != 0 { return String(cString: value) }
        }
        return "unix:path=/run/dbus/system_bus_socket"
    }

    /// Connects to the bus at `address` and sends `Hello` without waiting for it.
    public init(address: String, reactor: Reactor) throws(DBusError) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        guard let raw = dbus_connection_open_private(address, &error) else {
            let failure = DBusError(consuming: &error)
            throw DBusError(name: failure.name, message: "cannot connect to the D-Bus bus at \(address): \(failure.message)")
        }
        self.raw = raw
        self.reactor = reactor
        Reactor.ignoreBrokenPipe()
        dbus_connection_set_exit_on_disconnect(raw, 0)
        let context = Unmanaged.passUnretained(self).toOpaque()
        dbus_connection_set_watch_functions(raw, connectionAddWatch, connectionRemoveWatch, connectionToggleWatch, context, nil)
        dbus_connection_set_timeout_functions(raw, connectionAddTimeout, connectionRemoveTimeout, connectionToggleTimeout, context, nil)
        dbus_connection_set_dispatch_status_function(raw, connectionDispatchStatus, context, nil)
        dbus_connection_add_filter(raw, connectionFilter, context, nil)
        sayHello()
        scheduleDispatch()
    }

    /// Connects to the system bus (see `systemBusAddress`).
    public static func system(reactor: Reactor) throws(DBusError) -> BusConnection {
        try BusConnection(address: systemBusAddress, reactor: reactor)
    }

    isolated deinit {
        close()
    }

    /// Cancels pending calls, clears every callback and closes the connection.
    public func close() {
        guard !closed else { return }
        closed = true
        for pending in pendingCalls {
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
        }
        pendingCalls.removeAll()
        dbus_connection_remove_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque())
        dbus_connection_set_dispatch_status_function(raw, nil, nil, nil)
        dbus_connection_set_watch_functions(raw, nil, nil, nil, nil, nil)
        dbus_connection_set_timeout_functions(raw, nil, nil, nil, nil, nil)
        for group in watchGroups.values { group.registration?.cancel() }
        watchGroups.removeAll()
        for slot in timeouts.values { slot.timer?.cancel() }
        timeouts.removeAll()
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    private func sayHello() {
        guard let hello = Message.methodCall(
            destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus", method: "Hello") else { return }
        call(hello) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reply):
                if let name = reply.arguments().first?.string {
                    uniqueName = name
                    _ = dbus_bus_set_unique_name(raw, name)
                }
            case .failure(let error):
                Log.error("D-Bus: Hello failed: \(error)")
            }
        }
    }

    // MARK: Sending

    /// Sends a message that expects no reply (a signal, or a call whose answer is ignored).
    @discardableResult
    public func send(_ message: Message) -> Bool {
        guard !closed else { return false }
        return dbus_connection_send(raw, message.raw, nil) != 0
    }

    /// Sends a method call; `completion` runs on the loop with the reply, or
    /// with the error (an error reply, a timeout, a lost connection).
    public func call(
        _ message: Message, timeout: TimeSpan? = nil,
        completion: @escaping @MainActor (Result<Message, DBusError>) -> Void
    ) {
        var pending: OpaquePointer?
        let milliseconds = timeout.map { Int32(clamping: $0.nanoseconds / 1_000_000) } ?? DBUS_TIMEOUT_USE_DEFAULT
        guard !closed, dbus_connection_send_with_reply(raw, message.raw, &pending, milliseconds) != 0,
              let pending else {
            reactor.callSoon { completion(.failure(.disconnected)) }
            return
        }
        pendingCalls.insert(pending)
        let box = Unmanaged.passRetained(ReplyBox(connection: self, completion: completion)).toOpaque()
        guard dbus_pending_call_set_notify(pending, pendingCallNotify, box, pendingCallFree) != 0 else {
            Unmanaged<ReplyBox>.fromOpaque(box).release()
            pendingCalls.remove(pending)
            dbus_pending_call_cancel(pending)
            dbus_pending_call_unref(pending)
            reactor.callSoon { completion(.failure(DBusError(name: "org.freedesktop.DBus.Error.NoMemory", message: "out of memory"))) }
            return
        }
        // A reply that came in before the notify was set still completes.
        if dbus_pending_call_get_completed(pending) != 0 { complete(pending, box: box) }
    }

    /// A method call by name with `completion` for the reply's arguments.
    public func call(
        destination: String, path: String, interface: String, method: String, arguments: [DBusValue] = [],
        timeout: TimeSpan? = nil, completion: @escaping @MainActor (Result<[DBusValue], DBusError>) -> Void
    ) {
        guard let message = Message.methodCall(
            destination: destination, path: path, interface: interface, method: method, arguments: arguments) else {
            let error = DBusError(name: "org.freedesktop.DBus.Error.InvalidArgs",
                                  message: "cannot build \(interface).\(method) on \(path)")
            reactor.callSoon { completion(.failure(error)) }
            return
        }
        call(message, timeout: timeout) { result in
            completion(result.map { $0.arguments() })
        }
    }

    fileprivate func complete(_ pending: OpaquePointer, box: UnsafeMutableRawPointer) {
        guard pendingCalls.remove(pending) != nil else { return }
        let reply = dbus_pending_call_steal_reply(pending).map { Message(owning: $0) }
        dbus_pending_call_unref(pending)
        let completion = Unmanaged<ReplyBox>.fromOpaque(box).takeUnretainedValue().completion
        guard let reply else {
            completion(.failure(DBusError(name: "org.freedesktop.DBus.Error.NoReply", message: "no reply")))
            return
        }
        if let error = reply.error {
            completion(.failure(error))
        } else {
            completion(.success(reply))
        }
    }

    // MARK: Signals

    /// Calls `handler` for every signal matching `rule` until the returned
    /// subscription is cancelled. The rule is added on the bus with `AddMatch`.
    public func subscribe(_ rule: MatchRule, handler: @escaping @MainActor (Message) -> Void) -> SignalSubscription {
        nextSubscription += 1
        let id = nextSubscription
        subscriptions.append((id, rule, handler))
        busCall("AddMatch", rule.text)
        return SignalSubscription { [weak self] in
            guard let self, let index = subscriptions.firstIndex(where: { $0.id == id }) else { return }
            subscriptions.remove(at: index)
            busCall("RemoveMatch", rule.text)
        }
    }

    private func busCall(_ method: String, _ argument: String) {
        call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
             method: method, arguments: [.string(argument)]) { result in
            if case .failure(let error) = result, error != .disconnected {
                Log.error("D-Bus: \(method)(\(argument)) failed: \(error)")
            }
        }
    }

    // MARK: Exported objects

    /// Answers method calls to `path` with `handler`: it returns the reply's
    /// arguments or an error, or nil to send no reply.
    public func export(path: String, handler: @escaping @MainActor (Message) -> Result<[DBusValue], DBusError>?) {
        objects[path] = handler
    }

    /// Stops answering calls to `path`.
    public func unexport(path: String) {
        objects[path] = nil
    }

    // MARK: libdbus callbacks

    fileprivate func filter(_ rawMessage: OpaquePointer) -> DBusHandlerResult {
        let message = Message(retaining: rawMessage)
        switch message.kind {
        case .signal:
            if message.isSignal("org.freedesktop.DBus.Local", "Disconnected") {
                Log.warning("D-Bus: the bus connection was lost")
                disconnectedHandler?()
                return DBUS_HANDLER_RESULT_HANDLED
            }
            // The subscriptions as the signal found them: a handler may subscribe or cancel.
            let current = subscriptions
            for index in current.indices where current[index].rule.matches(message) {
                current[index].handler(message)
            }
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        case .methodCall:
            guard let path = message.path, let handler = objects[path] else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
            let result = handler(message)
            guard message.expectsReply, let result else { return DBUS_HANDLER_RESULT_HANDLED }
            let reply: Message?
            switch result {
            case .success(let values): reply = message.makeReturn(values) ?? message.makeError(
                DBusError(name: "org.freedesktop.DBus.Error.Failed", message: "reply could not be built"))
            case .failure(let error): reply = message.makeError(error)
            }
            if let reply { send(reply) }
            return DBUS_HANDLER_RESULT_HANDLED
        default:
            return DBUS_HANDLER_RESULT_NOT_YET_HANDLED
        }
    }

    fileprivate func scheduleDispatch() {
        guard !dispatchScheduled, !closed else { return }
        dispatchScheduled = true
        reactor.callSoon { [weak self] in self?.dispatchAll() }
    }

    private func dispatchAll() {
        dispatchScheduled = false
        guard !closed else { return }
        // Keep the connection alive while handlers run: one may drop the last reference.
        withExtendedLifetime(self) {
            var status = dbus_connection_get_dispatch_status(raw)
            while status == DBUS_DISPATCH_DATA_REMAINS, !closed {
                status = dbus_connection_dispatch(raw)
            }
            if status == DBUS_DISPATCH_NEED_MEMORY { scheduleDispatch() }
        }
    }

    fileprivate func addWatch(_ watch: OpaquePointer) {
        let descriptor = dbus_watch_get_unix_fd(watch)
        let group = watchGroups[descriptor] ?? WatchGroup(descriptor: descriptor)
        watchGroups[descriptor] = group
        group.watches.append(watch)
        refresh(group)
    }

    fileprivate func removeWatch(_ watch: OpaquePointer) {
        let descriptor = dbus_watch_get_unix_fd(watch)
        guard let group = watchGroups[descriptor] else { return }
        group.watches.removeAll { $0 == watch }
        refresh(group)
        if group.watches.isEmpty { watchGroups[descriptor] = nil }
    }

    fileprivate func toggleWatch(_ watch: OpaquePointer) {
        if let group = watchGroups[dbus_watch_get_unix_fd(watch)] { refresh(group) }
    }

    /// One epoll registration for all the enabled watches on a descriptor
    /// (libdbus makes a read and a write watch on the same socket).
    private func refresh(_ group: WatchGroup) {
        var interest: IOInterest = []
        for watch in group.watches where dbus_watch_get_enabled(watch) != 0 {
            let flags = dbus_watch_get_flags(watch)
            if flags & DBUS_WATCH_READABLE.rawValue != 0 { interest.insert(.readable) }
            if flags & DBUS_WATCH_WRITABLE.rawValue != 0 { interest.insert(.writable) }
        }
        if interest.isEmpty {
            group.registration?.cancel()
            group.registration = nil
        } else if let registration = group.registration {
            registration.interest = interest
        } else {
            do {
                group.registration = try reactor.watch(group.descriptor, interest: interest) { [weak self, weak group] events in
                    guard let self, let group else { return }
                    handle(events, on: group)
                }
            } catch {
                Log.error("D-Bus: cannot watch the bus socket: \(error)")
            }
        }
    }

    private func handle(_ events: IOEvents, on group: WatchGroup) {
        for watch in group.watches {
            // A handled watch can remove others from the group.
            guard group.watches.contains(watch), dbus_watch_get_enabled(watch) != 0 else { continue }
            let wanted = dbus_watch_get_flags(watch)
            var flags: UInt32 = 0
            if events.contains(.readable) && wanted & DBUS_WATCH_READABLE.rawValue != 0 { flags |= DBUS_WATCH_READABLE.rawValue }
            if events.contains(.writable) && wanted & DBUS_WATCH_WRITABLE.rawValue != 0 { flags |= DBUS_WATCH_WRITABLE.rawValue }
            if !events.isDisjoint(with: .hangup) { flags |= DBUS_WATCH_HANGUP.rawValue }
            if events.contains(.error) { flags |= DBUS_WATCH_ERROR.rawValue }
            if flags != 0 { _ = dbus_watch_handle(watch, flags) }
        }
        scheduleDispatch()
    }

    /// A timeout libdbus added: it is armed while enabled, until libdbus removes it.
    fileprivate func addTimeout(_ timeout: OpaquePointer) {
        timeouts[timeout]?.timer?.cancel()
        let slot = TimeoutSlot()
        timeouts[timeout] = slot
        arm(timeout, slot)
    }

    /// A timeout whose enabled flag or interval changed. One libdbus has removed is not ours any
    /// more (it may be freed): it is never armed again.
    fileprivate func toggleTimeout(_ timeout: OpaquePointer) {
        guard let slot = timeouts[timeout] else { return }
        slot.timer?.cancel()
        slot.timer = nil
        arm(timeout, slot)
    }

    fileprivate func removeTimeout(_ timeout: OpaquePointer) {
        timeouts.removeValue(forKey: timeout)?.timer?.cancel()
    }

    /// The number of timeouts with a timer running, for tests.
    var armedTimeoutCount: Int { timeouts.values.count { $0.timer != nil } }

    /// Starts `timeout`'s timer if it is enabled. The timer handles it only while `slot` is still
    /// the one libdbus's add made: handling a pending call's timeout removes it, and the call's
    /// last unref then frees it, so a removed timeout is neither handled nor re-armed.
    private func arm(_ timeout: OpaquePointer, _ slot: TimeoutSlot) {
        guard !closed, dbus_timeout_get_enabled(timeout) != 0 else { return }
        let interval = TimeSpan.milliseconds(Int64(dbus_timeout_get_interval(timeout)))
        slot.timer = reactor.schedule(after: interval) { [weak self, weak slot] in
            guard let self, let slot, timeouts[timeout] === slot else { return }
            slot.timer = nil
            _ = dbus_timeout_handle(timeout)
            // libdbus timeouts repeat until removed or disabled; the handler may have done either.
            if timeouts[timeout] === slot, slot.timer == nil { arm(timeout, slot) }
            scheduleDispatch()
        }
    }
}

/// One timeout libdbus added and has not removed, with its timer while it is armed.
@MainActor
private final class TimeoutSlot {
    var timer: ScheduledTimer?
}

/// The enabled libdbus watches on one descriptor and their loop registration.
@MainActor
private final class WatchGroup {
    let descriptor: Int32
    var watches: [OpaquePointer] = []
    var registration: IOWatch?

    init(descriptor: Int32) { self.descriptor = descriptor }
}

/// The completion of one pending call, owned by libdbus until it is freed.
private final class ReplyBox {
    weak var connection: BusConnection?
    let completion: @MainActor (Result<Message, DBusError>) -> Void

    init(connection: BusConnection, completion: @escaping @MainActor (Result<Message, DBusError>) -> Void) {
        self.connection = connection
        self.completion = completion
    }
}

// libdbus calls these on the loop's thread (the main thread), from inside
// dbus_connection_* calls the loop makes. The watch and timeout callbacks only
// change loop registrations; the dispatch-status callback only schedules a dispatch.

/// Runs `body` on the main actor with the connection behind `data` and a
/// libdbus pointer. libdbus calls back on the thread that called into it,
/// which is always the loop's (main) thread.
private func onLoop<Result: Sendable>(
    _ data: UnsafeMutableRawPointer?, _ pointer: OpaquePointer,
    _ body: @MainActor (BusConnection, OpaquePointer) -> Result
) -> Result? {
    guard let data else { return nil }
    nonisolated(unsafe) let context = data, handle = pointer
    return MainActor.assumeIsolated {
        body(Unmanaged<BusConnection>.fromOpaque(context).takeUnretainedValue(), handle)
    }
}

/// A watch or timeout callback from libdbus, run on the loop: `body` with the connection and
/// `object`, or nothing when libdbus passed no object. True (libdbus's "handled", which the
/// add callbacks return) when it ran.
@discardableResult
private func forward(
    _ object: OpaquePointer?, _ data: UnsafeMutableRawPointer?, _ body: @MainActor (BusConnection, OpaquePointer) -> Void
) -> dbus_bool_t {
    guard let object else { return 0 }
    onLoop(data, object, body)
    return 1
}

private let connectionAddWatch: DBusAddWatchFunction = { watch, data in forward(watch, data) { $0.addWatch($1) } }
private let connectionRemoveWatch: DBusRemoveWatchFunction = { watch, data in forward(watch, data) { $0.removeWatch($1) } }
private let connectionToggleWatch: DBusWatchToggledFunction = { watch, data in forward(watch, data) { $0.toggleWatch($1) } }

private let connectionAddTimeout: DBusAddTimeoutFunction = { timeout, data in forward(timeout, data) { $0.addTimeout($1) } }
private let connectionRemoveTimeout: DBusRemoveTimeoutFunction = { timeout, data in forward(timeout, data) { $0.removeTimeout($1) } }
private let connectionToggleTimeout: DBusTimeoutToggledFunction = { timeout, data in forward(timeout, data) { $0.toggleTimeout($1) } }

private let connectionDispatchStatus: DBusDispatchStatusFunction = { connectionPointer, status, data in
    guard status == DBUS_DISPATCH_DATA_REMAINS, let connectionPointer else { return }
    onLoop(data, connectionPointer) { connection, _ in connection.scheduleDispatch() }
}

private let connectionFilter: DBusHandleMessageFunction = { _, message, data in
    guard let message else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    return onLoop(data, message) { $0.filter($1) } ?? DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}

private let pendingCallNotify: DBusPendingCallNotifyFunction = { pending, data in
    guard let pending, let data else { return }
    nonisolated(unsafe) let box = data, call = pending
    MainActor.assumeIsolated {
        Unmanaged<ReplyBox>.fromOpaque(box).takeUnretainedValue().connection?.complete(call, box: box)
    }
}

private let pendingCallFree: DBusFreeFunction = { data in
    guard let data else { return }
    Unmanaged<ReplyBox>.fromOpaque(data).release()
}
