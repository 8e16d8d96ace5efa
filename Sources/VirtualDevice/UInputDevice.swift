#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import EventVocabulary

/// One virtual input device in the kernel, made through libevdev-uinput from
/// a `DeviceDescription`, destroyed in `deinit`.
///
/// Events go to the uinput fd (`libevdev_uinput_get_fd`) through its
/// `DeviceFrameWriter` (`frames`, which its `VirtualDeviceSet` writes to):
/// one `write(2)` per frame. That keeps a `DeviceState`, so the device
/// refuses undeclared codes and can release everything.
public final class UInputDevice {
    /// What the device was made from.
    public let deviceDescription: DeviceDescription
    private let evdev: EvdevDevice
    private let uinput: OpaquePointer
    /// Where the device's events are checked, framed and written.
    let frames: DeviceFrameWriter

    /// Creates the device (`libevdev_uinput_create_from_device` with
    /// `LIBEVDEV_UINPUT_OPEN_MANAGED`, which opens `/dev/uinput` itself).
    /// Axes start at their resting values.
    public init(_ description: DeviceDescription) throws(VirtualDeviceError) {
        let evdev = try EvdevDevice(description)
        var created: OpaquePointer?
        let result = libevdev_uinput_create_from_device(evdev.handle, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &created)
        guard result == 0, let uinput = created else {
            throw VirtualDeviceError.fromOpen(errno: -result, device: description.identity.name)
        }
        deviceDescription = description
        self.evdev = evdev
        self.uinput = uinput
        frames = DeviceFrameWriter(description, fileDescriptor: libevdev_uinput_get_fd(uinput))
    }

    deinit {
        libevdev_uinput_destroy(uinput)
    }

    /// The device's name.
    public var name: String { deviceDescription.identity.name }

    /// The declared codes and the state as last written.
    public var state: DeviceState { frames.state }

    /// The event node, e.g. `/dev/input/event7`, found through sysfs; nil if
    /// the kernel has not published it yet.
    public var devnode: String? {
        libevdev_uinput_get_devnode(uinput).map { String(cString: $0) }
    }

    /// The sysfs path, e.g. `/sys/devices/virtual/input/input12`.
    public var syspath: String? {
        libevdev_uinput_get_syspath(uinput).map { String(cString: $0) }
    }

    /// The uinput file descriptor (owned by libevdev).
    public var fileDescriptor: Int32 { libevdev_uinput_get_fd(uinput) }

}
