import BridgeConfig
import Testing

/// Inputs the config fuzzer (Fuzz/Targets/ConfigFuzzer.swift) found, kept as tests.
@Suite("config fuzzer findings")
struct ConfigFuzzRegressionTests {
    /// A table header whose key starts with a character no key may start with. toml++ 3.3
    /// trips an internal assertion on it when built with assertions (the fuzzer's build);
    /// Debian's library has them off and reports the error, which is what must reach the user.
    @Test func aBadFirstCharacterInATableHeaderIsASyntaxError() {
        let found = "[bridge]\nprofile = \"gamepad\"\n\n[|rofile.gamepad]\nclick = \"BTN_SOUTH\napp = \"BTN_EAST\"\n"
        #expect {
            try ConfigDecoder.decode(found)
        } throws: { error in
            guard let errors = error as? ConfigErrors, let first = errors.diagnostics.first else { return false }
            return first.position == SourcePosition(line: 4, column: 2) && first.message.hasPrefix("TOML syntax:")
        }
    }
}
