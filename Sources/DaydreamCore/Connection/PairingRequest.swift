import BlueZ
import EventLoop

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
    /// the controller with `address`, or else the first unpaired Daydream controller
    /// seen advertising. Discovery returns to what it was when pairing starts.
    @discardableResult
    public func pairNextController(
        address: String? = nil, completion: @escaping @MainActor (Result<DDController, PairingError>) -> Void
    ) -> PairingRequest {
        let hadDiscovery = wantsDiscovery
        var token: ObserverToken?
        var started = false
        var request: PairingRequest?
        let finish: @MainActor () -> Void = { [weak self] in
            token?.cancel()
            token = nil
            if !hadDiscovery { self?.stopDiscovery() }
        }
        let candidate: @MainActor () -> DeviceInfo? = { [weak self] in
            guard let self else { return nil }
            if let address { return client.cache.device(address: address) }
            return client.cache.devices.first { $0.isDaydreamController && !$0.isPaired && $0.rssi != nil }
        }
        let attempt: @MainActor () -> Void = { [weak self] in
            guard let self, !started, client.isReady, let device = candidate() else { return }
            started = true
            request?.pairingAddress = device.address
            finish()
            Log.info("pairing \(device.address) (\(device.name ?? "no name"))")
            pair(address: device.address, completion: completion)
        }
        let handle = PairingRequest { if !started { finish() } }
        request = handle
        startDiscovery()
        token = client.observe { _ in attempt() }
        attempt()
        return handle
    }
}
