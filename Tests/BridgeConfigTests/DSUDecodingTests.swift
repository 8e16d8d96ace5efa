import DSU
import Testing
@testable import BridgeConfig

@Suite("[dsu]")
struct DSUDecodingTests {
    static let profile = "\n[profile.a]\nclick = \"BTN_SOUTH\"\n"

    static func decode(_ text: String) throws(ConfigErrors) -> DSUConfiguration? {
        try ConfigDecoder.decodeAll(Array(text.utf8)).dsu
    }

    static func errors(_ text: String) -> [String] {
        ConfigDiagnostics.of(text)
    }

    @Test func offWithoutTheTable() throws {
        #expect(try Self.decode(Self.profile) == nil)
    }

    @Test func theTableAloneListensOnTheDefaultAddress() throws {
        #expect(try Self.decode("[dsu]\n" + Self.profile) == DSUConfiguration(listen: .default))
    }

    @Test func oneLineTurnsItOnElsewhere() throws {
        let dsu = try Self.decode("dsu.listen = \"0.0.0.0:26761\"\n" + Self.profile)
        #expect(dsu?.listen == DSUListenAddress(octets: [0, 0, 0, 0], port: 26761))
    }

    @Test func badValuesNameFileLineColumnAndTheChoices() {
        #expect(Self.errors("[dsu]\nlisten = \"localhost:26760\"\n" + Self.profile) == [
            "c.toml:2:10: error: dsu.listen: \"localhost\" is not an IPv4 address in dotted decimal (for example "
                + "127.0.0.1); expected an address and port like \"127.0.0.1:26760\"",
        ])
        #expect(Self.errors("[dsu]\nlisten = 26760\n" + Self.profile).first?.hasPrefix(
            "c.toml:2:10: error: dsu.listen: expected an address and port like \"127.0.0.1:26760\"") == true)
        #expect(Self.errors("[dsu]\nport = 26760\n" + Self.profile) == [
            "c.toml:2:1: error: unknown key 'port' in [dsu]; expected one of: listen",
        ])
    }

    @Test func theLoaderKeepsIt() throws {
        let loaded = try ConfigLoader.load(Array(("[dsu]\nlisten = \"127.0.0.1:4000\"\n" + Self.profile).utf8), from: .builtIn)
        #expect(loaded.dsu?.listen.port == 4000)
    }
}
