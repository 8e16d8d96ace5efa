import Mapping
import Testing
@testable import BridgeConfig

@Suite("profile lend")
struct LendDecodingTests {
    @Test func lendIsReadAndOffWhenLeftOut() throws {
        let configuration = try ConfigDecoder.decodeAll(Array("""
        [profile.desktop]
        click = "BTN_LEFT"

        [profile.vr]
        lend = true

        [profile.pad]
        click = "BTN_SOUTH"
        lend = false
        """.utf8)).mapping
        #expect(configuration.profile(named: "vr")?.lend == true)
        #expect(configuration.profile(named: "desktop")?.lend == false)
        #expect(configuration.profile(named: "pad")?.lend == false)
    }

    @Test func aLendThatIsNotABooleanNamesFileLineColumn() {
        let errors = ConfigDiagnostics.of("[profile.vr]\nclick = \"BTN_LEFT\"\nlend = \"yes\"\n")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("c.toml:3:8: error: profile.vr.lend: expected true or false") == true, "\(errors)")
    }
}
