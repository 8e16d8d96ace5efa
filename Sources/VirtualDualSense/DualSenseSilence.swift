import Descriptors
import Timebase

/// Why a virtual DualSense would leave the player without a pad, and the one log line that
/// says so: what happened, that hid-playstation is what makes the pad, and what to do.
enum DualSenseSilence: Error, Equatable {
    /// No driver bound the device (no `UHID_START`) within `deadline` of its creation or of
    /// the driver letting go: hid-playstation is not loaded, or refused the device.
    case noDriver(deadline: TimeSpan)
    /// The kernel refused `UHID_CREATE2`.
    case createFailed(SystemCallError)
    /// The kernel refused a write to the device (it failed to register, or is gone).
    case writeFailed(UHIDDevice.WriteFailure)

    /// The line, ending with what stands in: `standInError` is nil when the uinput gamepad
    /// could be made, else why it could not.
    func message(standInError: (any Error)?) -> String {
        let what: String
        let until: String
        switch self {
        case .noDriver(let deadline):
            what = "no driver took the DualSense within \(Int(deadline.nanoseconds / 1_000_000_000)) s: hid-playstation "
                + "is not loaded (sudo modprobe hid-playstation; it needs Linux 5.12 or later) or refused it (see dmesg)"
            until = "until hid-playstation takes it"
        case .createFailed(let error):
            what = "the kernel refused the DualSense (\(error)): see dmesg; hid-playstation needs Linux 5.12 or later"
            until = "until the bridge restarts"
        case .writeFailed(let failure):
            what = "the kernel refused the DualSense (\(failure)): see dmesg; hid-playstation needs Linux 5.12 or later"
            until = "until the bridge restarts"
        }
        if let standInError {
            return what + "; the bridge's own uinput gamepad cannot stand in either (\(standInError)), so the gamepad is silent"
        }
        return what + "; the bridge's own uinput gamepad stands in " + until
    }
}
