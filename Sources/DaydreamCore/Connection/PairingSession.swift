import BlueZ
import DaydreamProtocol
import EventLoop
import Timebase

/// Pairs one device the user asked for, looking before it bonds:
///
/// 1. **Inspecting.** Registers the agent, connects the device unbonded and
///    waits for its services. It goes on only when they are the controller's
///    (`ControllerVerification`) and FE55 has the input characteristic. The
///    agent refuses every request for it meanwhile (bluetoothd asks the agent
///    when a profile's demand for encryption makes the kernel pair).
/// 2. **Bonding.** Allows it in the agent and calls `Pair`.
/// 3. **Trusting.** `Trusted = true`, then the manager's link takes over.
///
/// However it ends, the agent is unregistered once no other session is under way.
///
/// A HID service (0x1812) showing at any stage ends it at once: the device is
/// blocked (bluetoothd drops the link and its HID profile there and then) and
/// removed from BlueZ, bond and all, as is a device whose services are not the
/// controller's.
@MainActor
final class PairingSession {
    private enum Stage { case inspecting, bonding, trusting, finished }

    /// The device's address, upper case.
    let address: String
    private let path: String
    private unowned let manager: DaydreamControllerManager
    private let completion: @MainActor (Result<ControllerFeed, PairingError>) -> Void
    private var stage = Stage.inspecting
    private var token: ObserverToken?
    private var deadline: ScheduledTimer?
    private var inputGrace: ScheduledTimer?

    private var client: BlueZClient { manager.client }

    init(device: DeviceInfo, manager: DaydreamControllerManager,
         completion: @escaping @MainActor (Result<ControllerFeed, PairingError>) -> Void) {
        address = device.address.uppercased()
        path = device.path
        self.manager = manager
        self.completion = completion
    }

    /// Registers the agent (when needed), then connects and starts watching the device's services.
    func start() {
        let agent = manager.agent
        guard !agent.isRegistered else { return inspect() }
        agent.register(asDefault: manager.options.requestsDefaultAgent) { [weak self] result in
            guard let self, stage == .inspecting else { return }
            if case .failure(let error) = result {
                manager.log.error("cannot register the pairing agent: \(error)")
                return finish(.failure(PairingError(address: address, cause: .agentNotRegistered, error: error)))
            }
            inspect()
        }
    }

    private func inspect() {
        token = client.observe { [weak self] _ in self?.check() }
        deadline = manager.reactor.schedule(after: manager.options.verificationTimeout) { [weak self] in
            self?.refuse("its services could not be read in time (press its home button and pair again)")
        }
        if let device = client.cache.device(at: path), !device.isConnected {
            client.connect(device: path) { [weak self] result in
                guard let self, stage == .inspecting, case .failure(let error) = result else { return }
                refuse("cannot connect to check its services: \(error)")
            }
        }
        check()
    }

    /// Looks at the device again: every change BlueZ reports comes here.
    private func check() {
        guard stage != .finished else { return }
        guard let device = client.cache.device(at: path) else {
            return refuse("its BlueZ object went away before it was paired")
        }
        if let refusal = ControllerVerification.hidRefusal(of: device, in: client.cache) { return refuse(refusal) }
        guard stage == .inspecting, device.isConnected, device.servicesResolved else { return }
        if let refusal = ControllerVerification.layoutRefusal(of: device, in: client.cache) { return refuse(refusal) }
        if ControllerVerification.hasInputCharacteristic(device, in: client.cache) { return bond() }
        if inputGrace == nil {
            // BlueZ may export a device's last GATT objects just after `ServicesResolved`.
            inputGrace = manager.reactor.schedule(after: DaydreamControllerManager.inputCharacteristicGrace) { [weak self] in
                self?.refuse(ControllerVerification.noInputRefusal)
            }
        }
    }

    private func bond() {
        stage = .bonding
        deadline?.cancel()
        inputGrace?.cancel()
        manager.agent.allow(address: address)
        client.pair(device: path) { [weak self] result in
            guard let self, stage == .bonding else { return }
            if case .failure(let error) = result, error.shortName != "AlreadyExists" {
                let problem: DaydreamControllerManager.Problem = error.isAuthenticationFailure
                    ? .staleBond(address: address) : .pairingFailed(address: address, reason: error.description)
                manager.report(problem, error: error)
                return finish(.failure(PairingError(address: address, cause: .problem(problem), error: error)))
            }
            trust()
        }
    }

    private func trust() {
        stage = .trusting
        client.trust(device: path) { [weak self] result in
            guard let self, stage == .trusting else { return }
            if case .failure(let error) = result {
                manager.log.warning("\(address): setting Trusted failed: \(error)")
            }
            guard let device = client.cache.device(at: path) else {
                return finish(.failure(PairingError(address: address, cause: .wentAway)))
            }
            let link = manager.link(for: device)
            stop()
            manager.pairingSessionEnded(self)
            link.update(device)  // no longer being paired: the link may connect and subscribe
            completion(.success(link.feed))
        }
    }

    /// Ends with the device refused: blocked, removed from BlueZ, not paired again unasked.
    private func refuse(_ refusal: String) {
        guard stage != .finished else { return }
        let problem = DaydreamControllerManager.Problem.pairingFailed(
            address: address, reason: "not a Daydream controller: \(refusal); removed it from BlueZ")
        manager.report(problem)
        let failure = PairingError(address: address, cause: .problem(problem))
        let path = path
        stop()
        manager.refuseDevice(at: path, address: address) { [self] in finish(.failure(failure)) }
    }

    private func stop() {
        stage = .finished
        token?.cancel()
        token = nil
        deadline?.cancel()
        inputGrace?.cancel()
        manager.agent.disallow(address: address)
    }

    private func finish(_ result: Result<ControllerFeed, PairingError>) {
        stop()
        manager.pairingSessionEnded(self)
        completion(result)
    }
}
