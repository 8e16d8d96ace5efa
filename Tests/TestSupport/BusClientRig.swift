import EventLoop
import Testing
import Timebase

/// A test's rig whose loop answers on a private bus while `busctl` and `gdbus` (`BusClientTool`)
/// talk to it: the object server's tests, the bridge's D-Bus API tests.
@MainActor
public protocol BusClientRig {
    /// The loop the rig's objects answer on.
    var reactor: Reactor { get }
    /// The private bus.
    var bus: TestBus { get }
    /// The address the clients are given (`bus.address`, or `bus.socketAddress`).
    var busAddress: String { get }
}

extension BusClientRig {
    /// Runs `tool` to its exit while the loop answers, 10 s at the most; its status and output.
    public func run(_ tool: String, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (status: Int32, stdout: String, stderr: String) {
        let addressOption = tool == BusClientTool.busctl ? ["--address=\(busAddress)"] : []
        let client = try BusClientTool(tool, addressOption + arguments, directory: bus.directory.path)
        #expect(reactor.run(until: { !client.isRunning }, timeout: .seconds(10), checkingEvery: .milliseconds(5)), sourceLocation: sourceLocation)
        return (client.status, client.stdout, client.stderr)
    }

    /// `busctl` with `arguments` on the bus.
    public func busctl(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (status: Int32, stdout: String, stderr: String) {
        try run(BusClientTool.busctl, arguments, sourceLocation: sourceLocation)
    }

    /// `gdbus COMMAND --address BUS` and the rest of `arguments`.
    public func gdbus(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) throws
        -> (status: Int32, stdout: String, stderr: String) {
        try run(BusClientTool.gdbus, [arguments[0], "--address", busAddress] + arguments.dropFirst(), sourceLocation: sourceLocation)
    }

    /// `gdbus monitor` on `name`, once it hears `name`'s owner, and how much it had printed by
    /// then. gdbus subscribes with the name as the sender and (GLib's fix for CVE-2024-34397)
    /// drops signals until it has learnt the name's owner, which it may learn after saying who
    /// owns the name: `announce` (given 0, 1, ...) makes the owner send a signal, up to 100
    /// times, 100 ms apart, until the monitor's output `contains` a mark of it.
    public func monitor(_ name: String, announce: (Int) -> Void, until mark: String, owner: String,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> (tool: BusClientTool, baseline: Int) {
        let monitor = try BusClientTool(BusClientTool.gdbus, ["monitor", "--address", busAddress, "--dest", name],
                                        directory: bus.directory.path)
        #expect(reactor.run(until: { monitor.stdout.contains("is owned by") }, timeout: .seconds(10), checkingEvery: .milliseconds(5)),
                sourceLocation: sourceLocation)
        var heard = false
        for attempt in 0..<100 where !heard {
            announce(attempt)
            heard = reactor.run(until: { monitor.stdout.contains(mark) }, timeout: .milliseconds(100), checkingEvery: .milliseconds(5))
        }
        #expect(heard, "gdbus monitor never heard the \(owner)", sourceLocation: sourceLocation)
        return (monitor, monitor.stdout.utf8.count)
    }
}
