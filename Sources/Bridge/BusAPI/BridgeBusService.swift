import DBus
import EventLoop
import Timebase

/// The daemon's D-Bus API on one bus: owns `org.daydream_bridge`, exports the bridge's object and
/// one object per controller, and announces every change with `PropertiesChanged` (and new
/// controllers with `InterfacesAdded`).
///
/// Changes are the `BridgeState`'s announcements: each names the fields that changed, which
/// become the properties sent (never per packet). The packet counts change with every packet,
/// so they announce nothing: clients read them.
///
/// No raw input goes on the bus: its timing would tell every bus client the rhythm of the
/// player's presses. Live input stays on the control socket.
///
/// When the bus is missing at start, or goes away later (dbus-daemon stopped or restarted), the
/// API waits for it with backoff (`BusReconnector`) and, once it answers, exports everything
/// again and takes the name back. The daemon runs on meanwhile.
@MainActor
public final class BridgeBusService {
    private let bus: BusChoice
    private let address: String
    private let backend: any BridgeBusBackend
    private let version: String
    private let reactor: Reactor
    private var server: ObjectServer?
    private lazy var reconnector = BusReconnector(label: "D-Bus API", reactor: reactor) { [weak self] in
        self?.connect() ?? false
    }
    private var observation: Observation?
    private var saidMissing = false
    private var nameAcquired: SignalSubscription?
    private var waitingInQueue = false

    /// Whether the API owns its name on the bus now.
    public private(set) var ownsName = false

    /// The API for `backend` on `bus` at `address`, not started.
    public init(bus: BusChoice, address: String, backend: any BridgeBusBackend, version: String, reactor: Reactor) {
        self.bus = bus
        self.address = address
        self.backend = backend
        self.version = version
        self.reactor = reactor
    }

    /// Connects, exports and asks for the name; a bus that does not answer is tried again.
    public func start() {
        reconnector.start(connected: false)
    }

    /// Lets the name go and closes the connection.
    public func stop() {
        reconnector.stop()
        disconnect()
    }

    /// Announces one change of the state: a new controller's object, or the changed properties.
    private func announce(_ change: BridgeState.Change) {
        guard let server else { return }
        switch change {
        case .controllerAdded(let address):
            server.add(path: BridgeBusNames.controllerPath(address: address), interfaces: [BridgeBusInterfaces.controller(backend, address: address)])
        case .controller(let address, let fields):
            server.propertiesChanged(
                path: BridgeBusNames.controllerPath(address: address), interface: BridgeBusNames.controllerInterface,
                names: BridgeBusInterfaces.propertyNames(fields))
        case .bridge(let fields):
            server.propertiesChanged(
                path: BridgeBusNames.bridgePath, interface: BridgeBusNames.bridgeInterface, names: BridgeBusInterfaces.propertyNames(fields))
        }
    }

    // MARK: The connection

    /// Connects, exports and asks for the name; false when the bus does not answer.
    private func connect() -> Bool {
        let connection: BusConnection
        do {
            connection = try BusConnection(address: address, reactor: reactor)
        } catch {
            if !saidMissing {
                Logger.warning("no D-Bus API yet: \(bus.description) does not answer (\(error.message)); trying again until it does")
                saidMissing = true
            }
            return false
        }
        saidMissing = false
        connection.disconnectedHandler = { [weak self] in
            // Inside the connection's own dispatch: closed once it returns.
            self?.reactor.callSoon { [weak self] in self?.lost() }
        }
        let server = ObjectServer(connection: connection)
        self.server = server
        server.addObjectManager(at: BridgeBusNames.bridgePath)
        server.add(path: BridgeBusNames.bridgePath, interfaces: [BridgeBusInterfaces.bridge(backend, version: version)])
        for controller in backend.state.controllers {
            server.add(path: BridgeBusNames.controllerPath(address: controller.address), interfaces: [BridgeBusInterfaces.controller(backend, address: controller.address)])
        }
        observation = backend.state.observe { [weak self] change in self?.announce(change) }
        // A name this connection queued for arrives later, when its owner lets it go.
        nameAcquired = connection.subscribe(MatchRule(
            sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameAcquired", arg0: BridgeBusNames.busName
        )) { [weak self] _ in
            guard let self, waitingInQueue, self.server != nil else { return }
            (ownsName, waitingInQueue) = (true, false)
            Logger.info("D-Bus API on \(bus.description) as \(BridgeBusNames.busName), which the other owner let go")
        }
        connection.requestName(BridgeBusNames.busName) { [weak self, weak connection] result in
            guard let self, let connection, connection === self.server?.connection else { return }
            self.named(result)
        }
        return true
    }

    private func named(_ result: Result<BusConnection.NameRequestReply, DBusError>) {
        switch result {
        case .success(.primaryOwner), .success(.alreadyOwner):
            ownsName = true
            Logger.info("D-Bus API on \(bus.description) as \(BridgeBusNames.busName)")
        case .success(.inQueue), .success(.exists):
            waitingInQueue = true
            Logger.warning("another program owns \(BridgeBusNames.busName) on \(bus.description) (another daydream-bridge?): "
                + "this one takes the name when that one lets it go")
        case .failure(let error) where error.shortName == "AccessDenied":
            Logger.error("\(bus.description) does not let this user own \(BridgeBusNames.busName), so there is no D-Bus API: "
                + "install the bridge's D-Bus policy (make install puts org.daydream_bridge.conf in dbus-1/system.d) "
                + "or run with --bus session or --bus none (\(error.message))")
        case .failure(let error):
            Logger.warning("cannot own \(BridgeBusNames.busName) on \(bus.description): \(error.message)")
        }
    }

    private func lost() {
        guard server != nil else { return }
        disconnect()
        guard reconnector.lost() != nil else { return }
        Logger.notice("\(bus.description) went away: taking \(BridgeBusNames.busName) again when it comes back")
    }

    private func disconnect() {
        guard let server else { return }
        self.server = nil
        observation = nil
        (ownsName, waitingInQueue) = (false, false)
        nameAcquired = nil
        server.removeAll()
        server.connection.disconnectedHandler = nil
        server.connection.close()
    }
}
