import CEvdev
import EventVocabulary
import Testing

/// The vocabulary's numbers against the kernel's headers (the macros libevdev's headers bring) and
/// libevdev's own name lookups: the devices spell every code, count and property through the
/// vocabulary alone, so a number that drifted from the kernel's would go unnoticed anywhere else.
@Suite("Vocabulary constants agree with the kernel and libevdev")
struct KernelConstantTests {
    @Test("each type's code count is the header's *_CNT, and covers every code libevdev knows")
    func counts() {
        let counts: [(type: UInt16, vocabulary: Int, header: Int32)] = [
            (EventType.key, EventCode.keyCount, KEY_CNT), (EventType.rel, EventCode.relCount, REL_CNT),
            (EventType.abs, EventCode.absCount, ABS_CNT), (EventType.msc, EventCode.mscCount, MSC_CNT),
        ]
        for count in counts {
            #expect(count.vocabulary == Int(count.header), "\(EventCodeNames.name(type: count.type))")
            #expect(count.vocabulary == Int(libevdev_event_type_get_max(UInt32(count.type))) + 1)
        }
    }

    @Test("event types are the header's EV_* values")
    func types() {
        let types: [(UInt16, Int32, String)] = [
            (EventType.syn, EV_SYN, "EV_SYN"), (EventType.key, EV_KEY, "EV_KEY"), (EventType.rel, EV_REL, "EV_REL"),
            (EventType.abs, EV_ABS, "EV_ABS"), (EventType.msc, EV_MSC, "EV_MSC"), (EventType.ff, EV_FF, "EV_FF"),
            (EventType.max, EV_MAX, "EV_MAX"),
        ]
        for (vocabulary, header, name) in types {
            #expect(Int32(vocabulary) == header, "\(name)")
            #expect(Int32(vocabulary) == libevdev_event_type_from_name(name), "\(name)")
        }
    }

    @Test("the codes the devices test by number are the header's and libevdev's")
    func codes() {
        let codes: [(UInt16, UInt16, Int32, String)] = [
            (EventType.syn, EventCode.synReport, SYN_REPORT, "SYN_REPORT"), (EventType.key, EventCode.keyMax, KEY_MAX, "KEY_MAX"),
            (EventType.rel, EventCode.relMax, REL_MAX, "REL_MAX"), (EventType.abs, EventCode.absMax, ABS_MAX, "ABS_MAX"),
            (EventType.msc, EventCode.mscMax, MSC_MAX, "MSC_MAX"), (EventType.abs, EventCode.absMtSlot, ABS_MT_SLOT, "ABS_MT_SLOT"),
            (EventType.abs, EventCode.absHat0x, ABS_HAT0X, "ABS_HAT0X"), (EventType.abs, EventCode.absHat0y, ABS_HAT0Y, "ABS_HAT0Y"),
            (EventType.abs, EventCode.absHat3y, ABS_HAT3Y, "ABS_HAT3Y"),
            (EventType.msc, EventCode.mscTimestamp, MSC_TIMESTAMP, "MSC_TIMESTAMP"),
        ]
        for (type, code, header, name) in codes {
            #expect(Int32(code) == header, "\(name)")
            #expect(Int32(code) == libevdev_event_code_from_name(UInt32(type), name), "\(name)")
        }
        // Range markers: libevdev names the range's first code instead (BTN_TRIGGER, BTN_SOUTH).
        #expect(Int32(EventCode.btnJoystick) == BTN_JOYSTICK)
        #expect(Int32(EventCode.btnGamepad) == BTN_GAMEPAD)
    }

    @Test("input properties are the header's INPUT_PROP_* values and libevdev's")
    func properties() {
        let properties: [(UInt16, Int32, String)] = [
            (InputProperty.pointer, INPUT_PROP_POINTER, "INPUT_PROP_POINTER"),
            (InputProperty.direct, INPUT_PROP_DIRECT, "INPUT_PROP_DIRECT"),
            (InputProperty.buttonpad, INPUT_PROP_BUTTONPAD, "INPUT_PROP_BUTTONPAD"),
            (InputProperty.semiMt, INPUT_PROP_SEMI_MT, "INPUT_PROP_SEMI_MT"),
            (InputProperty.topbuttonpad, INPUT_PROP_TOPBUTTONPAD, "INPUT_PROP_TOPBUTTONPAD"),
            (InputProperty.pointingStick, INPUT_PROP_POINTING_STICK, "INPUT_PROP_POINTING_STICK"),
            (InputProperty.accelerometer, INPUT_PROP_ACCELEROMETER, "INPUT_PROP_ACCELEROMETER"),
        ]
        for (vocabulary, header, name) in properties {
            #expect(Int32(vocabulary) == header, "\(name)")
            #expect(Int32(vocabulary) == libevdev_property_from_name(name), "\(name)")
        }
        #expect(Int32(InputProperty.max) == INPUT_PROP_MAX)
    }

    @Test("bus types are the header's BUS_* values")
    func buses() {
        #expect(Int32(BusType.usb) == BUS_USB)
        #expect(Int32(BusType.bluetooth) == BUS_BLUETOOTH)
        #expect(Int32(BusType.virtual) == BUS_VIRTUAL)
    }
}
