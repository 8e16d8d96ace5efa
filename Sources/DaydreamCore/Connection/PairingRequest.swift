import BlueZ
import EventLoop
import Timebase

/// A search for a controller to pair, started by
/// `DaydreamControllerManager.pairNextController`; `cancel()` ends the search
/// (a pairing already under way finishes).
@MainActor
public final class PairingRequest {
    private var onCancel: (@MainActor () -> Void)?
    /// The address being paired once the controller was found; nil while searching.
    public internal(set) var pairingAddress: String?

    init(onCancel: @escaping @MainActor () -> Void) { self.onCancel = onCancel }

    /// Stops looking. Safe to call twice, and after completion.
    public func cancel() {
        onCancel?()
        onCancel = nil
    }
}

extension DaydreamControllerManager {
    /// Discovers until a controller to pair shows up, then pairs it like `pair(address:)`:
    /// the controller with `address`, or else the one unpaired Daydream controller
    /// seen advertising. Without `address`, it watches `candidateWindow` after the
    /// first one for others; when there are several it pairs none and fails with
    /// them in `PairingError.candidates`, for the user to choose.
    /// Discovery returns to what it was when pairing starts.
    @discardableResult
    public func pairNextController(
        address: String? = nil, completion: @escaping @MainActor (Result<ControllerFeed, PairingError>) -> Void
    ) -> PairingRequest {
        let hadDiscovery = wantsDiscovery
        var token: ObserverToken?
        var windowEnds: MonotonicTime?
        var windowTimer: ScheduledTimer?
        var attemptLater: (@MainActor () -> Void)?
        var started = false
        var request: PairingRequest?
        let finish: @MainActor () -> Void = { [weak self] in
            token?.cancel()
            token = nil
            windowTimer?.cancel()
            windowTimer = nil
            attemptLater = nil
            if !hadDiscovery { self?.stopDiscovery() }
        }
        let candidates: @MainActor () -> [DeviceInfo] = { [weak self] in
            guard let self else { return [] }
            if let address { return client.cache.device(address: address).map { [$0] } ?? [] }
            return client.cache.devices.filter { device in
                device.isDaydreamController && !device.isPaired && device.rssi != nil
                    && !refusedAddresses.contains(device.address.uppercased())
            }
        }
        let attempt: @MainActor () -> Void = { [weak self] in
            guard let self, !started, client.isReady else { return }
            let found = candidates()
            guard let first = found.first else { return }
            if address == nil {
                let ends = windowEnds ?? reactor.now + options.candidateWindow
                windowEnds = ends
                if reactor.now < ends {
                    if windowTimer == nil { windowTimer = reactor.schedule(at: ends) { attemptLater?() } }
                    return
                }
            }
            started = true
            finish()
            guard found.count == 1 else {
                completion(.failure(PairingError(address: "", cause: .severalInRange, candidates: found)))
                return
            }
            request?.pairingAddress = first.address
            log.info("pairing \(first.address) (\(first.name ?? "no name"))")
            pair(address: first.address, completion: completion)
        }
        attemptLater = attempt
        let handle = PairingRequest { if !started { finish() } }
        request = handle
        startDiscovery(pairingNewControllers: pairsNewControllers)
        token = client.observe { _ in attempt() }
        attempt()
        return handle
    }
}
