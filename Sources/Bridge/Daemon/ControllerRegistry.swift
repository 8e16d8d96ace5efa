import DaydreamCore
import Mapping
import Timebase
import VirtualDevice

/// The daemon's controllers: one slot each (its devices and its session), in the order they were
/// first seen, with the devices made at start waiting in a slot of their own until the first
/// controller takes them. Finds the sessions a command names, and puts the `watch` taps on.
@MainActor
final class ControllerRegistry {
    /// Every slot, the first one made at start.
    private(set) var slots: [ControllerSlot]
    /// The `watch` streams and their taps on the controllers.
    let watch: ControllerWatch

    /// A registry whose first slot holds `first`, the devices made at start.
    init(first: ControllerDevices, watch: ControllerWatch) {
        slots = [ControllerSlot(address: nil, devices: first)]
        self.watch = watch
    }

    /// The addresses of every controller seen, in that order.
    var addresses: [String] { slots.compactMap(\.address) }

    /// The slot of the controller at `address` (upper-case); else the spare slot from start, now
    /// the controller's; nil when a new one is needed.
    func slot(taking address: String) -> ControllerSlot? {
        if let known = slots.first(where: { $0.address == address }) { return known }
        guard let spare = slots.first(where: { $0.address == nil }) else { return nil }
        spare.address = address
        spare.devices.sink.label = address
        return spare
    }

    /// Keeps a new controller's slot.
    func append(_ slot: ControllerSlot) {
        slots.append(slot)
    }

    /// The sessions of every controller (or the one at `address`, in any case), with their
    /// addresses; a refusal naming the known ones when no controller has that address.
    func sessions(for address: String?) -> Result<[(address: String, session: ControllerSession)], BridgeRefusal> {
        let all = slots.compactMap { slot in slot.session.map { (address: slot.address ?? "controller", session: $0) } }
        guard let address else { return .success(all) }
        let matching = all.filter { $0.address == address.uppercased() }
        return matching.isEmpty ? .failure(.noController(address, controllers: addresses)) : .success(matching)
    }

    /// Whether the controller at `address` is connected now.
    func isConnected(_ address: String) -> Bool {
        slots.contains { $0.address == address && $0.feed?.isConnected == true }
    }

    /// Releases whatever `slot`'s devices still hold down by their own record: the safety net
    /// after the engine's release on exit and before devices are replaced.
    func releaseHeld(_ slot: ControllerSlot, at time: MonotonicTime) {
        do {
            try slot.devices.sink.releaseAll(at: time)
        } catch {
            Logger.error("\(slot.devices.sink.label): \(error)")
        }
    }

    /// Stops every session and releases everything, then lets go of the devices (destroyed when
    /// the last reference goes).
    func stopAll(at time: MonotonicTime) {
        setTapping(false)
        for slot in slots {
            slot.detachFromFeed()
            slot.session?.stop(at: time)
            releaseHeld(slot, at: time)
        }
        slots.removeAll()
    }

    // MARK: Watch

    /// Adds a `watch` stream, which first hears each controller's link, battery and profile.
    func startWatching(_ stream: ControlStream) {
        let first = !watch.isWatching
        watch.add(stream)
        if first { setTapping(true) }
    }

    /// Puts the watch's taps on every controller, or takes them off.
    func setTapping(_ on: Bool) {
        for slot in slots { tap(slot, on) }
    }

    /// Puts the watch's tap on one controller (after its session changed, or it arrived), or takes it off.
    func tap(_ slot: ControllerSlot, _ on: Bool) {
        guard let address = slot.address, let session = slot.session else { return }
        let packets = watch.tap(for: address)
        if on {
            // Before the session, so a packet's line comes before the events it causes.
            slot.detachFromFeed()
            slot.feed?.attach(packets)
            slot.attachToFeed()
            session.eventTap = { [weak watch] events, time in watch?.send(events, of: address, at: time) }
        } else {
            slot.feed?.detach(packets)
            session.eventTap = nil
        }
    }

    /// The feed of the controller at `address`, once one was seen.
    func feed(of address: String) -> ControllerFeed? {
        slots.first { $0.address == address }?.feed
    }
}

extension ControllerRegistry {
    /// Makes one controller's devices for a configuration, labelled.
    typealias DeviceMaker = @MainActor (_ configuration: MappingConfiguration, _ label: String) throws(VirtualDeviceError) -> ControllerDevices

    /// Takes `new` into every slot (`old` is what the devices waiting for a first controller were
    /// made for): a session whose devices still fit reloads in place; one whose
    /// devices change has them fitted in place (`ControllerSlot.refitDevices`), or, when they
    /// cannot be, everything released on the old devices, then new devices and a new session
    /// (`makeSession`) in the profile it had, when the new configuration has it.
    func adapt(
        to new: MappingConfiguration, from old: MappingConfiguration, at now: MonotonicTime, makeDevices: DeviceMaker,
        makeSession: (_ address: String, _ output: any OutputSink) -> ControllerSession
    ) {
        for slot in slots {
            let old = slot.session?.configuration ?? old
            let sameDevices = old.capabilities == new.capabilities && old.gamepadIdentity == new.gamepadIdentity
            guard !sameDevices else {
                slot.session?.reload(new, at: now)
                continue
            }
            // Devices the new config still describes the same way stay; the others change in place.
            if slot.refitDevices(to: new, from: old, at: now) { continue }
            // They cannot change in place: release on the old ones, then replace them all.
            slot.session?.releaseAll(at: now)
            releaseHeld(slot, at: now)
            let label = slot.address ?? "controller 1"
            do {
                let devices = try makeDevices(new, label)
                devices.sink.label = label
                slot.replaceDevices(with: devices)
                for line in devices.sink.summary { Logger.notice("\(label): devices replaced for the new config: \(line)") }
            } catch {
                Logger.error("\(label): cannot make the devices the new config needs, keeping the old ones: \(error)")
            }
            guard let address = slot.address, slot.session != nil else { continue }
            let previousProfile = slot.session?.profileName
            let session = makeSession(address, slot.devices.sink)
            if let previousProfile, new.profile(named: previousProfile) != nil { session.switchProfile(to: previousProfile, at: now) }
            slot.replaceSession(with: session)
            if watch.isWatching { tap(slot, true) }
        }
    }
}
