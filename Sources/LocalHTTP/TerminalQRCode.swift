import CQRencode

/// A QR code of a text, from libqrencode (loaded when first needed), and its picture for a
/// terminal in Unicode half blocks.
public struct TerminalQRCode: Equatable, Sendable {
    /// The modules, row by row: true is dark.
    public let modules: [[Bool]]

    /// The code of `text` (byte mode, error correction level L, the smallest version that
    /// holds it); nil with the reason when libqrencode cannot be loaded or the text does not fit.
    public static func encode(_ text: String) -> Result<TerminalQRCode, TerminalQRCodeError> {
        guard cqrencode_load() == 0 else {
            return .failure(TerminalQRCodeError("libqrencode cannot be loaded (on Debian: apt install libqrencode4): "
                + String(cString: cqrencode_load_error())))
        }
        guard let code = cqrencode_encode_string(text, 0, QR_ECLEVEL_L, QR_MODE_8, 1) else {
            return .failure(TerminalQRCodeError("libqrencode cannot encode \(text.utf8.count) bytes"))
        }
        defer { cqrencode_free(code) }
        let width = Int(code.pointee.width)
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        // Bit 0 of each byte is the module's colour (1 dark); the others say what it is part of.
        let modules = (0..<width).map { row in (0..<width).map { column in data[row * width + column] & 1 == 1 } }
        return .success(TerminalQRCode(modules: modules))
    }

    public init(modules: [[Bool]]) {
        self.modules = modules
    }

    /// Light modules around the code, as scanners need (the standard's four would take a
    /// small terminal's width; two read well on a screen).
    public static let quietZone = 2

    /// The code drawn for a terminal that shows light text on a dark background: each line
    /// two rows of modules, a light module drawn (the upper, the lower, both or neither as
    /// "▀", "▄", "█" or a space), the quiet zone light all round.
    public var lines: [String] {
        let size = modules.count + 2 * Self.quietZone
        func light(_ row: Int, _ column: Int) -> Bool {
            let r = row - Self.quietZone, c = column - Self.quietZone
            guard r >= 0, r < modules.count, c >= 0, c < modules.count else { return true }
            return !modules[r][c]
        }
        return stride(from: 0, to: size, by: 2).map { row in
            String((0..<size).map { column -> Character in
                let upper = light(row, column)
                let lower = row + 1 < size ? light(row + 1, column) : false
                switch (upper, lower) {
                case (true, true): return "█"
                case (true, false): return "▀"
                case (false, true): return "▄"
                case (false, false): return " "
                }
            })
        }
    }
}

/// Why no QR code could be made.
public struct TerminalQRCodeError: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
