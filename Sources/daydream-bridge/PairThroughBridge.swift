import Bridge
import EventLoop
import Timebase

/// What the running bridge said so far to a `pair` request on its control socket.
struct BridgePairingProgress {
    /// The bridge's `error: ...`: it refused to pair.
    var refusal: String?
    /// Whether it looks for the controller (`looking for ...`).
    var looking = false
    /// The controller found and being paired (`pairing ADDRESS`).
    var pairing: String?
    /// The controller paired and trusted (`paired and trusted ADDRESS`).
    var paired: String?
    /// The unpaired controllers in range when there were several (`candidate ADDRESS NAME`).
    var candidates: [String] = []
    /// Why nothing was paired (`failed: WHY`).
    var failure: String?

    /// Whether the bridge gave its last word.
    var isFinished: Bool { refusal != nil || paired != nil || failure != nil }

    /// Takes in one line of the reply.
    mutating func hear(_ line: String) {
        if line.hasPrefix("error: ") {
            refusal = String(line.dropFirst(7))
        } else if line.hasPrefix("looking for ") {
            looking = true
        } else if line.hasPrefix("pairing ") {
            pairing = String(line.dropFirst(8))
        } else if line.hasPrefix("paired and trusted ") {
            paired = String(line.dropFirst(19))
        } else if line.hasPrefix("candidate ") {
            candidates.append(String(line.dropFirst(10)))
        } else if line.hasPrefix("failed: ") {
            failure = String(line.dropFirst(8))
        }
    }
}

extension PairCommand {
    /// `pair` carried out by the bridge answering on `paths` (its own BlueZ agent and look-alike
    /// check), its steps printed in the same words as the direct path's; nil when no bridge answers there.
    @MainActor
    static func pairThroughBridge(_ wanted: String?, timeout: TimeSpan, paths: [String], context: BlueZCommandContext) -> Int32? {
        var progress = BridgePairingProgress()
        var ended = false
        var broken: String?
        guard let client = ControlStreamClient(.pair(address: wanted), paths: paths, reactor: context.reactor, line: {
            progress.hear($0)
        }, ended: {
            ended = true
            broken = $0
        }) else { return nil }
        defer { client.stop() }
        context.run(until: { progress.looking || progress.isFinished || ended }, timeout: .seconds(10))
        if let refusal = progress.refusal {
            printError("Error: the running bridge refused: \(refusal)")
            return ExitCode.failure
        }
        printOut(lookingLine(wanted))
        context.run(until: { progress.pairing != nil || progress.isFinished || ended }, timeout: timeout)
        if let address = progress.pairing {
            printOut("Pairing \(address)...")
            context.run(until: { progress.isFinished || ended }, timeout: .seconds(90))
        }
        if let address = progress.paired {
            printOut("Paired and trusted \(address).")
            printConnection(of: address, paths: paths, context: context)
            return ExitCode.success
        }
        if !progress.candidates.isEmpty {
            printOut("Several unpaired Daydream controllers are in range:")
            for candidate in progress.candidates {
                let words = candidate.split(separator: " ", maxSplits: 1)
                printOut("  " + words.joined(separator: "  "))
            }
            printError(severalError)
        } else if let failure = progress.failure {
            printError("Error: \(failure)")
        } else if context.interrupted {
            printError("Interrupted.")
        } else if ended {
            printError("Error: the running bridge ended the pairing without an outcome" + (broken.map { " (\($0))" } ?? ""))
        } else {
            printError(timeoutError(wanted, pairing: progress.pairing != nil))
        }
        return ExitCode.failure
    }

    /// How the search starts, in this command's words.
    static func lookingLine(_ wanted: String?) -> String {
        wanted.map { "Looking for \($0) (hold its home button)..." }
            ?? "Looking for an unpaired Daydream controller (hold its home button until the light blinks)..."
    }

    /// The error when several unpaired controllers are in range.
    static let severalError = "Error: pairing none; run 'daydream-bridge pair ADDRESS' with the address of yours "
        + "(only it awake, home button held, also tells them apart)"

    /// The error when the search or the pairing took too long.
    static func timeoutError(_ wanted: String?, pairing: Bool) -> String {
        pairing ? "Error: BlueZ did not finish pairing in time; press the home button and try again"
            : "Error: " + (wanted.map { "\($0) was not found" } ?? "no unpaired Daydream controller found")
                + "; hold the home button until the light blinks and try again"
    }

    /// Waits (at most 30 s) for the running bridge to connect the controller just paired and says how it is.
    @MainActor
    private static func printConnection(of address: String, paths: [String], context: BlueZCommandContext) {
        func ask() -> ControllerLine? {
            let reply = try? ControlClient.send(.controllers, paths: paths)
            return reply?.details.compactMap(ControllerLine.init(text:)).first { $0.address.uppercased() == address }
        }
        let deadline = context.reactor.now + .seconds(30)
        var seen = ask()
        while !isComplete(seen), !context.interrupted, context.reactor.now < deadline {
            context.run(until: { false }, timeout: .milliseconds(200))  // the bridge connects on its own loop
            seen = ask()
        }
        if let seen, seen.isConnected {
            let battery = seen.batteryPercent.map { "\($0)%" } ?? "unknown"
            printOut("Connected: firmware \(seen.firmware ?? "unknown"), battery \(battery).")
        } else {
            printOut("Not connected yet; the running bridge connects it when the controller wakes.")
        }
    }

    private static func isComplete(_ line: ControllerLine?) -> Bool {
        guard let line else { return false }
        return line.isConnected && line.firmware != nil && line.batteryPercent != nil
    }
}
