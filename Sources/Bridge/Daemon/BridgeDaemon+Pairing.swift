import DaydreamProtocol
import EventLoop
import Timebase

/// One `pair` under way in the daemon: the search, its deadline, and who hears its steps.
@MainActor
final class PairingRun {
    /// How long the search for a controller lasts before it gives up.
    static let searchTime = TimeSpan.seconds(60)

    let address: String?
    private(set) var found = false
    private(set) var finished = false
    private var stopSearch: (@MainActor () -> Void)?
    private var deadline: ScheduledTimer?
    private var report: (@MainActor (PairingStep) -> Void)?
    /// Runs once when the run ends, whichever way.
    var onFinish: (@MainActor () -> Void)?

    init(address: String?) { self.address = address }

    /// Starts looking through `bluetooth`; each step is logged and goes to `report`.
    func start(with bluetooth: BluetoothPairing, reactor: Reactor, report: @escaping @MainActor (PairingStep) -> Void) {
        self.report = report
        let stop = bluetooth.pair(address: address) { [weak self] step in self?.hear(step) }
        guard !finished else { return }
        stopSearch = stop
        deadline = reactor.schedule(after: Self.searchTime) { [weak self] in
            guard let self, !found else { return }
            stopSearch?()
            hear(.failed((address.map { "\($0) was not found" } ?? "no unpaired Daydream controller found")
                + "; \(PairingStep.holdHome) and try again"))
        }
    }

    /// Stops looking (its client left); a pairing already under way finishes.
    func cancel() {
        guard !finished, !found else { return }
        stopSearch?()
        Logger.info("pairing: stopped looking")
        end()
    }

    private func hear(_ step: PairingStep) {
        guard !finished else { return }
        for line in step.lines { Logger.notice("pairing: \(line)") }
        if case .pairing = step { found = true }
        report?(step)
        if step.ends { end() }
    }

    private func end() {
        finished = true
        deadline?.cancel()
        deadline = nil
        stopSearch = nil
        report = nil
        let action = onFinish
        onFinish = nil
        action?()
    }
}

extension BridgeDaemon {
    /// A pairing of the controller at `address` (none: the one unpaired controller in range),
    /// ready to start; refused without Bluetooth, for a bad address, or while one is under way.
    func preparePairing(address: String?) -> Result<PairingRun, BridgeRefusal> {
        guard bluetooth != nil else { return .failure(.noBluetooth) }
        if let address, Hex.bluetoothAddress(address) == nil { return .failure(.badAddress(address)) }
        guard pairing == nil else { return .failure(.alreadyPairing) }
        return .success(PairingRun(address: address?.uppercased()))
    }

    /// Starts `run` (from `preparePairing`): its steps go to the log and to `report`.
    func start(_ run: PairingRun, report: @escaping @MainActor (PairingStep) -> Void) {
        guard let bluetooth else { return report(.failed(BridgeRefusal.noBluetooth.message)) }
        pairing = run
        run.onFinish = { [weak self, weak run] in
            if let self, self.pairing === run { self.pairing = nil }
        }
        run.start(with: bluetooth, reactor: reactor, report: report)
    }

    /// Removes the controller at `address` from BlueZ; `done` gets the line that says how it went
    /// (`forgot ADDRESS` or `failed: ...`), later, on the loop.
    func forget(address: String, done: @escaping @MainActor (String) -> Void) -> Result<String, BridgeRefusal> {
        guard let bluetooth else { return .failure(.noBluetooth) }
        guard Hex.bluetoothAddress(address) != nil else { return .failure(.badAddress(address)) }
        let upper = address.uppercased()
        let started = bluetooth.forget(address: upper) { problem in
            if let problem {
                Logger.warning("forgetting \(upper) failed: \(problem)")
                done("failed: BlueZ did not remove \(upper): \(problem)")
            } else {
                Logger.notice("\(upper): forgotten (removed from BlueZ with its pairing)")
                done("forgot \(upper)")
            }
        }
        return started ? .success(upper) : .failure(.unknownDevice(upper))
    }
}
