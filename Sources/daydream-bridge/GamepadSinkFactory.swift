import Bridge
import Descriptors
import EventLoop
import Mapping
import VirtualDevice
import VirtualDualSense

/// Makes one controller's uinput devices, or, with `[gamepad] identity = "dualsense"`, a
/// DualSense on `/dev/uhid` beside uinput devices for the rest. Where there can be no DualSense
/// (no `/dev/uhid`, no permission, no hid-playstation) it says so in one line, once, and makes
/// the bridge's own uinput gamepad instead: the bridge keeps running.
@MainActor
enum GamepadSinkFactory {
    private static var reportedFallback = false

    static func makeDevices(
        _ configuration: MappingConfiguration, reactor: Reactor, paths: DualSenseAvailability.Paths = .init()
    ) throws(VirtualDeviceError) -> ControllerDevices {
        let capabilities = configuration.capabilities
        guard configuration.gamepadIdentity == .dualsense, capabilities[.gamepad] != nil else {
            return ControllerDevices(sink: try VirtualDeviceSet(capabilities: capabilities, gamepadIdentity: configuration.gamepadIdentity))
        }
        let uhid: FileDescriptor
        do {
            uhid = try DualSenseAvailability.openUHID(paths)
        } catch {
            if !reportedFallback {
                reportedFallback = true
                Logger.warning("identity \"dualsense\": \(error); using the bridge's own uinput gamepad instead")
            }
            return ControllerDevices(sink: try VirtualDeviceSet(capabilities: capabilities, gamepadIdentity: .dualsense))
        }
        let set = try DualSenseDeviceSet(capabilities: capabilities, uhid: uhid, scheduler: reactor)
        set.problemHandler = { [weak set] message in Logger.warning("\(set?.label ?? "DualSense"): \(message)") }
        set.noticeHandler = { [weak set] message in Logger.notice("\(set?.label ?? "DualSense"): \(message)") }
        do {
            try set.watch(on: reactor)
        } catch {
            Logger.error("identity \"dualsense\": cannot watch /dev/uhid (\(error)); the kernel's requests go unanswered")
        }
        // The DualSense takes the controller's motion, touchpad and battery from its feed.
        return ControllerDevices(sink: set, stateConsumers: [set])
    }
}
