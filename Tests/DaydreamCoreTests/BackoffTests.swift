@testable import DaydreamCore
import Testing
import Timebase

/// The reconnect delays: doubling, capped, with jitter.
@Suite struct BackoffTests {
    /// A fixed sequence of "random" numbers: the same delays on every run.
    struct Sequence: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
    }

    @Test func delaysDoubleUpToTheMaximumEachBetweenHalfAndAllOfIt() {
        var backoff = Backoff(initial: .milliseconds(500), maximum: .seconds(30))
        var generator = Sequence(state: 7)
        let ceilings: [Int64] = [500, 1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]
        var delays: [TimeSpan] = []
        for ceiling in ceilings {
            let delay = backoff.next(using: &generator)
            delays.append(delay)
            #expect(delay <= .milliseconds(ceiling), "\(delay) over \(ceiling) ms")
            #expect(delay >= .milliseconds(ceiling / 2), "\(delay) under half of \(ceiling) ms")
        }
        // Jittered: not every delay sits at its ceiling.
        #expect(Set(zip(delays, ceilings).map { $0.0 == .milliseconds($0.1) }) != [true])
        backoff.reset()
        #expect(backoff.next(using: &generator) <= .milliseconds(500))
    }

    @Test func aHugeNumberOfFailuresStaysAtTheMaximum() {
        var backoff = Backoff(initial: .seconds(1), maximum: .seconds(30))
        for _ in 0..<100 { _ = backoff.next() }
        let delay = backoff.next()
        #expect(delay >= .seconds(15) && delay <= .seconds(30))
    }
}
