import DaydreamCore
import DaydreamProtocol
import Descriptors
import EventVocabulary
import Glibc
import Mapping
import Testing
import Timebase
import VirtualHID

@testable import VirtualDualSense

@MainActor
@Suite struct DualSenseDeviceSetTests {
    static let padOnly = Capabilities([.gamepad: FixedPad.dualsense.capabilities])

    private func gamepad(_ type: UInt16, _ code: UInt16, _ value: Int32) -> OutputEvent {
        OutputEvent(device: .gamepad, type: type, code: code, value: value)
    }
    private var syn: OutputEvent { gamepad(EventType.syn, EventCode.synReport, 0) }

    private func makeSet(_ kernel: FakeUHIDKernel, label: String = "EC:12:34:56:78:9A") throws -> DualSenseDeviceSet {
        guard let descriptor = kernel.takeDeviceEnd() else { throw SystemCallError("socketpair", code: EBADF) }
        let set = try DualSenseDeviceSet(capabilities: Self.padOnly, uhid: descriptor, scheduler: ManualScheduler())
        set.label = label
        return set
    }

    @Test func theFirstWriteCreatesTheDeviceWithSonysIdsAndTheDerivedUniq() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel)
        #expect(kernel.messages().isEmpty, "nothing before the first write")
        try set.send([gamepad(EventType.key, EventCode.btnSouth, 1), gamepad(EventType.abs, EventCode.absX, 32767), syn],
                     at: .zero)
        let messages = kernel.messages()
        try #require(messages.count == 2)
        let create = messages[0]
        #expect(FakeUHIDKernel.type(create) == 11)
        #expect(String(decoding: create[196..<213], as: UTF8.self) == "ee:12:34:56:78:9a")
        #expect(Array(create[262..<264]) == [0x05, 0], "BUS_BLUETOOTH")
        #expect(Array(create[264..<272]) == [0x4C, 0x05, 0, 0, 0xE6, 0x0C, 0, 0])
        #expect(Array(create[280...]) == DualSenseReportDescriptor.bytes)
        let report = try #require(FakeUHIDKernel.inputReport(messages[1]))
        #expect(report.count == 78)
        #expect(report[2] == 255, "ABS_X 32767 is the stick's right edge")
        #expect(report[3] == 128)
        #expect(report[9] & 0x20 != 0, "BTN_SOUTH is cross")
        #expect(report[9] & 0x0F == 8, "the hat is centred")
        #expect(set.summary.first?.contains("uniq ee:12:34:56:78:9a") == true)
    }

    /// The daemon makes the first set before any controller comes, labelled "controller 1",
    /// and logs its summary: that line named a uniq hashed from the label, which the device
    /// never had (it is made later, from the controller's address). Now the summary names none
    /// until the device exists, and the line said when it is made has the uniq it was made with.
    @Test func theLogNamesOnlyTheUniqTheDeviceWasMadeWith() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel, label: "controller 1")
        var notices: [String] = []
        set.noticeHandler = { notices.append($0) }
        let placeholder = DualSenseAddress(controllerAddress: "controller 1").uniq
        let atStart = try #require(set.summary.first)
        #expect(!atStart.contains("uniq \(placeholder)"), "\(atStart)")
        #expect(!atStart.contains(/uniq [0-9a-f]{2}:/), "no uniq before the device is made: \(atStart)")

        set.label = "EC:12:34:56:78:9A"  // the controller arrives
        try set.send([gamepad(EventType.key, EventCode.btnSouth, 1), syn], at: .zero)
        let create = try #require(kernel.messages().first)
        let made = String(decoding: create[196..<260].prefix { $0 != 0 }, as: UTF8.self)
        #expect(made == "ee:12:34:56:78:9a")
        #expect(notices.contains { $0.contains("on /dev/uhid, uniq \(made)") }, "\(notices)")
        #expect(set.summary.first?.contains("uniq \(made)") == true, "\(set.summary)")
    }

    /// A reload keeps the DualSense while the config still has a DualSense gamepad: the kernel
    /// hears nothing (no destroy, no create), and the button held stays held. A config without a
    /// gamepad, or with another identity, is for new devices.
    @Test func aReloadThatStillHasADualSenseKeepsIt() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel)
        try set.send([gamepad(EventType.key, EventCode.btnSouth, 1), syn], at: .zero)
        _ = kernel.messages()
        let fewerCodes = Capabilities([.gamepad: DeviceCapabilities(keys: [EventCode.btnSouth])])
        let refit = try set.fitted(to: fewerCodes, gamepadIdentity: .dualsense)
        #expect(refit?.fits == [.gamepad: .kept])
        #expect(kernel.messages().isEmpty, "the DualSense stays as it is")
        #expect(try set.fitted(to: Capabilities(), gamepadIdentity: .dualsense) == nil)
        #expect(try set.fitted(to: Self.padOnly, gamepadIdentity: .xbox360) == nil)
        try set.send([gamepad(EventType.key, EventCode.btnEast, 1), syn], at: .zero)
        let report = try #require(kernel.messages().last.flatMap(FakeUHIDKernel.inputReport))
        #expect(report[9] & 0x20 != 0, "cross is still held")
        #expect(report[9] & 0x40 != 0, "circle is pressed")
    }

    @Test func answersTheDriversFeatureRequestsAndIgnoresOutputReports() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel)
        try set.send([gamepad(EventType.key, EventCode.btnEast, 1), syn], at: .zero)
        _ = kernel.messages()
        kernel.send([2, 0, 0, 0])  // UHID_START
        kernel.send([9, 0, 0, 0, 0x11, 0, 0, 0, 0x09, 0])  // GET_REPORT 0x09, feature
        kernel.send([9, 0, 0, 0, 0x12, 0, 0, 0, 0x05, 0])  // GET_REPORT 0x05
        kernel.send([9, 0, 0, 0, 0x13, 0, 0, 0, 0x42, 0])  // GET_REPORT of a report it lacks
        var output = [UInt8](repeating: 0, count: UHIDMessage.eventSize)
        output[0] = 6
        output[4] = 0x02
        output[4 + 4096] = 63
        kernel.send(output)
        kernel.send([13, 0, 0, 0, 0x14, 0, 0, 0, 0x80, 0, 1, 0, 7])  // SET_REPORT
        set.readAvailable()
        let replies = kernel.messages()
        try #require(replies.count == 4)
        let features = DualSenseFeatureReports(address: set.address)
        #expect(replies[0] == UHIDMessage.getReportReply(id: 0x11, report: features.pairingInfo, errno: 0))
        #expect(replies[1] == UHIDMessage.getReportReply(id: 0x12, report: features.calibration, errno: 0))
        #expect(replies[2] == UHIDMessage.getReportReply(id: 0x13, report: nil, errno: UInt16(EIO)))
        #expect(replies[3] == UHIDMessage.setReportReply(id: 0x14, errno: 0))
        let counters = try #require(set.counters)
        #expect(counters.outputReports == 1)
        #expect(counters.setReports == 1)
        #expect(counters.unknownRequests == 1)
        #expect(counters.writeErrors == 0)
    }

    @Test func eachPacketCarriesMotionTouchAndTheBattery() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel)
        set.batteryChanged(percent: 57)
        let input = ControllerInput(
            touch: TouchPoint(x: 1, y: 0.5), rotationRate: Vector3(x: Double.pi, y: 0, z: -Double.pi / 2),
            acceleration: Vector3(x: 0, y: -9.80665, z: 0))
        set.controllerInput(input, at: MonotonicTime(nanoseconds: 2_000_000))
        let messages = kernel.messages()
        let report = try #require(messages.last.flatMap(FakeUHIDKernel.inputReport))
        func int16(_ offset: Int) -> Int16 { Int16(bitPattern: UInt16(report[offset]) | UInt16(report[offset + 1]) << 8) }
        #expect(int16(17) == 180 * 16, "pi rad/s is 180 deg/s at 16 counts each")
        #expect(int16(21) == -90 * 16)
        #expect(int16(25) == -8192, "-1 g")
        #expect(Array(report[29..<33]) == [0x70, 0x17, 0, 0], "2000 us in thirds of a microsecond: 6000")
        #expect(report[34] & 0x80 == 0, "a finger")
        #expect(Int(report[35]) | Int(report[36] & 0x0F) << 8 == 1919)
        #expect(Int(report[37]) << 4 | Int(report[36] >> 4) == 540)
        #expect(report[54] == 5, "57 % is 5 tenths")
    }

    /// The set follows the controller's feed as every other consumer does (a DSU slot, the
    /// session): the packet the feed decoded, and the battery the feed read.
    @Test func theFeedHandsItEachPacketsTouchAndTheBattery() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel)
        let feed = ControllerFeed(address: "EC:12:34:56:78:9A")
        feed.attach(set)
        feed.batteryChanged(percent: 57, at: .zero)
        #expect(kernel.messages().isEmpty, "a battery reading waits for the next report")
        let packet = DaydreamPacket(acceleration: RawVector(0, 512, 0), touchX: 255, touchY: 128)
        packet.bytes.withUnsafeBytes { feed.receive($0, at: MonotonicTime(nanoseconds: 2_000_000)) }
        let report = try #require(kernel.messages().last.flatMap(FakeUHIDKernel.inputReport))
        #expect(report[34] & 0x80 == 0, "a finger")
        #expect(Int(report[35]) | Int(report[36] & 0x0F) << 8 == 1919, "the pad's right edge")
        #expect(Array(report[29..<33]) == [0x70, 0x17, 0, 0], "2000 us in thirds of a microsecond: 6000")
        #expect(report[54] == 5, "57 % is 5 tenths")
    }

    @Test func releaseAllLetsGoOfEverythingInOneReport() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel)
        try set.send([gamepad(EventType.key, EventCode.btnTl2, 1), gamepad(EventType.abs, EventCode.absHat0x, 1),
                      gamepad(EventType.abs, EventCode.absRy, -32768), syn], at: .zero)
        var report = try #require(kernel.messages().last.flatMap(FakeUHIDKernel.inputReport))
        #expect(report[10] & 0x04 != 0 && report[6] == 255, "L2 alone pulls its trigger fully")
        #expect(report[9] & 0x0F == 2 && report[5] == 0)
        try set.releaseAll(at: .zero)
        let messages = kernel.messages()
        #expect(messages.count == 1)
        report = try #require(messages.last.flatMap(FakeUHIDKernel.inputReport))
        #expect(report[9] == 8 && report[10] == 0 && report[11] == 0)
        #expect(Array(report[2...7]) == [128, 128, 128, 128, 0, 0])
    }

    @Test func aFrameWithoutGamepadChangesWritesNoReport() throws {
        let kernel = try FakeUHIDKernel()
        let set = try makeSet(kernel)
        try set.send([gamepad(EventType.key, EventCode.btnSouth, 1), syn], at: .zero)
        #expect(kernel.messages().count == 2)
        try set.send([syn], at: .zero)
        #expect(kernel.messages().isEmpty)
    }

    @Test func everyControllerGetsItsOwnDevice() throws {
        let first = try FakeUHIDKernel()
        let second = try FakeUHIDKernel()
        let one = try makeSet(first, label: "EC:12:34:56:78:9A")
        let two = try makeSet(second, label: "EC:12:34:56:78:9B")
        one.batteryChanged(percent: 10)
        one.controllerInput(ControllerInput(), at: .zero)
        two.controllerInput(ControllerInput(), at: .zero)
        let uniqs = [first, second].map { kernel in
            kernel.messages().first.map { String(decoding: $0[196..<213], as: UTF8.self) }
        }
        #expect(uniqs == ["ee:12:34:56:78:9a", "ee:12:34:56:78:9b"])
    }

    /// A reload that replaces the devices drops the set: whoever watched its descriptor hears it.
    @Test func droppingTheSetCallsItsCloseHandlerOnce() throws {
        let kernel = try FakeUHIDKernel()
        var closed = 0
        do {
            let set = try makeSet(kernel)
            set.closeHandler = { closed += 1 }
            #expect(closed == 0)
        }
        #expect(closed == 1)
    }
}

@Suite struct DualSensePadTranslatorTests {
    @Test func sticksScaleToBytesWithZeroAtTheCentre() {
        #expect(DualSensePadTranslator.stickByte(-32768) == 0)
        #expect(DualSensePadTranslator.stickByte(0) == 128)
        #expect(DualSensePadTranslator.stickByte(32767) == 255)
        #expect(DualSensePadTranslator.stickByte(-99999) == 0)
        #expect(DualSensePadTranslator.triggerByte(300) == 255)
        #expect(DualSensePadTranslator.triggerByte(-1) == 0)
    }

    @Test func everyCodeOfTheFixedPadHasAPlace() {
        var translator = DualSensePadTranslator()
        var state = DualSenseInputState()
        for key in FixedPad.dualsense.capabilities.keys {
            #expect(translator.apply(OutputEvent(device: .gamepad, type: EventType.key, code: key, value: 1), to: &state))
        }
        #expect(state.buttons.rawValue.nonzeroBitCount == FixedPad.dualsense.capabilities.keys.count)
        for axis in FixedPad.dualsense.capabilities.absoluteAxes {
            #expect(translator.apply(OutputEvent(device: .gamepad, type: EventType.abs, code: axis.code, value: 1), to: &state))
        }
        #expect(!translator.apply(OutputEvent(device: .gamepad, type: EventType.key, code: EventCode.btnC, value: 1), to: &state))
    }
}
