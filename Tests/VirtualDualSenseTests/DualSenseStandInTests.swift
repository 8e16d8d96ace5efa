import Descriptors
import EventVocabulary
import Glibc
import Mapping
import Testing
import Timebase
import VirtualDevice
import VirtualHID

@testable import VirtualDualSense

/// A DualSense the kernel leaves silent: the set notices it through its binding deadline (on a
/// clock the test moves) or a refused write, says why in one line, and the uinput gamepad
/// stands in, here a `VirtualDeviceSet` on a pipe whose frames the test reads back from a pipe.
@MainActor
@Suite struct DualSenseStandInTests {
    static let padOnly = Capabilities([.gamepad: FixedPad.dualsense.capabilities])

    /// The set on a fake kernel, with a clock, the lines it logs, and the stand-in's frames.
    @MainActor
    final class Rig {
        let kernel: FakeUHIDKernel
        let scheduler = ManualScheduler()
        let set: DualSenseDeviceSet
        let standInFrames: FileDescriptor
        private let standInPipe: FileDescriptor
        var problems: [String] = []
        var notices: [String] = []
        var standInsMade: [Capabilities] = []
        var closed = 0

        init(descriptor: consuming FileDescriptor? = nil, standInError: VirtualDeviceError? = nil) throws {
            kernel = try FakeUHIDKernel()
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw SystemCallError("pipe") }
            _ = fcntl(ends[0], F_SETFL, O_NONBLOCK)
            standInFrames = FileDescriptor(owning: ends[0])
            standInPipe = FileDescriptor(owning: ends[1])
            let pipeEnd = ends[1]
            guard let uhid = descriptor.take() ?? kernel.takeDeviceEnd() else { throw SystemCallError("socketpair", code: EBADF) }
            var made: (Capabilities) -> Void = { _ in }
            set = try DualSenseDeviceSet(
                capabilities: DualSenseStandInTests.padOnly, uhid: uhid, scheduler: scheduler
            ) { (capabilities) throws(VirtualDeviceError) in
                made(capabilities)
                if let standInError { throw standInError }
                return try VirtualDeviceSet(capabilities: capabilities, gamepadIdentity: .dualsense, fileDescriptor: pipeEnd)
            }
            // Weak: the set, and its close handler, go as the rig does.
            made = { [weak self] in self?.standInsMade.append($0) }
            set.label = "EC:12:34:56:78:9A"
            set.problemHandler = { [weak self] in self?.problems.append($0) }
            set.noticeHandler = { [weak self] in self?.notices.append($0) }
            set.closeHandler = { [weak self] in self?.closed += 1 }
        }

        func press(_ code: UInt16, _ value: Int32) throws {
            try set.send([OutputEvent(device: .gamepad, type: EventType.key, code: code, value: value),
                          OutputEvent(device: .gamepad, type: EventType.syn, code: EventCode.synReport, value: 0)], at: .zero)
        }

        /// "TYPE CODE VALUE" for each `struct input_event` the stand-in wrote so far.
        func standInEvents() -> [String] {
            var events: [String] = []
            var buffer = [UInt8](repeating: 0, count: 24 * 64)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(standInFrames.rawValue, $0.baseAddress, $0.count) }
                guard count > 0 else { return events }
                for start in stride(from: 0, to: count, by: 24) {
                    let type = UInt16(buffer[start + 16]) | UInt16(buffer[start + 17]) << 8
                    let code = UInt16(buffer[start + 18]) | UInt16(buffer[start + 19]) << 8
                    let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(buffer[start + 20 + $1]) << (8 * UInt32($1)) }
                    events.append("\(type) \(code) \(Int32(bitPattern: value))")
                }
            }
        }
    }

    static let cross1 = "\(EventType.key) \(EventCode.btnSouth) 1"
    static let cross0 = "\(EventType.key) \(EventCode.btnSouth) 0"

    @Test func aDeviceNoDriverTakesGetsTheStandInAtTheDeadlineWithOneLine() throws {
        let rig = try Rig()
        rig.set.controllerInput(ControllerInput(), at: .zero)
        #expect(rig.kernel.messages().map(FakeUHIDKernel.type) == [11, 12], "UHID_CREATE2, then a report")
        rig.scheduler.advance(to: MonotonicTime.zero + DualSenseDeviceSet.bindingDeadline + TimeSpan(nanoseconds: -1))
        #expect(rig.problems.isEmpty && !rig.set.isStandingIn, "not before the deadline")
        rig.scheduler.advance(by: TimeSpan(nanoseconds: 1))
        try #require(rig.problems.count == 1)
        #expect(rig.problems[0].contains("hid-playstation"))
        #expect(rig.problems[0].contains("sudo modprobe hid-playstation"))
        #expect(rig.problems[0].hasSuffix("the bridge's own uinput gamepad stands in until hid-playstation takes it"))
        #expect(rig.standInsMade == [Self.padOnly], "a gamepad with the DualSense's codes, alone")
        #expect(rig.set.isStandingIn)

        // The player's presses reach the stand-in; the silent device gets nothing more.
        try rig.press(EventCode.btnSouth, 1)
        rig.set.controllerInput(ControllerInput(), at: .zero)
        #expect(rig.standInEvents() == [Self.cross1, "0 0 0"])
        #expect(rig.kernel.messages().isEmpty)
        #expect(rig.set.summary.first?.hasPrefix("gamepad: ") == true)
        #expect(rig.set.summary.first?.contains("/dev/uhid") == false)
        rig.scheduler.advance(by: .seconds(60))
        #expect(rig.problems.count == 1, "one line")
    }

    @Test func hidPlayStationTakingTheDeviceLaterReplacesTheStandInWithNothingHeld() throws {
        let rig = try Rig()
        rig.set.controllerInput(ControllerInput(), at: .zero)
        rig.scheduler.advance(by: DualSenseDeviceSet.bindingDeadline)
        try rig.press(EventCode.btnSouth, 1)
        _ = rig.standInEvents()
        _ = rig.kernel.messages()

        rig.kernel.send([2, 0, 0, 0])  // UHID_START: the user loaded hid-playstation
        rig.set.readAvailable()
        #expect(!rig.set.isStandingIn)
        #expect(rig.notices.filter { $0.hasPrefix("hid-playstation took the DualSense") }.count == 1, "\(rig.notices)")
        #expect(rig.standInEvents() == [Self.cross0, "0 0 0"], "the stand-in lets go as it goes")
        let messages = rig.kernel.messages()
        let report = try #require(messages.last.flatMap(FakeUHIDKernel.inputReport))
        #expect(messages.count == 1)
        #expect(report[9] & 0x20 != 0, "the DualSense starts with cross still held")
        try rig.press(EventCode.btnSouth, 0)
        #expect(rig.kernel.messages().count == 1)
        #expect(rig.standInEvents().isEmpty)
        #expect(rig.problems.count == 1)
    }

    @Test func aDriverThatBindsInTimeCancelsTheDeadline() throws {
        let rig = try Rig()
        rig.set.controllerInput(ControllerInput(), at: .zero)
        rig.scheduler.advance(by: .seconds(1))
        rig.kernel.send([2, 0, 0, 0])
        rig.set.readAvailable()
        rig.scheduler.advance(by: .seconds(60))
        #expect(rig.problems.isEmpty && !rig.set.isStandingIn && rig.standInsMade.isEmpty)
    }

    @Test func aProbeTheDriverRefusesGetsTheStandInADeadlineAfterItLetGo() throws {
        let rig = try Rig()
        rig.set.controllerInput(ControllerInput(), at: .zero)
        rig.kernel.send([2, 0, 0, 0])  // UHID_START: hid-playstation probes
        rig.set.readAvailable()
        rig.scheduler.advance(by: .seconds(1))
        rig.kernel.send([3, 0, 0, 0])  // UHID_STOP: and gives up (a duplicate address, a failed request)
        rig.set.readAvailable()
        rig.scheduler.advance(by: TimeSpan(nanoseconds: DualSenseDeviceSet.bindingDeadline.nanoseconds - 1))
        #expect(rig.problems.isEmpty)
        rig.scheduler.advance(by: TimeSpan(nanoseconds: 1))
        #expect(rig.problems.count == 1 && rig.problems.first?.contains("hid-playstation") == true)
        #expect(rig.set.isStandingIn)
    }

    @Test func aWriteTheKernelRefusesGetsTheStandInAtOnceAndClosesTheDevice() throws {
        signal(SIGPIPE, SIG_IGN)
        let rig = try Rig()
        rig.set.controllerInput(ControllerInput(), at: .zero)
        rig.kernel.send([2, 0, 0, 0])
        rig.set.readAvailable()
        _ = rig.kernel.messages()
        shutdown(rig.kernel.kernelEnd.rawValue, Int32(SHUT_RDWR))
        rig.set.controllerInput(ControllerInput(), at: .zero)
        try #require(rig.problems.count == 1)
        #expect(rig.problems[0].hasPrefix("the kernel refused the DualSense (cannot write an input report to /dev/uhid: Broken pipe)"))
        #expect(rig.problems[0].contains("hid-playstation"))
        #expect(rig.problems[0].hasSuffix("stands in until the bridge restarts"))
        #expect(rig.closed == 1, "its watch goes before its descriptor closes")
        #expect(rig.set.fileDescriptor == -1 && rig.set.counters == nil)
        #expect(rig.set.isStandingIn)
        try rig.press(EventCode.btnSouth, 1)
        rig.set.controllerInput(ControllerInput(), at: .zero)
        rig.scheduler.advance(by: .seconds(60))
        #expect(rig.standInEvents() == [Self.cross1, "0 0 0"])
        #expect(rig.problems.count == 1)
    }

    @Test func aDeviceTheKernelRefusesToCreateGetsTheStandIn() throws {
        let rig = try Rig(descriptor: FileDescriptor(owning: open("/dev/null", O_RDONLY | O_CLOEXEC)))
        rig.set.controllerInput(ControllerInput(), at: .zero)
        try rig.press(EventCode.btnSouth, 1)
        #expect(rig.problems.count == 1)
        #expect(rig.problems.first?.hasPrefix("the kernel refused the DualSense (write UHID_CREATE2: ") == true)
        #expect(rig.closed == 1)
        #expect(rig.standInEvents() == [Self.cross1, "0 0 0"])
    }

    @Test func aStandInThatCannotBeMadeIsSaidInTheSameLine() throws {
        let rig = try Rig(standInError: .permissionDenied)
        rig.set.controllerInput(ControllerInput(), at: .zero)
        rig.scheduler.advance(by: .seconds(60))
        #expect(rig.problems.count == 1)
        #expect(rig.problems.first?.contains("hid-playstation") == true)
        #expect(rig.problems.first?.contains("cannot stand in either") == true)
        #expect(!rig.set.isStandingIn)
    }
}
