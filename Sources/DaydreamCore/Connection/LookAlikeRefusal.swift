import BlueZ

extension DaydreamControllerManager {
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
