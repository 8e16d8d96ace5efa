@testable import Bridge
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Recording
import Testing
import Timebase

/// A recording played on the daemon's loop: once, or round and round for `ui --replay`.
@Suite("recording source")
@MainActor
struct RecordingControllerSourceTests {
    /// Keeps each packet's sequence number, the link's changes and when each came.
    final class Heard: ControllerConsumer {
        var sequences: [UInt8] = []
        var times: [MonotonicTime] = []
        var links: [Bool] = []
        func receive(_ packet: DaydreamPacket, at time: MonotonicTime) {
            sequences.append(packet.sequence)
            times.append(time)
        }
        func linkChanged(connected: Bool, at time: MonotonicTime) { links.append(connected) }
    }

    /// Three packets 10 ms apart, numbered 1, 2, 3, then the disconnect a recorder writes last.
    static func recording() -> Recording {
        var entries = (1...3).map { number in
            let packet = DaydreamPacket(
                time: 0, sequence: UInt8(number), orientation: .zero, acceleration: .zero, gyro: .zero,
                touchX: 0, touchY: 0, buttons: [], status: 0)
            return RecordingEntry(time: .milliseconds(Int64(number) * 10), event: .packet(packet))
        }
        entries.append(RecordingEntry(time: .milliseconds(35), event: .disconnected))
        return Recording(entries: entries)
    }

    @Test func repeatingStartsOverConnectedAPacketPeriodAfterTheEnd() throws {
        let reactor = try Reactor()
        var rounds = 0
        let source = RecordingControllerSource(
            entries: RecordingEntryList(Self.recording()), reactor: reactor,
            repeating: {
                rounds += 1
                return RecordingEntryList(Self.recording())
            },
            failed: { Issue.record("failed: \($0)") })
        let heard = Heard()
        let start = reactor.now
        source.start { $0.attach(heard) }
        defer { source.stop() }
        #expect(reactor.run(until: { heard.sequences.count >= 7 }, timeout: .seconds(5), checkingEvery: .milliseconds(5)))
        #expect(heard.sequences.prefix(7) == [1, 2, 3, 1, 2, 3, 1])
        #expect(rounds == 2)
        // Connected, the recording's own disconnect, connected again at each start.
        #expect(heard.links == [true, false, true, false, true])
        // The second round starts a packet period (20 ms) after the disconnect at 35 ms, so its
        // first packet, 10 ms into it, plays 55 ms after the start at the earliest (timers are
        // never early; without the gap it would be 35 ms).
        #expect(heard.times[3] - start >= .milliseconds(55))
    }

    @Test func withoutRepeatingTheControllerStaysSilentAtTheEnd() throws {
        let reactor = try Reactor()
        let source = RecordingControllerSource(
            entries: RecordingEntryList(Self.recording()), reactor: reactor, failed: { Issue.record("failed: \($0)") })
        let heard = Heard()
        source.start { $0.attach(heard) }
        defer { source.stop() }
        #expect(reactor.run(until: { heard.links.count >= 2 }, timeout: .seconds(5), checkingEvery: .milliseconds(5)))
        _ = reactor.run(until: { false }, timeout: .milliseconds(100), checkingEvery: .milliseconds(20))
        #expect(heard.sequences == [1, 2, 3])
    }
}
