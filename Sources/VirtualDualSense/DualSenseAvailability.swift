import Descriptors
import Glibc

/// Whether this system can have a virtual DualSense: `/dev/uhid` opens, and the kernel is not
/// known to lack hid-playstation (loaded, built in, or installed as a module it loads when the
/// device appears). Without either the bridge falls back to its own uinput gamepad.
public enum DualSenseAvailability {
    /// Why not, in one line that says what to do.
    public struct Unavailable: Error, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// Where the checks look; the tests point them at a directory of their own.
    public struct Paths: Sendable {
        public var uhid = "/dev/uhid"
        /// `/sys/module`: hid_playstation there is loaded or built in.
        public var sysModule = "/sys/module"
        /// `/lib/modules/<release>`: modules.dep and modules.builtin name what the kernel can load.
        public var kernelModules: String

        public init(uhid: String = "/dev/uhid", sysModule: String = "/sys/module", kernelModules: String? = nil) {
            self.uhid = uhid
            self.sysModule = sysModule
            self.kernelModules = kernelModules ?? "/lib/modules/\(DualSenseAvailability.kernelRelease)"
        }
    }

    /// What this system says of hid-playstation.
    enum DriverPresence: Equatable {
        /// Loaded, built in, or named by the kernel's module lists.
        case present
        /// The module lists were read and do not name it.
        case absent
        /// The lists cannot be read (a sandbox such as systemd's ProtectKernelModules= hides
        /// them): the kernel may still load it when the device appears.
        case unknown
    }

    /// Opens `/dev/uhid` (read-write, non-blocking) unless the kernel is known to lack
    /// hid-playstation. Where that cannot be told, the device is tried: the DualSense's
    /// binding deadline catches a kernel that has no driver for it.
    public static func openUHID(_ paths: Paths = Paths()) throws(Unavailable) -> FileDescriptor {
        guard playStationDriver(paths) != .absent else {
            throw Unavailable(description: "the kernel has no hid-playstation module (CONFIG_HID_PLAYSTATION, Linux 5.12 "
                + "or later), which makes the DualSense's nodes")
        }
        let raw = open(paths.uhid, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard raw >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENODEV, ENXIO:
                throw Unavailable(description: "no \(paths.uhid): load the uhid module (sudo modprobe uhid)")
            case EACCES, EPERM:
                throw Unavailable(description: "no permission to open \(paths.uhid): install "
                    + "udev/60-daydream-bridge-uinput.rules, which gives it to the seat's user (see the README)")
            default:
                throw Unavailable(description: "cannot open \(paths.uhid): \(String(cString: strerror(code)))")
            }
        }
        return FileDescriptor(owning: raw)
    }

    /// Present when hid-playstation is loaded, built in, or installed as a module; absent only
    /// when modules.dep was read and neither list names it; unknown when modules.dep cannot
    /// be read at all (hidden, or no such directory for this kernel).
    static func playStationDriver(_ paths: Paths) -> DriverPresence {
        if access("\(paths.sysModule)/hid_playstation", F_OK) == 0 { return .present }
        if readText("\(paths.kernelModules)/modules.builtin")?.contains("/hid-playstation.ko") == true { return .present }
        guard let dependencies = readText("\(paths.kernelModules)/modules.dep") else { return .unknown }
        return dependencies.contains("/hid-playstation.ko") ? .present : .absent
    }

    /// `uname -r`.
    static var kernelRelease: String {
        var names = utsname()
        uname(&names)
        return withUnsafeBytes(of: &names.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func readText(_ path: String) -> String? {
        let raw = open(path, O_RDONLY | O_CLOEXEC)
        guard raw >= 0 else { return nil }
        let file = FileDescriptor(owning: raw)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(file.rawValue, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
