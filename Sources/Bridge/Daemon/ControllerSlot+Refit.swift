import Mapping
import Timebase
import VirtualDevice

extension ControllerSlot {
    /// A reload whose devices change: fits the slot's devices to `new` in place, so that each
    /// device the new config describes as before stays (a game keeps its pad when a keyboard
    /// binding changes), then the session takes `new`. The mapping lets go of everything
    /// first; a device that changes or goes is released, then replaced or dropped.
    ///
    /// False when the devices cannot be fitted in place: the gamepad's identity changes (which
    /// decides between a DualSense and a uinput pad where the devices are made; nothing done
    /// then), or the sink cannot fit its devices (the mapping has let go already). The caller
    /// then makes new ones.
    func refitDevices(to new: MappingConfiguration, from old: MappingConfiguration, at time: MonotonicTime) -> Bool {
        guard old.gamepadIdentity == new.gamepadIdentity else { return false }
        let sink = devices.sink
        session?.releaseAll(at: time)
        let refit: DeviceRefit?
        do {
            refit = try sink.fitted(to: new.capabilities, gamepadIdentity: new.gamepadIdentity)
        } catch {
            Logger.error("\(sink.label): cannot make the devices the new config needs, keeping the old ones: \(error)")
            session?.reload(new, at: time)
            return true
        }
        guard let refit else { return false }
        for line in refit.lines { Logger.notice("\(sink.label): \(line)") }
        session?.reload(new, at: time)
        return true
    }
}
