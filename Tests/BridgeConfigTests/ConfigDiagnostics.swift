@testable import BridgeConfig

/// What the decoding tests read of a config that does not decode.
enum ConfigDiagnostics {
    /// The diagnostics decoding `text` gives, as for a file `c.toml`; none when it decodes.
    static func of(_ text: String) -> [String] {
        do {
            _ = try ConfigDecoder.decodeAll(Array(text.utf8))
            return []
        } catch {
            return error.formatted(file: "c.toml")
        }
    }
}
