import DBus
import EventLoop
import Timebase

/// A client of bluetoothd (`org.bluez`): the object cache, kept current by
/// signals, and followed across bluetoothd stopping and starting again
/// (`NameOwnerChanged`: the cache is dropped, then rebuilt from
/// `GetManagedObjects` when the name has an owner again).
@MainActor
public final class BlueZClient {
    /// Something that happened to the cache.
    public enum Event: Equatable, Sendable {
        /// bluetoothd is on the bus and the cache is loaded.
        case serviceAppeared
        /// bluetoothd left the bus; the cache is empty.
        case serviceVanished
        case interfacesAdded(path: String, interfaces: [String])
        case interfacesRemoved(path: String, interfaces: [String])
        case propertiesChanged(path: String, interface: String, names: [String])
    }

    /// The bus connection.
    public let connection: BusConnection
    /// The objects BlueZ exports.
    public private(set) var cache = ObjectCache()
    /// The unique bus name of bluetoothd while it runs.
    public private(set) var serviceOwner: String?
    /// Whether bluetoothd is running and the cache is loaded.
    public private(set) var isReady = false
    /// The bus name of the service (`org.bluez`; tests may use another).
    public let serviceName: String
    /// How `GetManagedObjects` is asked and asked again.
    public let loadRetry: LoadRetry

    /// How long a `GetManagedObjects` may take, and the waits before asking again after one that
    /// failed or got no answer: `firstDelay`, doubled each time up to `maximumDelay`, as the bus
    /// connection itself is retried. Until one answers, the bridge cannot see any controller.
    public struct LoadRetry: Sendable {
        /// The call's timeout.
        public var timeout: TimeSpan
        /// The wait after the first failure.
        public var firstDelay: TimeSpan
        /// The longest wait.
        public var maximumDelay: TimeSpan

        /// The daemon's: 25 s for the call (libdbus's default), then 1 s doubling to 30 s.
        public static let standard = LoadRetry(timeout: .seconds(25), firstDelay: .seconds(1), maximumDelay: .seconds(30))

        /// A policy with these times.
        public init(timeout: TimeSpan, firstDelay: TimeSpan, maximumDelay: TimeSpan) {
            self.timeout = timeout
            self.firstDelay = firstDelay
            self.maximumDelay = maximumDelay
        }
    }

    private var observers: [UInt64: @MainActor (Event) -> Void] = [:]
    private var nextObserver: UInt64 = 0
    private var subscriptions: [SignalSubscription] = []
    private var loadGeneration = 0
    private var valueObservers: [String: @MainActor ([UInt8]) -> Void] = [:]
    /// The timer that asks `GetManagedObjects` again, and the wait after the next failure.
    private var loadRetryTimer: ScheduledTimer?
    private var nextLoadDelay: TimeSpan

    /// A client on `connection`; call `start()` to load the cache.
    public init(connection: BusConnection, serviceName: String = BlueZNames.service, loadRetry: LoadRetry = .standard) {
        self.connection = connection
        self.serviceName = serviceName
        self.loadRetry = loadRetry
        nextLoadDelay = loadRetry.firstDelay
    }

    isolated deinit {
        for subscription in subscriptions { subscription.cancel() }
        loadRetryTimer?.cancel()
    }

    /// Calls `handler` with every event until the returned token is cancelled.
    public func observe(_ handler: @escaping @MainActor (Event) -> Void) -> ObserverToken {
        nextObserver += 1
        let id = nextObserver
        observers[id] = handler
        return ObserverToken { [weak self] in self?.observers[id] = nil }
    }

    private func emit(_ event: Event) {
        for id in observers.keys.sorted() { observers[id]?(event) }
    }

    /// Subscribes to BlueZ's signals and loads the cache when bluetoothd runs.
    public func start() {
        guard subscriptions.isEmpty else { return }
        subscriptions.append(connection.subscribe(MatchRule(
            sender: BlueZNames.busDaemon, interface: BlueZNames.busDaemon, member: "NameOwnerChanged",
            path: "/org/freedesktop/DBus", arg0: serviceName)) { [weak self] message in
            self?.nameOwnerChanged(message.arguments())
        })
        subscriptions.append(connection.subscribe(MatchRule(
            sender: serviceName, interface: BlueZNames.objectManager, member: "InterfacesAdded")) { [weak self] message in
            self?.interfacesAdded(message)
        })
        subscriptions.append(connection.subscribe(MatchRule(
            sender: serviceName, interface: BlueZNames.objectManager, member: "InterfacesRemoved")) { [weak self] message in
            self?.interfacesRemoved(message)
        })
        subscriptions.append(connection.subscribe(MatchRule(
            sender: serviceName, interface: BlueZNames.properties, member: "PropertiesChanged",
            pathNamespace: "/org/bluez")) { [weak self] message in
            self?.propertiesChanged(message)
        })
        connection.call(destination: BlueZNames.busDaemon, path: "/org/freedesktop/DBus", interface: BlueZNames.busDaemon,
                        method: "GetNameOwner", arguments: [.string(serviceName)]) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let values):
                if let owner = values.first?.string, serviceOwner == nil {
                    serviceOwner = owner
                    load()
                }
            case .failure(let error):
                if error.name != "org.freedesktop.DBus.Error.NameHasNoOwner" {
                    Log.error("D-Bus: GetNameOwner(\(serviceName)) failed: \(error)")
                }
                if serviceOwner == nil { emit(.serviceVanished) }
            }
        }
    }

    /// Loads the cache from `GetManagedObjects`, asking again (`loadRetry`) until it answers or
    /// the owner goes: one call that got no reply left the bridge blind to BlueZ for good.
    private func load() {
        loadGeneration += 1
        let generation = loadGeneration
        loadRetryTimer?.cancel()
        loadRetryTimer = nil
        connection.call(destination: serviceName, path: "/", interface: BlueZNames.objectManager,
                        method: "GetManagedObjects", timeout: loadRetry.timeout) { [weak self] result in
            guard let self, generation == loadGeneration, serviceOwner != nil else { return }
            switch result {
            case .success(let values):
                nextLoadDelay = loadRetry.firstDelay
                cache.load(managedObjects: values.first ?? .array(element: "y", []))
                isReady = true
                emit(.serviceAppeared)
            case .failure(let error):
                let delay = nextLoadDelay
                nextLoadDelay = min(TimeSpan(nanoseconds: delay.nanoseconds &* 2), loadRetry.maximumDelay)
                Log.error("BlueZ: GetManagedObjects failed: \(error); asking again in \(delay.seconds) s")
                guard connection.isConnected else { return }
                loadRetryTimer = connection.reactor.schedule(after: delay) { [weak self] in
                    guard let self, generation == loadGeneration, serviceOwner != nil else { return }
                    load()
                }
            }
        }
    }

    private func nameOwnerChanged(_ arguments: [DBusValue]) {
        guard arguments.count == 3, let newOwner = arguments[2].string else { return }
        if serviceOwner != nil {
            serviceOwner = nil
            isReady = false
            loadGeneration += 1
            loadRetryTimer?.cancel()
            loadRetryTimer = nil
            nextLoadDelay = loadRetry.firstDelay
            cache.removeAll()
            emit(.serviceVanished)
        }
        if !newOwner.isEmpty {
            serviceOwner = newOwner
            load()
        }
    }

    /// Signals from an old owner or before the first load are ignored.
    private func fromService(_ message: Message) -> Bool {
        guard isReady, let owner = serviceOwner else { return false }
        return message.sender == owner
    }

    private func interfacesAdded(_ message: Message) {
        guard fromService(message) else { return }
        let arguments = message.arguments()
        guard arguments.count == 2, let path = arguments[0].string else { return }
        let names = cache.interfacesAdded(path: path, interfaces: arguments[1])
        emit(.interfacesAdded(path: path, interfaces: names))
    }

    private func interfacesRemoved(_ message: Message) {
        guard fromService(message) else { return }
        let arguments = message.arguments()
        guard arguments.count == 2, let path = arguments[0].string, let names = arguments[1].strings else { return }
        cache.interfacesRemoved(path: path, interfaces: names)
        emit(.interfacesRemoved(path: path, interfaces: names))
    }

    private func propertiesChanged(_ message: Message) {
        guard fromService(message), let path = message.path else { return }
        let arguments = message.arguments()
        guard arguments.count == 3, let interface = arguments[0].string else { return }
        if interface == BlueZNames.gattCharacteristic, let value = arguments[1].propertyDictionary?["Value"]?.bytes {
            valueObservers[path]?(value)
        }
        guard let names = cache.propertiesChanged(
            path: path, interface: interface, changed: arguments[1], invalidated: arguments[2].strings ?? []) else { return }
        emit(.propertiesChanged(path: path, interface: interface, names: names))
    }

    /// Calls `handler` with each `Value` a characteristic reports in
    /// `PropertiesChanged` (the `StartNotify` path), until replaced or removed with nil.
    public func setValueObserver(characteristic path: String, _ handler: (@MainActor ([UInt8]) -> Void)?) {
        valueObservers[path] = handler
    }

    // MARK: Calls

    /// Calls `interface.method` on a BlueZ object; errors are logged with their hint.
    public func call(
        _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = [],
        timeout: TimeSpan? = nil, completion: @escaping @MainActor (Result<[DBusValue], DBusError>) -> Void
    ) {
        connection.call(destination: serviceName, path: path, interface: interface, method: method,
                        arguments: arguments, timeout: timeout) { result in
            if case .failure(let error) = result {
                Log.debug("BlueZ: \(interface).\(method) on \(path) failed: \(error)")
            }
            completion(result)
        }
    }

    /// Sets a property with `org.freedesktop.DBus.Properties.Set`.
    public func setProperty(
        _ path: String, _ interface: String, _ name: String, _ value: DBusValue,
        completion: @escaping @MainActor (Result<Void, DBusError>) -> Void
    ) {
        call(path, BlueZNames.properties, "Set", [.string(interface), .string(name), .variant(value)]) { result in
            completion(result.map { _ in () })
        }
    }
}

/// An observation of a client's events (`observe(_:)`); `cancel()` ends it.
public typealias ObserverToken = CancellationToken
