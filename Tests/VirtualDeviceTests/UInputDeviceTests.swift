#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import Descriptors
import EventVocabulary
import Mapping
import Testing
@testable import VirtualDevice

/// Real uinput devices, read back through their event nodes with libevdev.
/// Skipped (with a printed reason) where `/dev/uinput` is missing; the
/// end-to-end VM runs them: `swift test --filter VirtualDeviceTests`.
@Suite("Real uinput devices", .enabled(if: UInputAvailability.isAvailable, "needs /dev/uinput"))
struct UInputDeviceTests {
    /// A device's event node opened read-only and non-blocking, read through libevdev.
    final class Reader {
        /// The node's descriptor, which libevdev reads but does not close.
        let fd: FileDescriptor
        let evdev: EvdevDevice

        init(_ device: UInputDevice) throws {
            let node = try #require(device.devnode, "the kernel published an event node for \(device.name)")
            var fd: Int32 = -1
            // devtmpfs creates the node at once; udev may still be changing its mode.
            for _ in 0..<200 {
                fd = open(node, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
                if fd >= 0 || (errno != ENOENT && errno != EACCES) { break }
                usleep(10_000)
            }
            try #require(fd >= 0, "open \(node): errno \(errno)")
            let opened = FileDescriptor(owning: fd)
            var handle: OpaquePointer?
            let result = libevdev_new_from_fd(opened.rawValue, &handle)
            guard result == 0, let handle else {
                throw ReadError(message: "libevdev_new_from_fd(\(node)) = \(result)")  // `opened` closes as it goes
            }
            self.fd = opened
            evdev = EvdevDevice(adopting: handle)
        }

        /// Every event readable now, as (type, code, value).
        func events() -> [[Int32]] {
            var result: [[Int32]] = []
            var event = input_event()
            while true {
                let status = libevdev_next_event(evdev.handle, LIBEVDEV_READ_FLAG_NORMAL.rawValue, &event)
                if status == LIBEVDEV_READ_STATUS_SUCCESS.rawValue {
                    result.append([Int32(event.type), Int32(event.code), event.value])
                } else if status == LIBEVDEV_READ_STATUS_SYNC.rawValue {
                    result.append([-1, -1, -1])  // a SYN_DROPPED: the test fails on it
                } else {
                    return result
                }
            }
        }
    }

    struct ReadError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    @Test func devicesReadBackWithTheirNamesIdsAndCodes() throws {
        let set = try VirtualDeviceSet(capabilities: Fixture.all)
        #expect(set.kinds == [.gamepad, .mouse, .keyboard])
        for kind in set.kinds {
            let device = try #require(set[kind])
            let reader = try Reader(device)
            let expected = device.deviceDescription
            #expect(reader.evdev.identity == expected.identity)
            #expect(reader.evdev.codes(type: Code.evKey) == expected.capabilities.keys)
            #expect(reader.evdev.codes(type: Code.evRel) == expected.capabilities.relativeAxes)
            #expect(reader.evdev.codes(type: Code.evAbs) == expected.capabilities.absoluteAxes.map(\.code))
            for axis in expected.capabilities.absoluteAxes {
                let info = try #require(reader.evdev.absInfo(axis.code))
                #expect(info == axis.info, "\(EventCodeNames.name(type: Code.evAbs, code: axis.code)) as created")
            }
            #expect(!reader.evdev.hasForceFeedback)
            #expect(device.syspath?.hasPrefix("/sys/devices/virtual/input/input") == true)
        }
    }

    @Test func onlyNeededDevicesAreCreated() throws {
        let set = try VirtualDeviceSet(capabilities: Capabilities([.keyboard: Fixture.keyboard]))
        #expect(set.kinds == [.keyboard])
        #expect(set[.gamepad] == nil && set[.mouse] == nil)
    }

    @Test func framesArriveWholeAndInOrder() throws {
        let set = try VirtualDeviceSet(capabilities: Fixture.all)
        let pad = try Reader(#require(set[.gamepad]))
        let mouse = try Reader(#require(set[.mouse]))
        try set.send([
            Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 1),
            Fixture.event(.gamepad, Code.evAbs, Code.absX, 12345),
            Fixture.event(.mouse, Code.evRel, Code.relX, -5),
            Fixture.event(.mouse, Code.evRel, Code.relWheelHiRes, 120),
            Fixture.syn(.gamepad),
            Fixture.syn(.mouse),
            Fixture.event(.gamepad, Code.evKey, Code.btnSouth, 0),
            Fixture.syn(.gamepad),
        ])
        let syn = [Int32(EV_SYN), Int32(SYN_REPORT), 0]
        #expect(pad.events() == [
            [Int32(EV_KEY), Int32(BTN_SOUTH), 1], [Int32(EV_ABS), Int32(ABS_X), 12345], syn,
            [Int32(EV_KEY), Int32(BTN_SOUTH), 0], syn,
        ])
        #expect(mouse.events() == [[Int32(EV_REL), Int32(REL_X), -5], [Int32(EV_REL), Int32(REL_WHEEL_HI_RES), 120], syn])
    }

    @Test func releaseAllLeavesNothingDown() throws {
        let set = try VirtualDeviceSet(capabilities: Fixture.all)
        let keyboard = try Reader(#require(set[.keyboard]))
        let pad = try Reader(#require(set[.gamepad]))
        try set.send([
            Fixture.event(.keyboard, Code.evKey, Code.keyLeftCtrl, 1), Fixture.syn(.keyboard),
            Fixture.event(.gamepad, Code.evAbs, Code.absY, -20000), Fixture.syn(.gamepad),
        ])
        _ = keyboard.events()
        _ = pad.events()
        try set.releaseAll()
        let syn = [Int32(EV_SYN), Int32(SYN_REPORT), 0]
        #expect(keyboard.events() == [[Int32(EV_KEY), Int32(KEY_LEFTCTRL), 0], syn])
        #expect(pad.events() == [[Int32(EV_ABS), Int32(ABS_Y), 0], syn])
        #expect(libevdev_get_event_value(keyboard.evdev.handle, UInt32(EV_KEY), UInt32(KEY_LEFTCTRL)) == 0)
    }

    @Test func xbox360PadReadsBackAsXpadWould() throws {
        let set = try VirtualDeviceSet(capabilities: Capabilities([.gamepad: Fixture.gamepad]), gamepadIdentity: .xbox360)
        let reader = try Reader(#require(set[.gamepad]))
        #expect(reader.evdev.name == "Microsoft X-Box 360 pad")
        #expect(reader.evdev.identity.vendor == 0x045E && reader.evdev.identity.product == 0x028E)
        #expect(reader.evdev.codes(type: Code.evKey) == XboxPad.capabilities.keys)
    }
}
