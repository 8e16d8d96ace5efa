#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Timebase

/// The live monitor: draws the model on the terminal, redraws in place when it changes (at most
/// 30 times a second, and twice a second for the packet rate), quits on `q`, SIGINT, SIGTERM or
/// SIGHUP, and always leaves the terminal as it found it.
///
/// Runs on the main queue (`dispatchMain()`); the data source (a replay, or BlueZ through the
/// event loop hooked into the main queue) feeds the model's controller on the same thread.
@MainActor
public final class MonitorApp {
    /// The model drawn.
    public let model: MonitorModel
    private let terminal: Terminal
    private var sources: [any DispatchSourceProtocol] = []
    private var redrawPending = false
    private let frameInterval = DispatchTimeInterval.milliseconds(33)

    /// A monitor of `model` on `terminal`.
    public init(model: MonitorModel, terminal: Terminal = Terminal()) {
        self.model = model
        self.terminal = terminal
    }

    /// Takes over the terminal and starts listening for keys, signals and the refresh timer.
    public func start() {
        terminal.enter()
        let keys = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: .main)
        keys.setEventHandler { MainActor.assumeIsolated { self.readKeys() } }
        keys.resume()
        sources.append(keys)
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { MainActor.assumeIsolated { self.finish() } }
            source.resume()
            sources.append(source)
        }
        signal(SIGWINCH, SIG_IGN)
        let resize = DispatchSource.makeSignalSource(signal: SIGWINCH, queue: .main)
        resize.setEventHandler { MainActor.assumeIsolated { self.redraw() } }
        resize.resume()
        sources.append(resize)
        let refresh = DispatchSource.makeTimerSource(queue: .main)
        refresh.schedule(deadline: .now() + .milliseconds(500), repeating: .milliseconds(500))
        refresh.setEventHandler { MainActor.assumeIsolated { self.redraw() } }
        refresh.resume()
        sources.append(refresh)
        redraw()
    }

    /// Asks for a redraw soon (coalesced to one per frame interval).
    public func setNeedsRedraw() {
        guard !redrawPending else { return }
        redrawPending = true
        DispatchQueue.main.asyncAfter(deadline: .now() + frameInterval) {
            MainActor.assumeIsolated {
                self.redrawPending = false
                if self.model.changed { self.redraw() }
            }
        }
    }

    /// Draws the current state now.
    public func redraw() {
        let size = terminal.size
        let lines = MonitorRenderer.render(model.currentState(), width: size.columns, ansi: true)
        terminal.draw(Array(lines.prefix(size.rows - 1)))
    }

    /// Restores the terminal and exits with status 0.
    public func finish() {
        for source in sources { source.cancel() }
        terminal.restore()
        exit(0)
    }

    private func readKeys() {
        var bytes = [UInt8](repeating: 0, count: 64)
        let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count == 0 { finish() } // standard input closed
        guard count > 0 else { return }
        for byte in bytes[0..<count] where byte == UInt8(ascii: "q") || byte == UInt8(ascii: "Q") || byte == 3 {
            finish()
        }
    }
}
