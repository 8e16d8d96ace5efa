import BlueZ
import DBus
import DaydreamCore
import DaydreamProtocol
import EventLoop
import Timebase
#if canImport(Glibc)
import Glibc
#endif

/// The loop, the bus and the signal handling shared by `scan`, `pair`,
/// `forget` and `list`: SIGINT and SIGTERM end the command cleanly.
@MainActor
final class BlueZCommandContext {
    let reactor: Reactor
    private(set) var interrupted = false

    init() throws {
        reactor = try Reactor()
        for signal in [SIGINT, SIGTERM] {
            try reactor.handleSignal(signal) { [weak self] _ in
                self?.interrupted = true
                self?.reactor.stop()
            }
        }
    }

    /// The system bus (or `$DAYDREAM_DBUS_ADDRESS`), with a message saying what to do when it is missing.
    func connect() throws -> BusConnection {
        do {
            return try BusConnection.system(reactor: reactor)
        } catch {
            throw CommandFailure("cannot reach the D-Bus system bus (\(error.message)); is dbus running?")
        }
    }

    /// Runs the loop until `condition` holds, the timeout passes or a signal arrives.
    @discardableResult
    func run(until condition: () -> Bool, timeout: TimeSpan?) -> Bool {
        let deadline = timeout.map { reactor.now + $0 }
        while !condition() && !interrupted {
            if let deadline {
                let left = deadline - reactor.now
                if left <= .zero { break }
                reactor.runOnce(timeout: left)
            } else {
                reactor.runOnce(timeout: nil)
            }
        }
        return condition()
    }

    /// Waits until the BlueZ cache is loaded. When bluetoothd is missing, says
    /// so and keeps waiting when `waits`, else fails at once.
    func waitForBlueZ(_ client: BlueZClient, timeout: TimeSpan, waits: Bool = true) throws {
        var vanished = false
        let token = client.observe { event in
            if event == .serviceVanished, !vanished {
                vanished = true
                if waits { printError("BlueZ is not running: start it with 'sudo systemctl start bluetooth' (waiting for it)") }
            }
        }
        defer { token.cancel() }
        client.start()
        guard run(until: { client.isReady || (vanished && !waits) }, timeout: timeout), client.isReady else {
            if interrupted { throw CommandFailure("interrupted") }
            throw CommandFailure(vanished
                ? "BlueZ is not running: start it with 'sudo systemctl start bluetooth'"
                : "BlueZ did not answer in time")
        }
    }

    /// A client on the bus with BlueZ's objects loaded, for the commands that only look
    /// (`list`, `forget`): fails at once when bluetoothd is not running.
    func readyClient() throws -> BlueZClient {
        let client = BlueZClient(connection: try connect())
        try waitForBlueZ(client, timeout: .seconds(10), waits: false)
        return client
    }

    /// Seconds from `--timeout`, checked.
    static func timeout(_ text: String?, default defaultValue: Double?) throws -> TimeSpan? {
        guard let text else { return defaultValue.map { .seconds($0) } }
        guard let seconds = Double(text), seconds > 0, seconds.isFinite else {
            throw UsageError("--timeout needs a positive number of seconds, not '\(text)'")
        }
        return .seconds(seconds)
    }

    /// An address in `AA:BB:CC:DD:EE:FF` form, upper case.
    static func address(_ text: String) throws -> String {
        guard Hex.bluetoothAddress(text) != nil else {
            throw UsageError("'\(text)' is not a Bluetooth address (AA:BB:CC:DD:EE:FF)")
        }
        return text.uppercased()
    }
}

/// A command that could not do its job: `CommandLineTool` prints it as `Error: message`, exit 1.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One controller as `scan` and `list` print it.
func describe(_ device: DeviceInfo) -> String {
    let rssi = device.rssi.map { "\($0) dBm" } ?? "-"
    let name = device.name ?? "(no name)"
    return "\(device.address)  \(name.paddedOrCut(to: 20))  "
        + "\(rssi.paddedOrCut(to: 8))  \(device.isPaired ? "paired" : "not paired")"
}
