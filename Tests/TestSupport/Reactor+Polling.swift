import EventLoop
import Timebase

extension Reactor {
    /// Runs the loop until `condition` holds or `timeout` passes, checking it after every turn and
    /// at least every `interval`: for what no descriptor announces (a child's exit, what a tool
    /// wrote to its output file), which `run(until:timeout:)` would only see at the next event.
    public func run(until condition: () -> Bool, timeout: TimeSpan, checkingEvery interval: TimeSpan) -> Bool {
        let deadline = now + timeout
        while !condition() {
            let left = deadline - now
            guard left > .zero else { return condition() }
            runOnce(timeout: left < interval ? left : interval)
        }
        return true
    }
}
