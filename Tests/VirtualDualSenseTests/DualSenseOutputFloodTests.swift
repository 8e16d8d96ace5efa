import Descriptors
import EventLoop
import EventVocabulary
import Glibc
import Mapping
import Testing
import Timebase
import VirtualHID

@testable import VirtualDualSense

/// A game's flood of output reports (issue 31: 34 000 in 4 s) costs the bridge a wake-up per
/// batch, not per report. The DualSense is watched by a real event loop (epoll, level-triggered,
/// as in the daemon) whose turns the test runs; its timers run on a clock the test moves, which
/// counts the timers that fire. Each loop turn that found the descriptor ready and each timer
/// fired is one wake-up of the daemon.
@MainActor
@Suite struct DualSenseOutputFloodTests {
    /// A manual clock that counts the actions it runs.
    @MainActor
    final class CountingClock: DeadlineScheduler {
        let clock = ManualScheduler()
        var fired = 0
        var now: MonotonicTime { clock.now }

        func schedule(at deadline: MonotonicTime, _ action: @escaping @MainActor () -> Void) -> ScheduledTimer {
            clock.schedule(at: deadline) { [weak self] in
                self?.fired += 1
                action()
            }
        }
    }

    /// The set on a fake kernel, bound by its driver, watched by `reactor`.
    @MainActor
    final class Rig {
        let kernel: FakeUHIDKernel
        let clock = CountingClock()
        let reactor: Reactor
        let set: DualSenseDeviceSet
        /// Loop turns in which the descriptor was ready.
        var readyTurns = 0
        /// The most reports sent and not yet read at any moment: uhid queues 32.
        var mostQueued = 0
        var sent = 0

        init() throws {
            kernel = try FakeUHIDKernel()
            reactor = try Reactor()
            guard let descriptor = kernel.takeDeviceEnd() else { throw SystemCallError("socketpair", code: EBADF) }
            set = try DualSenseDeviceSet(
                capabilities: Capabilities([.gamepad: FixedPad.dualsense.capabilities]), uhid: descriptor, scheduler: clock)
            set.label = "EC:12:34:56:78:9A"
            try set.watch(on: reactor)
            set.controllerInput(ControllerInput(), at: .zero)
            _ = kernel.messages()
            try #require(kernel.send([2, 0, 0, 0]))  // UHID_START
            turn()
            readyTurns = 0
        }

        var read: Int { self.set.counters?.outputReports ?? 0 }

        /// One loop turn that waits for nothing: the handler runs if the descriptor is ready.
        func turn() {
            readyTurns += reactor.runOnce(timeout: .zero)
        }

        /// A Bluetooth output report (0x31) as uhid queues it: a whole `struct uhid_event`.
        func sendOutputReport() throws {
            var message = [UInt8](repeating: 0, count: UHIDMessage.eventSize)
            message[0] = 6
            message[4] = 0x31
            message[4 + UHIDMessage.maximumDataSize] = 78
            try #require(kernel.send(message), "the fake kernel's socket is full")
            sent += 1
            mostQueued = max(mostQueued, sent - read)
        }

        /// `count` reports spread evenly over `span` from now, the loop turning after each and the
        /// clock moving to each one's time.
        func flood(_ count: Int, over span: TimeSpan) throws {
            let start = clock.now
            for index in 0..<count {
                clock.clock.advance(to: start + TimeSpan(nanoseconds: span.nanoseconds * Int64(index) / Int64(count)))
                turn()
                try sendOutputReport()
                turn()
            }
            clock.clock.advance(to: start + span)
            turn()
        }

        var wakeUps: Int { readyTurns + clock.fired }
    }

    @Test func thirtyFourThousandReportsInFourSecondsWakeTheBridgeOncePerMillisecond() throws {
        let rig = try Rig()
        try rig.flood(34_000, over: .seconds(4))
        // The last batch is read by the next drain, the one after finds none and stops pacing.
        rig.clock.clock.advance(by: .milliseconds(2))
        rig.turn()
        #expect(rig.read == 34_000)
        #expect(rig.wakeUps <= 4_010, "a wake-up per millisecond of flood, not per report: \(rig.wakeUps)")
        #expect(rig.mostQueued <= UHIDDrainPacing.pacedLimit, "well within uhid's queue of 32: \(rig.mostQueued)")
        #expect(rig.kernel.messages().isEmpty, "nothing answers an output report")
    }

    @Test func reportsAFewMillisecondsApartAreReadAsTheyCome() throws {
        let rig = try Rig()
        try rig.flood(100, over: .milliseconds(400))
        #expect(rig.read == 100)
        #expect(rig.readyTurns == 100 && rig.clock.fired == 0)
    }

    @Test func aRequestInAFloodIsAnsweredWithinAMillisecondAndEndsThePacing() throws {
        let rig = try Rig()
        try rig.flood(50, over: .milliseconds(5))
        let before = rig.wakeUps
        try #require(rig.kernel.send([9, 0, 0, 0, 0x21, 0, 0, 0, 0x05, 0]))  // GET_REPORT 0x05, feature
        rig.turn()
        #expect(rig.kernel.messages().isEmpty, "paced: the loop is not woken for it")
        rig.clock.clock.advance(by: UHIDDrainPacing.interval)
        #expect(rig.kernel.messages().map(FakeUHIDKernel.type) == [10], "UHID_GET_REPORT_REPLY within the interval")
        #expect(rig.wakeUps == before + 1)
        // Read at once again: the next request wakes the loop by itself.
        try #require(rig.kernel.send([9, 0, 0, 0, 0x22, 0, 0, 0, 0x09, 0]))
        rig.turn()
        #expect(rig.kernel.messages().map(FakeUHIDKernel.type) == [10])
        #expect(rig.read == 50)
    }

    @Test func aFloodTooFastForPacingIsReadAsItComes() throws {
        let rig = try Rig()
        try rig.flood(20, over: .milliseconds(4))
        // More than half uhid's queue in each of two intervals (one burst is let through).
        for round in 1...2 {
            for _ in 0...UHIDDrainPacing.pacedLimit { try rig.sendOutputReport() }
            rig.turn()
            rig.clock.clock.advance(by: UHIDDrainPacing.interval)
            #expect(rig.read == 20 + round * (UHIDDrainPacing.pacedLimit + 1))
        }
        let before = rig.readyTurns
        try rig.sendOutputReport()
        rig.turn()
        #expect(rig.readyTurns == before + 1 && rig.read == 55, "the watch is back on")
        // And stays on for a while, however close the reports come.
        let fired = rig.clock.fired
        try rig.flood(20, over: .milliseconds(2))
        #expect(rig.read == 75 && rig.clock.fired == fired)
    }

    @Test func aBurstInAFloodKeepsItPaced() throws {
        let rig = try Rig()
        try rig.flood(20, over: .milliseconds(4))
        for _ in 0...UHIDDrainPacing.pacedLimit { try rig.sendOutputReport() }
        rig.turn()
        rig.clock.clock.advance(by: UHIDDrainPacing.interval)
        let turns = rig.readyTurns
        try rig.flood(40, over: .milliseconds(8))
        #expect(rig.read >= 70 && rig.readyTurns == turns, "read by the paced drains alone")
    }
}
