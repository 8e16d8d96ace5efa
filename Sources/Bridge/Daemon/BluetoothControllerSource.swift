import BlueZ
import DBus
import DaydreamCore
import EventLoop
import Timebase

/// The paired controllers, through BlueZ: the daemon's usual source of controllers.
///
/// `DaydreamControllerManager` connects to every paired controller and reconnects with backoff; the
/// feed of each one that connects is handed to the daemon. The manager makes no `DDController`
/// models: the daemon's sessions consume the packets themselves. Problems (BlueZ not running, no adapter, adapter off or
/// blocked) are logged by the manager, one line each saying what to do, and shown in the status.
/// With `pairFirst`, discovery runs until an unpaired controller shows up, and it is paired like
/// `daydream-bridge pair` pairs it: checked, and refused when several are in range.
///
/// When the system bus goes away (dbus-daemon stopped or restarted), the manager on it is stopped
/// and dropped (its controllers are released as on any disconnect), and the bus is tried again with
/// backoff, from `firstRetryDelay` doubling up to `maximumRetryDelay`; once it answers, a new
/// manager starts on it and finds the controllers again. A connection the bus drops sooner than
/// `stableConnection` after it was made keeps the backoff going (`BusReconnector`, the one the D-Bus API keeps its bus with too).
@MainActor
public final class BluetoothControllerSource {
    /// The first wait before trying the bus again after it went away.
    public static let firstRetryDelay = BusReconnector.firstDelay
    /// The longest wait between tries.
    public static let maximumRetryDelay = BusReconnector.maximumDelay

    /// The manager on the current bus connection, for the daemon's status.
    public private(set) var manager: DaydreamControllerManager
    private let reactor: Reactor
    private let pairFirst: Bool
    private var pairingRequest: PairingRequest?
    private var pairingRetry: ScheduledTimer?
    private var paired = false
    private var found: (@MainActor (ControllerFeed) -> Void)?
    private var problem: (@MainActor (String) -> Void)?
    /// How long a connection must have lasted for its loss to start the waits over.
    public static let stableConnection = BusReconnector.stableAfter
    private lazy var reconnector = BusReconnector(label: "system bus", reactor: reactor) { [weak self] in
        self?.reconnect() ?? false
    }
    private var droppedEarly = false

    /// A source on the system bus (`$DAYDREAM_DBUS_ADDRESS` overrides it for tests).
    public init(reactor: Reactor, pairFirst: Bool) throws(DBusError) {
        self.reactor = reactor
        manager = try Self.makeManager(reactor)
        self.pairFirst = pairFirst
    }

    private static func makeManager(_ reactor: Reactor) throws(DBusError) -> DaydreamControllerManager {
        var options = DaydreamControllerManager.Options(policy: .pairedOnly)
        options.makesControllerModels = false
        let manager = try DaydreamControllerManager(reactor: reactor, options: options, log: Logger.librarySink)
        manager.announceProblemsWithAdvice()
        return manager
    }

    /// Starts following BlueZ; `found` gets the feed of every controller that connects (again on each reconnection,
    /// also after the bus came back), `problem` every problem the manager reports (nil when it clears
    /// is not reported: the next connection updates the status).
    public func start(found: @escaping @MainActor (ControllerFeed) -> Void, problem: @escaping @MainActor (String) -> Void) {
        self.found = found
        self.problem = problem
        follow(manager)
        reconnector.start(connected: true)
    }

    /// Stops following BlueZ (the controllers stay connected to BlueZ).
    public func stop() {
        reconnector.stop()
        stopPairing()
        manager.stop()
    }

    private func stopPairing() {
        pairingRequest?.cancel()
        pairingRequest = nil
        pairingRetry?.cancel()
        pairingRetry = nil
    }

    private func follow(_ manager: DaydreamControllerManager) {
        manager.feedConnected = { [weak self] in self?.found?($0) }
        manager.problemHandler = { [weak self] problem in self?.handle(problem) }
        manager.start()
        if pairFirst && !paired {
            Logger.notice("looking for an unpaired controller to pair: hold its home button until the light blinks")
            lookForAControllerToPair()
        }
    }

    private func handle(_ reported: DaydreamControllerManager.Problem) {
        guard reported == .busLost else {
            problem?(reported.advice)
            return
        }
        problem?("the D-Bus system bus went away (dbus-daemon stopped): waiting for it to come back")
        // Reported from inside the connection's own dispatch: the connection is closed after it returns.
        let lost = manager
        reactor.callSoon { [weak self] in self?.dropManager(lost) }
    }

    /// Stops the manager on the dead connection (it would go on calling BlueZ through it) and
    /// starts trying the bus again.
    private func dropManager(_ lost: DaydreamControllerManager) {
        guard lost === manager, case .connected(let since) = reconnector.state else { return }
        lost.feedConnected = nil
        lost.problemHandler = nil
        stopPairing()
        lost.stop()
        lost.client.connection.close()
        let lasted = reactor.now - since
        guard let (_, early) = reconnector.lost() else { return }
        if early && !droppedEarly {  // once, not on every try of a bus that keeps refusing
            Logger.warning("the D-Bus system bus dropped the connection \(lasted.nanoseconds / 1_000_000) ms after "
                + "it was made: it may refuse this user (dbus-daemon cannot resolve a DynamicUser= for its "
                + "policy); waiting up to \(Self.maximumRetryDelay.nanoseconds / 1_000_000_000) s between tries")
        }
        droppedEarly = early
        Logger.notice("trying the D-Bus system bus again until it answers")
    }

    /// A new manager on a new connection, followed; false when the bus does not answer yet.
    private func reconnect() -> Bool {
        do {
            let manager = try Self.makeManager(reactor)
            self.manager = manager
            Logger.notice("the D-Bus system bus is back: following BlueZ again")
            follow(manager)
            return true
        } catch {
            Logger.debug("the D-Bus system bus does not answer yet: \(error.message)")
            return false
        }
    }

    private func lookForAControllerToPair() {
        let manager = self.manager
        pairingRequest = manager.pairNextController { [weak self] result in
            guard let self, manager === self.manager else { return }
            pairingRequest = nil
            switch result {
            case .success(let controller):
                Logger.notice("paired and trusted \(controller.address)")
                paired = true
            case .failure(let error) where !error.candidates.isEmpty:
                Logger.error("\(error.candidates.count) unpaired controllers are in range "
                    + "(\(error.candidates.map(\.address).joined(separator: ", "))); pairing none: "
                    + "run 'daydream-bridge pair ADDRESS' with the address of yours")
            case .failure(let error):
                Logger.error("\(error.advice); still looking")
                pairingRetry = manager.reactor.schedule(after: .seconds(2)) { [weak self] in
                    self?.pairingRetry = nil
                    self?.lookForAControllerToPair()
                }
            }
        }
    }
}
