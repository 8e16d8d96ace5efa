import Foundation
import LocalHTTP
import TestSupport
import Testing

/// The QR code `ui` prints for a phone: libqrencode's matrix, drawn in half blocks, read back
/// by an independent decoder (zbar's `zbarimg`) from a picture of the terminal's text.
@Suite("terminal QR code")
struct TerminalQRCodeTests {
    static let url = "http://192.168.1.20:7355/?token=0123456789abcdef0123456789abcdef"
    static let zbarimg = "/usr/bin/zbarimg"

    /// The light modules of the printed lines (quiet zone included), row by row.
    static func lightModules(_ lines: [String]) -> [[Bool]] {
        lines.flatMap { line -> [[Bool]] in
            let cells = Array(line)
            return [cells.map { $0 == "█" || $0 == "▀" }, cells.map { $0 == "█" || $0 == "▄" }]
        }
    }

    @Test func theLinesDrawExactlyTheMatrixInsideALightQuietZone() throws {
        let code = try TerminalQRCode.encode(Self.url).get()
        let width = code.modules.count
        #expect(width >= 21 && (width - 17) % 4 == 0, "a QR code's width: \(width)")
        let light = Self.lightModules(code.lines)
        let zone = TerminalQRCode.quietZone
        #expect(code.lines.allSatisfy { $0.count == width + 2 * zone })
        for row in 0..<(width + 2 * zone) {
            for column in 0..<(width + 2 * zone) {
                let inside = (zone..<(zone + width)).contains(row) && (zone..<(zone + width)).contains(column)
                let expected = inside ? !code.modules[row - zone][column - zone] : true
                #expect(light[row][column] == expected, "module \(row), \(column)")
            }
        }
    }

    @Test(.requires(FileManager.default.isExecutableFile(atPath: zbarimg), "needs zbarimg (zbar-tools)"))
    func zbarReadsThePrintedCodeBackAsTheAddress() throws {
        let code = try TerminalQRCode.encode(Self.url).get()
        // The terminal's picture: a light module white, the rest black, 6 pixels a module.
        let light = Self.lightModules(code.lines)
        let scale = 6, size = light[0].count * scale
        var pixels = Array("P5\n\(size) \(size)\n255\n".utf8)
        for row in 0..<size {
            for column in 0..<size { pixels.append(light[row / scale][column / scale] ? 255 : 0) }
        }
        let scratch = try TemporaryDirectory(prefix: "daydream-qr")
        try Data(pixels).write(to: URL(fileURLWithPath: scratch.path("code.pgm")))
        let reader = try RunningBinary(program: Self.zbarimg, ["--raw", "-q", scratch.path("code.pgm")], directory: scratch.path, name: "zbarimg")
        #expect(reader.waitForExit() == 0, "\(reader.stderr)")
        #expect(reader.stdout == Self.url + "\n")
    }
}
