import BlueZ
import DaydreamProtocol
import EventLoop
import Timebase

extension DaydreamControllerManager {
    /// BlueZ may export a device's last GATT objects just after `ServicesResolved`.
    static let inputCharacteristicGrace = TimeSpan.seconds(2)

    /// Pairs the device with `address`, on the user's request, looking before
    /// it bonds (`PairingSession`): it connects the device unbonded and
    /// checks its services (`ControllerVerification`); only a device whose
    /// services are the controller's, with the Daydream input characteristic,
    /// is allowed in the agent, paired, set `Trusted` and streams. Any other,
    /// and one showing a HID service at any moment, is blocked and removed from
    /// BlueZ, and refused. An authentication failure ends with `.staleBond`.
    public func pair(address: String, completion: @escaping @MainActor (Result<ControllerFeed, PairingError>) -> Void) {
        guard let device = client.cache.device(address: address) else {
            completion(.failure(PairingError(address: address, cause: .unknownDevice)))
            return
        }
        let upper = device.address.uppercased()
        guard device.isDaydreamController else {
            completion(.failure(PairingError(address: upper, cause: .notADaydreamController(name: device.name))))
            return
        }
        if let refusal = ControllerVerification.refusalBeforePairing(device) {
            refusedAddresses.insert(upper)
            let problem = Problem.pairingFailed(address: upper, reason: "not a Daydream controller: \(refusal)")
            report(problem)
            completion(.failure(PairingError(address: upper, cause: .problem(problem))))
            return
        }
        guard pairingSessions[upper] == nil else {
            completion(.failure(PairingError(address: upper, cause: .alreadyBeingPaired)))
            return
        }
        requestedAddresses.insert(upper)
        let session = PairingSession(device: device, manager: self, completion: completion)
        pairingSessions[upper] = session
        session.start()
    }

    /// The session is over: the address may be connected by its link again. When no other
    /// session is under way the agent is unregistered: it answers for nothing until the next pairing.
    func pairingSessionEnded(_ session: PairingSession) {
        if pairingSessions[session.address] === session { pairingSessions[session.address] = nil }
        if pairingSessions.isEmpty { agent.unregister() }
    }
}
