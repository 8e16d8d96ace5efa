/// Text from outside (an application id, a window title) made safe for one log line.
public enum LogText {
    /// `text` with every control character (C0, DEL, C1) written as `\xNN`, so an escape
    /// sequence cannot reach a terminal or the journal and a newline cannot forge a line; a
    /// backslash is doubled so the escapes read back unambiguously.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result += "\\\\"
            } else if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\\" || isControl(scalar)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
