import BlueZ
import DaydreamProtocol
import EventLoop
import Timebase

extension DaydreamControllerManager {
    /// BlueZ may export a device's last GATT objects just after `ServicesResolved`.
    static let inputCharacteristicGrace = TimeSpan.seconds(2)

    /// Pairs the device with `address`, on the user's request: allows it in
    /// the agent, `Pair`, then connects and checks its services
    /// (`ControllerVerification`). A device without the Daydream input
    /// characteristic, or with a HID service, is removed from BlueZ, bond
    /// and all, and refused; only a verified controller is set `Trusted` and
    /// streams. An authentication failure ends with `.staleBond`.
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
        guard !addressesBeingPaired.contains(upper) else {
            completion(.failure(PairingError(address: upper, cause: .alreadyBeingPaired)))
            return
        }
        addressesBeingPaired.insert(upper)
        agent.allow(address: upper)
        let finish: @MainActor (Result<ControllerFeed, PairingError>) -> Void = { [weak self] result in
            self?.agent.disallow(address: upper)
            self?.addressesBeingPaired.remove(upper)
            completion(result)
        }
        let afterRegistration: @MainActor () -> Void = { [weak self] in
            self?.bondAndVerify(device, finish: finish)
        }
        if agent.isRegistered {
            afterRegistration()
        } else {
            agent.register(asDefault: options.requestsDefaultAgent) { [log] result in
                if case .failure(let error) = result {
                    log.error("cannot register the pairing agent: \(error)")
                    finish(.failure(PairingError(address: upper, cause: .agentNotRegistered, error: error)))
                    return
                }
                afterRegistration()
            }
        }
    }

    /// `Pair`, the service check, then `Trusted = true` and the link; or removal.
    private func bondAndVerify(_ device: DeviceInfo, finish: @escaping @MainActor (Result<ControllerFeed, PairingError>) -> Void) {
        let address = device.address.uppercased()
        client.pair(device: device.path) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result, error.shortName != "AlreadyExists" {
                let problem: Problem = error.isAuthenticationFailure
                    ? .staleBond(address: address) : .pairingFailed(address: address, reason: error.description)
                report(problem, error: error)
                finish(.failure(PairingError(address: address, cause: .problem(problem), error: error)))
                return
            }
            verifyServices(of: device.path) { [weak self] refusal in
                guard let self else { return }
                if let refusal {
                    let problem = Problem.pairingFailed(
                        address: address, reason: "not a Daydream controller: \(refusal); removed it from BlueZ")
                    report(problem)
                    remove(device, address: address) {
                        finish(.failure(PairingError(address: address, cause: .problem(problem))))
                    }
                    return
                }
                client.trust(device: device.path) { [weak self] result in
                    guard let self else { return }
                    if case .failure(let error) = result {
                        log.warning("\(address): setting Trusted failed: \(error)")
                    }
                    let fresh = client.cache.device(at: device.path) ?? device
                    let link = link(for: fresh)
                    addressesBeingPaired.remove(address)
                    link.update(fresh)
                    finish(.success(link.feed))
                }
            }
        }
    }

    /// Connects the device if needed and waits for its services; calls
    /// `completion` with why it is refused, or nil once it is verified.
    private func verifyServices(of path: String, completion: @escaping @MainActor (String?) -> Void) {
        var finished = false
        var token: ObserverToken?
        var deadline: ScheduledTimer?
        var inputGrace: ScheduledTimer?
        let end: @MainActor (String?) -> Void = { refusal in
            guard !finished else { return }
            finished = true
            token?.cancel()
            deadline?.cancel()
            inputGrace?.cancel()
            completion(refusal)
        }
        let check: @MainActor () -> Void = { [weak self] in
            guard let self, !finished else { return }
            guard let device = client.cache.device(at: path) else {
                return end("its BlueZ object went away before its services were checked")
            }
            if let refusal = ControllerVerification.hidRefusal(of: device, in: client.cache) { return end(refusal) }
            guard device.isConnected, device.servicesResolved else { return }
            if ControllerVerification.hasInputCharacteristic(device, in: client.cache) { return end(nil) }
            if inputGrace == nil {
                inputGrace = reactor.schedule(after: Self.inputCharacteristicGrace) {
                    end(ControllerVerification.noInputRefusal)
                }
            }
        }
        token = client.observe { _ in check() }
        deadline = reactor.schedule(after: options.verificationTimeout) {
            end("its services could not be read in time (press its home button and pair again)")
        }
        if let device = client.cache.device(at: path), !device.isConnected {
            client.connect(device: path) { result in
                if case .failure(let error) = result { end("cannot connect to check its services: \(error)") }
            }
        }
        check()
    }

    /// Forgets a refused device: no link, no automatic pairing again, `RemoveDevice`.
    private func remove(_ device: DeviceInfo, address: String, completion: @escaping @MainActor () -> Void) {
        refusedAddresses.insert(address)
        links.removeValue(forKey: address)?.shutDown(disconnect: false)
        guard let current = client.cache.device(at: device.path) else { return completion() }
        client.removeDevice(current) { [log] result in
            if case .failure(let error) = result, !error.meansTargetIsGone {
                log.warning("\(address): removing it from BlueZ failed: \(error)")
            }
            completion()
        }
    }
}
