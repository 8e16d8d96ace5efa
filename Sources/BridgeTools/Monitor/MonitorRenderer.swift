#if canImport(Glibc)
import Glibc
#endif
import DaydreamProtocol

/// Draws the monitor: the touchpad as a circle with the finger's dot, the buttons (lit when down),
/// orientation, rotation rate, acceleration, battery, packet rate and losses.
///
/// A pure function of `MonitorState`: lines of text, each at most `width` columns. With `ansi`,
/// pressed buttons are shown in reverse video and the title in bold; the text is the same either way
/// (pressed buttons are also upper case in brackets), so a screen capture reads the same.
public enum MonitorRenderer {
    /// Columns of the touchpad drawing.
    static let padWidth = 23
    /// Rows of the touchpad drawing (terminal cells are about twice as tall as wide).
    static let padHeight = 11

    /// The screen's lines.
    public static func render(_ state: MonitorState, width: Int = 80, ansi: Bool = false) -> [String] {
        let packet = state.packet
        var lines: [String] = []
        let link = state.connected ? "connected" : "disconnected"
        let title = "daydream-bridge monitor  \(state.address ?? "no controller")  \(link)  (\(state.source))"
        lines.append(ansi ? "\u{1B}[1m\(title)\u{1B}[0m" : title)
        lines.append(state.message ?? "")
        let pad = touchpad(packet)
        let panel = infoPanel(state, ansi: ansi)
        for row in 0..<max(pad.count, panel.count) {
            let left = row < pad.count ? pad[row] : String(repeating: " ", count: padWidth)
            let right = row < panel.count ? panel[row] : ""
            lines.append("  \(left)    \(right)")
        }
        lines += daemonDSU(state.dsu)
        lines.append("")
        lines.append("q quits")
        return lines.map { clip($0, to: width) }
    }

    // MARK: Touchpad

    /// The circle, with `●` where the finger is and `+` at the centre; the rim turns to `*` while clicked.
    static func touchpad(_ packet: DaydreamPacket?) -> [String] {
        var grid = [[Character]](repeating: [Character](repeating: " ", count: padWidth), count: padHeight)
        let centreX = Double(padWidth - 1) / 2
        let centreY = Double(padHeight - 1) / 2
        let rim: Character = packet?.buttons.contains(.click) == true ? "*" : "·"
        // Half-width of the ellipse on each row, measured from the centre column; rows are
        // sampled half a cell inside the rim so the top and bottom rows are short arcs, not dots.
        let halfWidths = (0..<padHeight).map { row -> Int in
            let dy = (Double(row) - centreY) / (centreY + 0.5)
            return Int((centreX * (1 - dy * dy).squareRoot()).rounded())
        }
        let middle = Int(centreX)
        for row in 0..<padHeight {
            // The rim covers from just past the neighbouring row nearer the edge out to this row's width.
            let outer = row < padHeight / 2 ? row - 1 : row + 1
            let inner = (0..<padHeight).contains(outer) ? min(halfWidths[outer] + 1, halfWidths[row]) : 0
            for offset in inner...halfWidths[row] {
                grid[row][middle - offset] = rim
                grid[row][middle + offset] = rim
            }
        }
        grid[Int(centreY)][Int(centreX)] = "+"
        if let touch = packet?.touchPoint {
            let column = Int((min(max(touch.x, 0), 1) * Double(padWidth - 1)).rounded())
            let row = Int((min(max(touch.y, 0), 1) * Double(padHeight - 1)).rounded())
            grid[row][column] = "●"
        }
        return grid.map { String($0) }
    }

    // MARK: Values

    static func infoPanel(_ state: MonitorState, ansi: Bool) -> [String] {
        let packet = state.packet
        var lines: [String] = []
        lines.append("buttons      " + buttons(packet?.buttons ?? [], of: packet?.family.family ?? .daydream, ansi: ansi))
        lines.append("")
        if let packet {
            let angles = packet.quaternion.eulerAngles
            func degrees(_ radians: Double) -> Double { UnitConversion.degrees(radians: radians) }
            lines.append("orientation  yaw \(fixed(degrees(angles.yaw), 1, 7))°  pitch \(fixed(degrees(angles.pitch), 1, 7))°"
                + "  roll \(fixed(degrees(angles.roll), 1, 7))°")
            let rate = packet.rotationRate
            lines.append("rotation     x \(fixed(rate.x, 2, 7))  y \(fixed(rate.y, 2, 7))  z \(fixed(rate.z, 2, 7))  rad/s")
            let acceleration = packet.accelerationSI
            lines.append("acceleration x \(fixed(acceleration.x, 2, 7))  y \(fixed(acceleration.y, 2, 7))"
                + "  z \(fixed(acceleration.z, 2, 7))  m/s²")
            if let touch = packet.touchPoint {
                lines.append("touch        x \(fixed(touch.x, 2, 4))  y \(fixed(touch.y, 2, 4))")
            } else {
                lines.append("touch        none")
            }
        } else {
            lines.append("orientation  -")
            lines.append("rotation     -")
            lines.append("acceleration -")
            lines.append("touch        -")
        }
        lines.append("")
        lines.append("battery      " + (state.battery.map { "\($0)%" } ?? "-")
            + (state.firmware.map { "   firmware \($0)" } ?? ""))
        lines.append("packets      \(fixed(state.packetRate, 1, 5))/s  \(state.received) received  "
            + "\(state.lost) lost  \(state.malformed) malformed")
        return lines
    }

    /// How many DSU clients are listed; the rest are counted.
    static let dsuClientsShown = 3

    /// The running daemon's DSU line and its first clients, after a blank line; nothing without a daemon.
    static func daemonDSU(_ dsu: [String]?) -> [String] {
        guard let dsu, let server = dsu.first else { return [] }
        let clients = dsu.dropFirst()
        var lines = ["", "  daemon dsu   \(server)"]
        lines += clients.prefix(dsuClientsShown).map { "               \($0)" }
        if clients.count > dsuClientsShown {
            lines.append("               and \(clients.count - dsuClientsShown) more")
        }
        return lines
    }

    /// The buttons `family`'s controller has, in the Daydream's order then the trigger and back;
    /// a pressed one is `[NAME]` (reverse video with `ansi`).
    static func buttons(_ pressed: DaydreamButtons, of family: ControllerFamily = .daydream, ansi: Bool) -> String {
        let order: [(String, DaydreamButtons)] = [
            ("click", .click), ("app", .app), ("home", .home), ("vol-", .volumeDown), ("vol+", .volumeUp),
            ("trig", .trigger), ("back", .back),
        ]
        let shown = order.filter { family.buttons.contains($0.1) }
        // Six buttons fit the screen's width only closer together, the volume's names shorter.
        let tight = shown.count > 5
        return shown.map { name, button in
            let name = tight ? name.replacing("vol", with: "v") : name
            guard pressed.contains(button) else { return " \(name) " }
            let lit = "[\(name.uppercased())]"
            return ansi ? "\u{1B}[7m\(lit)\u{1B}[0m" : lit
        }.joined(separator: tight ? "" : " ")
    }

    /// `value` with `decimals` fraction digits, right-aligned in `width` columns; no locale, no Foundation.
    static func fixed(_ value: Double, _ decimals: Int, _ width: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        guard value.isFinite else { return String(repeating: " ", count: max(0, width - 3)) + "nan" }
        let scaled = (abs(value) * scale).rounded()
        let negative = value < 0 && scaled != 0
        let whole = Int(scaled / scale)
        let fraction = Int(scaled - Double(whole) * scale)
        var text = (negative ? "-" : "") + String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }

    /// The line cut to `width` visible columns; ANSI escapes count as nothing.
    static func clip(_ line: String, to width: Int) -> String {
        var result = ""
        var visible = 0
        var inEscape = false
        for character in line {
            if inEscape {
                result.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                result.append(character)
                continue
            }
            guard visible < width else { continue }
            result.append(character)
            visible += 1
        }
        return result
    }
}
