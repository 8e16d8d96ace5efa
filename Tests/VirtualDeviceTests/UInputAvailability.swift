#if canImport(Glibc)
import Glibc
#endif
import Descriptors

/// Whether real uinput devices can be made here; the reason printed once when not.
enum UInputAvailability {
    /// Nil when `/dev/uinput` opens for writing, else why not.
    static let unavailableReason: String? = {
        let fd = open("/dev/uinput", O_WRONLY | O_CLOEXEC)
        if fd >= 0 {
            try? FileDescriptor(owning: fd).close()  // opening it is the whole check
            return nil
        }
        let code = errno
        let reason = code == ENOENT
            ? "no /dev/uinput on this kernel (the end-to-end VM runs these tests)"
            : "cannot open /dev/uinput: \(String(cString: strerror(code)))"
        print("VirtualDeviceTests: skipping the real uinput tests: \(reason)")
        return reason
    }()

    /// True when the tests that create real devices can run.
    static var isAvailable: Bool { unavailableReason == nil }
}
