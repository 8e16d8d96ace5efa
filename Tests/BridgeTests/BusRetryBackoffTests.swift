@testable import Bridge
import Testing
import Timebase

/// The waits between tries of the system bus: doubling on failures, starting over only after a
/// connection that lasted.
@Suite("bus retry backoff")
@MainActor
struct BusRetryBackoffTests {
    static func backoff() -> BusRetryBackoff {
        BusRetryBackoff(first: BluetoothControllerSource.firstRetryDelay, maximum: BluetoothControllerSource.maximumRetryDelay,
                        stableAfter: BluetoothControllerSource.stableConnection)
    }

    @Test func failedTriesDoubleTheWaitUpToTheMaximum() {
        var backoff = Self.backoff()
        let waits = (0..<8).map { _ in backoff.afterFailure().nanoseconds / 1_000_000 }
        #expect(waits == [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000, 10_000])
    }

    /// A bus that accepts each connection and drops it at once (dbus-daemon with a DynamicUser=) was
    /// tried again every 250 ms for ever: the waits now grow as for a bus that refuses.
    @Test func aConnectionDroppedAtOnceKeepsBackingOff() {
        var backoff = Self.backoff()
        var waits: [Int64] = []
        for _ in 0..<7 {
            let (wait, early) = backoff.afterLoss(lasted: .milliseconds(15))
            #expect(early)
            waits.append(wait.nanoseconds / 1_000_000)
        }
        #expect(waits == [500, 1_000, 2_000, 4_000, 8_000, 10_000, 10_000])
    }

    @Test func aConnectionThatLastedStartsTheWaitsOver() {
        var backoff = Self.backoff()
        for _ in 0..<5 { _ = backoff.afterFailure() }
        let (wait, early) = backoff.afterLoss(lasted: .seconds(1))
        #expect(!early)
        #expect(wait == .milliseconds(250))
        #expect(backoff.afterFailure() == .milliseconds(500))
    }

    @Test func theWaitJustBeforeStableStillBacksOff() {
        var backoff = Self.backoff()
        let (wait, early) = backoff.afterLoss(lasted: .milliseconds(999))
        #expect(early)
        #expect(wait == .milliseconds(500))
    }
}
