import DaydreamCore

/// The library's discovery API, as in the iOS library. It runs a
/// `DaydreamControllerManager` on the system bus, driven from the main
/// dispatch queue: the program must run it (`dispatchMain()`,
/// `RunLoop.main.run()`, or an app's main loop).
extension DDController {
    /// Starts looking for Daydream controllers and connecting to the paired ones
    /// (`daydream-bridge pair`, or `pairDaydreamController(address:)`).
    /// `.DDControllerDidConnect` is posted for each controller that connects.
    /// Problems (no bluetoothd, no adapter) are logged; the search goes on
    /// and resumes when they are fixed.
    ///
    /// With `pairingNewControllers`, every unpaired device seen until
    /// `stopDaydreamControllerDiscovery()` that calls itself a Daydream controller
    /// is looked at unbonded and paired (Just Works) only if its services check
    /// out (the controller's own, with the input characteristic: no keyboard or
    /// mouse service). Its name and service can
    /// be faked by anything in radio range: pass `true` only while the user has
    /// asked to pair a controller now (see doc/library.md).
    public static func startDaydreamControllerDiscovery(pairingNewControllers: Bool = false) {
        ControllerNotificationPoster.start()
        guard let manager = LibraryRuntime.shared.manager else { return }
        manager.start()
        manager.startDiscovery(pairingNewControllers: pairingNewControllers)
    }

    /// Looks for the controller with `address` (hold its home button), checks
    /// its services over an unbonded link, then pairs, trusts and connects it; a
    /// device that is not a Daydream controller is never bonded: it is blocked,
    /// removed from BlueZ and refused. `cancel()` on the
    /// request stops the search. Nil when BlueZ cannot be reached (logged).
    @discardableResult
    public static func pairDaydreamController(
        address: String, completion: @escaping @MainActor (Result<DDController, PairingError>) -> Void
    ) -> PairingRequest? {
        ControllerNotificationPoster.start()
        guard let manager = LibraryRuntime.shared.manager else { return nil }
        manager.start()
        return manager.pairNextController(address: address) { [weak manager] result in
            // The library's manager makes a model for every controller: hand that, not the feed.
            completion(result.flatMap { feed in
                guard let model = manager?.controller(address: feed.address) else {
                    return .failure(PairingError(address: feed.address, cause: .wentAway))
                }
                return .success(model)
            })
        }
    }

    /// Stops looking for new controllers, and pairing them. Connected controllers stay connected.
    public static func stopDaydreamControllerDiscovery() {
        LibraryRuntime.shared.existingManager?.stopDiscovery()
    }

    /// The controllers connected now.
    public static var controllers: [DDController] {
        LibraryRuntime.shared.existingManager?.connectedControllers ?? []
    }
}
