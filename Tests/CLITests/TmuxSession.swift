import Foundation
import TestSupport

/// A detached tmux session on a private server, for testing the full-screen monitor as a person sees it.
struct TmuxSession {
    static var available: Bool { TmuxServer.available }

    let socket = "daydream-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let name = "t"

    /// Starts `command` (a shell command line) in a new session of `columns` x `rows`.
    init(command: String, columns: Int = 100, rows: Int = 30) throws {
        // The server this starts outlives the call: it must not inherit a pipe the test reads to its end.
        try tmux(["new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", command], capture: false)
    }

    /// Runs tmux on this session's server (see `TmuxServer.run`).
    @discardableResult
    func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        try TmuxServer.run(socket: socket, arguments, capture: capture)
    }

    /// The visible text of the pane.
    func capture() throws -> String { try tmux(["capture-pane", "-p", "-t", name]) }

    /// A tmux format variable of the pane, e.g. `alternate_on`.
    func paneVariable(_ variable: String) throws -> String {
        try tmux(["display-message", "-p", "-t", name, "#{\(variable)}"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func sendKeys(_ keys: String...) throws { try tmux(["send-keys", "-t", name] + keys) }

    /// Polls the pane every 20 ms until `condition` holds for its text; the last text, or nil on timeout.
    func waitFor(timeout: TimeInterval = RunningBinary.backstop, _ condition: (String) -> Bool) throws -> String? {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end {
            let text = try capture()
            if condition(text) { return text }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return nil
    }

    func kill() { _ = try? tmux(["kill-server"]) }
}

