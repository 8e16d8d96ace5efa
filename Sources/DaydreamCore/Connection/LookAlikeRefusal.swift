import BlueZ

extension DaydreamControllerManager {
    /// Refuses a paired device the manager has taken on (or would connect) the moment it shows
    /// a HID service: on a reconnection, or added later by a Service Changed. bluetoothd's input
    /// plugin connects its HID profile before BlueZ reports the service, so the device is blocked
    /// at once (`refuseDevice`) and removed. Returns whether the device is refused (now or before).
    func refuseIfLookAlike(_ device: DeviceInfo) -> Bool {
        let address = device.address.uppercased()
        if addressesBeingRefused.contains(address) { return true }
        // A pairing under way watches its device itself (`PairingSession`).
        guard pairingSessions[address] == nil, links[address] != nil || mayConnect(device),
              let refusal = ControllerVerification.hidRefusal(of: device, in: client.cache) else { return false }
        report(.lookAlikeRemoved(address: address, reason: refusal))
        refuseDevice(at: device.path, address: address) {}
        return true
    }

    /// Forgets a refused device: no link, no automatic pairing again. `Blocked = true` drops the
    /// link and bluetoothd's profiles for it at once; `Disconnect` then takes it off the kernel's
    /// auto-connect list, where bluetoothd's HID profile put it (BlueZ 5.66's `RemoveDevice` leaves
    /// it there for a device without a bond, and the kernel connects the device again as soon as
    /// `RemoveDevice` unblocks it); `RemoveDevice` last, which removes it, its bond if any, and
    /// the block.
    func refuseDevice(at path: String, address: String, completion: @escaping @MainActor () -> Void) {
        refusedAddresses.insert(address)
        addressesBeingRefused.insert(address)
        links.removeValue(forKey: address)?.shutDown(disconnect: false)
        let done: @MainActor () -> Void = { [weak self] in
            self?.addressesBeingRefused.remove(address)
            completion()
        }
        guard client.cache.device(at: path) != nil else { return done() }
        client.block(device: path) { [weak self] result in
            guard let self else { return done() }
            if case .failure(let error) = result, !error.meansTargetIsGone {
                log.warning("\(address): blocking it failed (\(error)); removing it")
            }
            client.disconnect(device: path) { [weak self] result in
                guard let self else { return done() }
                if case .failure(let error) = result, !error.meansTargetIsGone {
                    log.debug("\(address): Disconnect: \(error)")
                }
                guard let current = client.cache.device(at: path) else { return done() }
                client.removeDevice(current) { [log] result in
                    if case .failure(let error) = result, !error.meansTargetIsGone {
                        log.warning("\(address): removing it from BlueZ failed: \(error)")
                    }
                    done()
                }
            }
        }
    }
}
