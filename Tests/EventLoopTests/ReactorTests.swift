import EventLoop
import Foundation
import TestSupport
import Testing
import Timebase

@MainActor
@Suite struct ReactorTests {
    /// The descriptors this process has open now.
    static func openDescriptorCount() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }

    /// A loop that goes away closes its epoll, timerfd, eventfd and signalfd: a hundred made and
    /// dropped would leave 400 open if it did not. Other tests running meanwhile open and close
    /// descriptors of their own, so the count may move a little, never by hundreds.
    @Test func droppedLoopsCloseTheirDescriptors() throws {
        let before = try Self.openDescriptorCount()
        for _ in 0..<100 {
            let reactor = try Reactor()
            try reactor.handleSignal(SIGUSR2) { _ in }
            reactor.callSoon {}
            reactor.runOnce(timeout: .zero)
        }
        let after = try Self.openDescriptorCount()
        #expect(after - before < 100, "\(after - before) more descriptors open")
    }

    @Test func timersRunInDeadlineOrderAndCancelledOnesDoNot() throws {
        let reactor = try Reactor()
        var fired: [String] = []
        let start = reactor.now
        _ = reactor.schedule(at: start + .milliseconds(30)) { fired.append("c") }
        _ = reactor.schedule(at: start + .milliseconds(10)) { fired.append("a") }
        let cancelled = reactor.schedule(at: start + .milliseconds(20)) { fired.append("never") }
        _ = reactor.schedule(at: start + .milliseconds(20)) { fired.append("b") }
        cancelled.cancel()
        #expect(reactor.run(until: { fired.count == 3 }, timeout: .seconds(2)))
        #expect(fired == ["a", "b", "c"])
        #expect(reactor.now - start >= .milliseconds(30))
        #expect(reactor.pendingTimerCount == 0)
    }

    @Test func aDeadlineInThePastRunsOnTheNextTurn() throws {
        let reactor = try Reactor()
        var fired = false
        _ = reactor.schedule(at: .zero) { fired = true }
        reactor.runOnce(timeout: .seconds(1))
        #expect(fired)
    }

    @Test func anIdleLoopSleepsUntilItsTimeout() throws {
        let reactor = try Reactor()
        let start = reactor.now
        let events = reactor.runOnce(timeout: .milliseconds(50))
        #expect(events == 0)
        #expect(reactor.now - start >= .milliseconds(45))
    }

    @Test func aReadableDescriptorCallsItsHandlerWithTheData() throws {
        let reactor = try Reactor()
        // Close-on-exec: a child process another test starts meanwhile would otherwise keep the
        // write end open, and the hang-up this test waits for would not come while it runs.
        let pipe = try TestPipe(nonBlocking: true)
        var received: [UInt8] = []
        var events: IOEvents = []
        let watch = try reactor.watch(pipe.readEnd, interest: .readable) { happened in
            events.formUnion(happened)
            var buffer = [UInt8](repeating: 0, count: 16)
            let count = read(pipe.readEnd, &buffer, 16)
            if count > 0 { received += buffer[0..<count] }
        }
        let bytes: [UInt8] = [1, 2, 3]
        #expect(write(pipe.writeEnd, bytes, 3) == 3)
        #expect(reactor.run(until: { received.count == 3 }, timeout: .seconds(2)))
        #expect(received == bytes)
        #expect(events.contains(.readable))
        pipe.closeWriteEnd()
        #expect(reactor.run(until: { events.contains(.hangup) }, timeout: .seconds(2)))
        watch.cancel()
        #expect(watch.isCancelled)
    }

    /// Two descriptors ready in one turn: the first handler cancels the other watch and makes a
    /// new one, which takes the freed slot. The cancelled watch's event, still in this turn's
    /// list, must reach neither the cancelled handler nor the new one.
    @Test func aWatchCancelledDuringATurnGetsNoEventEvenWhenItsSlotIsReused() throws {
        let reactor = try Reactor()
        let pipes = try (0..<3).map { _ in try TestPipe(nonBlocking: true) }
        var calls: [String] = []
        var watches: [IOWatch?] = [nil, nil]
        var replacement: IOWatch?
        for index in 0..<2 {
            watches[index] = try reactor.watch(pipes[index].readEnd, interest: .readable) { _ in
                calls.append("watch \(index)")
                var byte: UInt8 = 0
                _ = read(pipes[index].readEnd, &byte, 1)
                guard replacement == nil, let other = watches[1 - index] else { return }
                other.cancel()
                // The third pipe stays empty: any call to this handler is the stale event.
                replacement = try? reactor.watch(pipes[2].readEnd, interest: .readable) { _ in calls.append("replacement") }
            }
        }
        var byte: UInt8 = 1
        #expect(write(pipes[0].writeEnd, &byte, 1) == 1)
        #expect(write(pipes[1].writeEnd, &byte, 1) == 1)
        #expect(reactor.runOnce(timeout: .seconds(2)) == 2)
        #expect(calls.count == 1, "calls: \(calls)")
        #expect(replacement != nil)
        // The replacement still works: it gets its own descriptor's events.
        #expect(write(pipes[2].writeEnd, &byte, 1) == 1)
        #expect(reactor.run(until: { calls.contains("replacement") }, timeout: .seconds(2)))
        replacement?.cancel()
        for watch in watches { watch?.cancel() }
        // The handlers capture these variables, which hold the watches: break the cycles.
        replacement = nil
        watches = [nil, nil]
    }

    @Test func writableInterestCanBeTurnedOnAndOff() throws {
        let reactor = try Reactor()
        let pipe = try TestPipe(nonBlocking: true)
        defer { withExtendedLifetime(pipe) {} }
        var writableCount = 0
        let watch = try reactor.watch(pipe.writeEnd, interest: []) { events in
            if events.contains(.writable) { writableCount += 1 }
        }
        reactor.runOnce(timeout: .milliseconds(10))
        #expect(writableCount == 0)
        watch.interest = .writable
        reactor.runOnce(timeout: .milliseconds(100))
        #expect(writableCount == 1)
        watch.interest = []
        reactor.runOnce(timeout: .milliseconds(10))
        #expect(writableCount == 1)
        watch.cancel()
    }

    @Test func callSoonRunsAfterTheTurnAndWakesASleepingLoop() throws {
        let reactor = try Reactor()
        var order: [Int] = []
        reactor.callSoon { order.append(1); reactor.callSoon { order.append(3) } }
        reactor.callSoon { order.append(2) }
        let start = reactor.now
        reactor.runOnce(timeout: .seconds(5))
        #expect(order == [1, 2])
        reactor.runOnce(timeout: .seconds(5))
        #expect(order == [1, 2, 3])
        #expect(reactor.now - start < .seconds(1))
    }

    @Test func signalsArriveThroughTheLoop() throws {
        let reactor = try Reactor()
        var received: [Int32] = []
        try reactor.handleSignal(SIGUSR2) { received.append($0) }
        #expect(pthread_kill(pthread_self(), SIGUSR2) == 0)
        #expect(reactor.run(until: { !received.isEmpty }, timeout: .seconds(2)))
        #expect(received == [SIGUSR2])
    }

    @Test func runReturnsAfterStop() throws {
        let reactor = try Reactor()
        var ticks = 0
        _ = reactor.schedule(after: .milliseconds(5)) { ticks += 1 }
        _ = reactor.schedule(after: .milliseconds(10)) { ticks += 1; reactor.stop() }
        reactor.run()
        #expect(ticks == 2)
    }

    /// What `MainQueueDriver` relies on: the epoll descriptor turns readable
    /// when a timer is due or work is queued, and a zero-timeout turn runs it.
    @Test func theEpollDescriptorIsReadableWhenTheLoopHasWork() throws {
        let reactor = try Reactor()
        func readable(within milliseconds: Int32) -> Bool {
            var entry = pollfd(fd: reactor.fileDescriptor, events: Int16(POLLIN), revents: 0)
            return poll(&entry, 1, milliseconds) == 1
        }
        #expect(!readable(within: 20))
        // A deadline an hour away leaves it unreadable: no machine is slow enough to reach it.
        var lateFired = false
        _ = reactor.schedule(at: reactor.now + .seconds(3600)) { lateFired = true }
        #expect(!readable(within: 20))
        // An earlier deadline re-arms the timer, and the descriptor turns readable when it is due.
        var fired = false
        _ = reactor.schedule(at: reactor.now + .milliseconds(1)) { fired = true }
        #expect(readable(within: 2000))
        reactor.runOnce(timeout: .zero)
        #expect(fired)
        #expect(!lateFired)
        #expect(!readable(within: 0))
        var ran = false
        reactor.callSoon { ran = true }
        #expect(readable(within: 0))
        reactor.runOnce(timeout: .zero)
        #expect(ran)
        #expect(!readable(within: 0))
    }
}
