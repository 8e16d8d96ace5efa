#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import EventLoop
import Timebase

/// The live monitor: draws the model on the terminal, redraws in place when it changes (at most
/// 30 times a second, and twice a second for the packet rate), quits on `q`, SIGINT, SIGTERM or
/// SIGHUP, and always leaves the terminal as it found it.
///
/// Runs on the event loop (the main thread); the data source (a replay, or BlueZ on the same loop)
/// feeds the model's controller there too. Signals arrive through the loop's signalfd, so one that
/// comes before the loop runs waits for it instead of being lost.
@MainActor
public final class MonitorApp {
    /// The model drawn.
    public let model: MonitorModel
    private let terminal: Terminal
    private let reactor: Reactor
    private var keys: IOWatch?
    private var redrawTimer: ScheduledTimer?
    private var refreshTimer: ScheduledTimer?
    private static let frameInterval = TimeSpan.milliseconds(33)
    private static let refreshInterval = TimeSpan.milliseconds(500)

    /// A monitor of `model` on `terminal`, run by `reactor`. Blocks SIGINT, SIGTERM, SIGHUP and
    /// SIGWINCH for the loop's signalfd: create it before any other thread starts.
    public init(model: MonitorModel, terminal: Terminal = Terminal(), reactor: Reactor) throws(SystemCallError) {
        self.model = model
        self.terminal = terminal
        self.reactor = reactor
        model.changeHandler = { [weak self] in self?.setNeedsRedraw() }
        for number in [SIGINT, SIGTERM, SIGHUP] {
            try reactor.handleSignal(number) { [weak self] _ in self?.quit() }
        }
        try reactor.handleSignal(SIGWINCH) { [weak self] _ in self?.redraw() }
    }

    /// Takes over the terminal and starts listening for keys and the refresh timer.
    public func start() throws(SystemCallError) {
        terminal.enter()
        keys = try reactor.watch(STDIN_FILENO, interest: .readable) { [weak self] _ in self?.readKeys() }
        scheduleRefresh()
        redraw()
    }

    /// Asks for a redraw soon (coalesced to one per frame interval).
    public func setNeedsRedraw() {
        guard redrawTimer == nil else { return }
        redrawTimer = reactor.schedule(after: Self.frameInterval) { [weak self] in
            guard let self else { return }
            self.redrawTimer = nil
            if self.model.changed { self.redraw() }
        }
    }

    /// Draws the current state now.
    public func redraw() {
        let size = terminal.size
        let lines = MonitorRenderer.render(model.currentState(), width: size.columns, ansi: true)
        terminal.draw(Array(lines.prefix(max(size.rows - 1, 1))))
    }

    /// Restores the terminal and stops the loop.
    public func quit() {
        keys?.cancel()
        keys = nil
        redrawTimer?.cancel()
        refreshTimer?.cancel()
        terminal.restore()
        reactor.stop()
    }

    private func scheduleRefresh() {
        refreshTimer = reactor.schedule(after: Self.refreshInterval) { [weak self] in
            self?.redraw()
            self?.scheduleRefresh()
        }
    }

    private func readKeys() {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count == 0 { return quit() } // standard input closed
        guard count > 0 else { return }
        if bytes[0..<count].contains(where: { $0 == UInt8(ascii: "q") || $0 == UInt8(ascii: "Q") }) { quit() }
    }
}
