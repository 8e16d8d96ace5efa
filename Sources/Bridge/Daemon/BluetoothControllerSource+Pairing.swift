import BlueZ
import DaydreamCore

extension BluetoothControllerSource: BluetoothPairing {
    /// Pairs through the manager on the current bus, as `daydream-bridge pair` does: the
    /// look-alike check first, then "Just Works" with an agent that accepts only that controller.
    public func pair(address: String?, report: @escaping @MainActor (PairingStep) -> Void) -> @MainActor () -> Void {
        let manager = self.manager
        var request: PairingRequest?
        var token: ObserverToken?
        var told = false
        var ended = false
        report(.looking(address: address))
        request = manager.pairNextController(address: address) { result in
            ended = true
            token?.cancel()
            token = nil
            switch result {
            case .success(let feed):
                report(.paired(address: feed.address.uppercased()))
            case .failure(let error) where !error.candidates.isEmpty:
                report(.several(error.candidates.map { "\($0.address.uppercased()) \($0.name ?? "(no name)")" }))
            case .failure(let error):
                report(.failed(error.advice))
            }
        }
        if !ended {
            // The request says which controller it pairs once found: told on the BlueZ change after.
            token = manager.client.observe { _ in
                guard !told, !ended, let found = request?.pairingAddress else { return }
                told = true
                report(.pairing(address: found.uppercased()))
            }
        }
        return {
            token?.cancel()
            token = nil
            request?.cancel()
        }
    }

    /// BlueZ's `RemoveDevice` for `address`, on the current bus.
    public func forget(address: String, completion: @escaping @MainActor (String?) -> Void) -> Bool {
        let client = manager.client
        guard let device = client.cache.device(address: address) else { return false }
        client.removeDevice(device) { result in
            switch result {
            case .success: completion(nil)
            case .failure(let error): completion("\(error)")
            }
        }
        return true
    }
}
