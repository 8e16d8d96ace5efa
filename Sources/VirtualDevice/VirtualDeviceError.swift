#if canImport(Glibc)
import Glibc
#endif

/// Why a virtual device could not be created or written. Every message is
/// one line that says what to do.
public enum VirtualDeviceError: Error, Equatable, CustomStringConvertible {
    /// `/dev/uinput` does not exist, or its module is not loaded.
    case uinputMissing
    /// Opening `/dev/uinput` was refused.
    case permissionDenied
    /// The kernel refused to create the device (errno).
    case creationFailed(device: String, errno: Int32)
    /// A description the kernel would refuse: the device's name, the reason.
    case invalidDescription(String, String)
    /// A device kind the profile needs cannot carry some of its codes.
    case unsupportedCodes(device: String, codes: [String], reason: String)
    /// `write(2)` on the uinput fd failed (errno).
    case writeFailed(device: String, errno: Int32)
    /// The device's writes failed for good (errno: it was destroyed under the bridge). It was
    /// made anew at once, at rest (`remade`), or is made again when it can be.
    case deviceLost(device: String, errno: Int32, remade: Bool)
    /// An event whose code the device does not carry (the kernel would drop it).
    case undeclaredCode(device: String, code: String)
    /// An event for a device kind that was not created.
    case noSuchDevice(String)

    /// The udev rule that gives the seat user `/dev/uinput`.
    public static let uinputRuleFile = "60-daydream-bridge-uinput.rules"

    /// The message, one line.
    public var description: String {
        switch self {
        case .uinputMissing:
            "/dev/uinput is missing: load the module with 'sudo modprobe uinput' "
                + "(and install the udev/ and modules-load.d files, see README)"
        case .permissionDenied:
            "no permission to open /dev/uinput: install udev/\(Self.uinputRuleFile) "
                + "into /etc/udev/rules.d (or /usr/lib/udev/rules.d), run "
                + "'sudo udevadm control --reload && sudo udevadm trigger --name-match=uinput'; "
                + "or use the group alternative in that file and add the user to group 'input'"
        case .creationFailed(let device, let code):
            "the kernel refused to create the virtual device \"\(device)\": \(Self.message(code))"
        case .invalidDescription(let device, let reason):
            "cannot describe the virtual device \"\(device)\": \(reason)"
        case .unsupportedCodes(let device, let codes, let reason):
            "the virtual device \"\(device)\" cannot emit \(codes.joined(separator: ", ")): \(reason)"
        case .writeFailed(let device, let code):
            "writing events to the virtual device \"\(device)\" failed: \(Self.message(code))"
        case .deviceLost(let device, let code, let remade):
            "the virtual device \"\(device)\" is gone (\(Self.message(code))): "
                + (remade ? "made anew, at rest" : "it is made again when it can be")
        case .undeclaredCode(let device, let code):
            "the virtual device \"\(device)\" does not carry \(code) (a bug in the bridge: its capabilities missed the code)"
        case .noSuchDevice(let kind):
            "no virtual \(kind) device was created for these events (a bug in the bridge)"
        }
    }

    /// The error for a negative errno from opening `/dev/uinput`, if it is one of ours.
    static func fromOpen(errno code: Int32, device: String) -> VirtualDeviceError {
        switch code {
        case ENOENT, ENODEV, ENXIO: .uinputMissing
        case EACCES, EPERM: .permissionDenied
        default: .creationFailed(device: device, errno: code)
        }
    }

    private static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)) (errno \(code))"
    }
}
