import Testing
@testable import BridgeConfig

@Suite("Config lookup")
struct ConfigLookupTests {
    @Test("XDG_CONFIG_HOME first, then /etc")
    func xdgFirst() {
        let environment = ["XDG_CONFIG_HOME": "/home/u/cfg", "HOME": "/home/u"]
        #expect(ConfigLookup.candidatePaths(environment: environment) == [
            "/home/u/cfg/daydream-bridge/config.toml", "/etc/daydream-bridge/config.toml",
        ])
    }

    @Test("~/.config when XDG_CONFIG_HOME is unset, empty or relative")
    func homeFallback() {
        for environment in [["HOME": "/home/u"], ["HOME": "/home/u", "XDG_CONFIG_HOME": ""], ["HOME": "/home/u/", "XDG_CONFIG_HOME": "rel"]] {
            #expect(ConfigLookup.userPath(environment: environment) == "/home/u/.config/daydream-bridge/config.toml")
        }
        #expect(ConfigLookup.userPath(environment: [:]) == nil)
        #expect(ConfigLookup.candidatePaths(environment: [:]) == ["/etc/daydream-bridge/config.toml"])
    }

    @Test("the first existing file wins, else the built-in default")
    func locate() {
        let environment = ["XDG_CONFIG_HOME": "/x"]
        #expect(ConfigLookup.locate(environment: environment) { _ in true } == .file("/x/daydream-bridge/config.toml"))
        #expect(ConfigLookup.locate(environment: environment) { $0.hasPrefix("/etc") } == .file("/etc/daydream-bridge/config.toml"))
        #expect(ConfigLookup.locate(environment: environment) { _ in false } == .builtIn)
        #expect(ConfigSource.builtIn.description == "<built-in default>")
    }
}
