import Bridge

extension ForgetCommand {
    /// `forget` carried out by the bridge answering on `paths`, its answer printed in this
    /// command's words; nil when no bridge answers there.
    @MainActor
    static func forgetThroughBridge(_ address: String, paths: [String], context: BlueZCommandContext) -> Int32? {
        var lines: [String] = []
        var ended = false
        guard let client = ControlStreamClient(.forget(address: address), paths: paths, reactor: context.reactor, line: {
            lines.append($0)
        }, ended: { _ in ended = true }) else { return nil }
        defer { client.stop() }
        context.run(until: { ended || lines.contains { $0 != "ok" } }, timeout: .seconds(30))
        let answer = lines.first { $0 != "ok" }
        if let answer, answer.hasPrefix("forgot ") {
            printOut("Forgot \(address).")
            return ExitCode.success
        }
        if let answer, answer.hasPrefix("error: ") {
            printError("Error: the running bridge refused: \(answer.dropFirst(7))")
        } else if let answer, answer.hasPrefix("failed: ") {
            printError("Error: \(answer.dropFirst(8))")
        } else if context.interrupted {
            printError("Interrupted.")
        } else {
            printError("Error: the running bridge did not say whether BlueZ removed \(address)")
        }
        return ExitCode.failure
    }
}
