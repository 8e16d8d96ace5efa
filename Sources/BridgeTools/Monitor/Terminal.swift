import Bridge
#if canImport(Glibc)
import Glibc
#endif

/// The terminal the monitor draws on: raw keyboard input, the alternate screen, no cursor;
/// everything put back by `restore()` (also safe to call twice).
public final class Terminal {
    private let input: Int32
    private let output: Int32
    private var saved = termios()
    private var active = false

    /// The terminal on standard input and output.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
    }

    /// True when both ends are terminals.
    public var isTerminal: Bool { isatty(input) == 1 && isatty(output) == 1 }

    /// The size in columns and rows (80x24 when it cannot be read).
    public var size: (columns: Int, rows: Int) {
        var window = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return (80, 24) }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// Keys arrive one at a time without echo; the alternate screen is shown, the cursor hidden.
    public func enter() {
        guard !active else { return }
        active = true
        tcgetattr(input, &saved)
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
            controlCharacters[Int(VMIN)] = 1 // a read returns with one byte
            controlCharacters[Int(VTIME)] = 0 // and no inter-byte timer
        }
        tcsetattr(input, TCSANOW, &raw)
        FileOutput.write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J", to: output)
    }

    /// Draws `lines` from the top-left corner, each clearing the rest of its row, then clears below.
    public func draw(_ lines: [String]) {
        var text = "\u{1B}[H"
        for line in lines { text += line + "\u{1B}[K\r\n" }
        text += "\u{1B}[J"
        FileOutput.write(text, to: output)
    }

    /// Shows the cursor, leaves the alternate screen and restores the input mode.
    public func restore() {
        guard active else { return }
        active = false
        FileOutput.write("\u{1B}[?25h\u{1B}[?1049l", to: output)
        tcsetattr(input, TCSANOW, &saved)
    }

    deinit { restore() }
}
