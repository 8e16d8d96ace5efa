import Testing
@testable import BridgeConfig

@Suite("[opentrack]")
struct OpenTrackDecodingTests {
    static let profile = "\n[profile.a]\nclick = \"BTN_SOUTH\"\n"

    static func decode(_ text: String) throws(ConfigErrors) -> OpenTrackConfiguration? {
        try ConfigDecoder.decodeAll(Array(text.utf8)).openTrack
    }

    @Test func offWithoutTheTable() throws {
        #expect(try Self.decode(Self.profile) == nil)
    }

    @Test func theTableAloneSendsToOpentracksDefaultOnLoopbackFollowingTheFirst() throws {
        let openTrack = try Self.decode("[opentrack]\n" + Self.profile)
        #expect(openTrack == OpenTrackConfiguration(sendTo: OpenTrackAddress(octets: [127, 0, 0, 1], port: 4242), controller: nil))
        #expect(openTrack?.sendTo.isLoopback == true)
    }

    @Test func anAddressAndAControllerAsWritten() throws {
        let openTrack = try Self.decode("[opentrack]\nsend-to = \"192.168.1.20:5555\"\ncontroller = \"c0:dd:ee:00:00:02\"\n" + Self.profile)
        #expect(openTrack?.sendTo == OpenTrackAddress(octets: [192, 168, 1, 20], port: 5555))
        #expect(openTrack?.sendTo.isLoopback == false)
        #expect(openTrack?.controller == "C0:DD:EE:00:00:02")
    }

    @Test func badValuesNameFileLineColumnAndWhatIsExpected() {
        #expect(ConfigDiagnostics.of("[opentrack]\nsend-to = \"localhost:4242\"\n" + Self.profile) == [
            "c.toml:2:11: error: opentrack.send-to: \"localhost\" is not an IPv4 address in dotted decimal (for example "
                + "127.0.0.1); expected an address and port like \"127.0.0.1:4242\"",
        ])
        #expect(ConfigDiagnostics.of("[opentrack]\nsend-to = \"127.0.0.1:0\"\n" + Self.profile) == [
            "c.toml:2:11: error: opentrack.send-to: \"0\" is not a port: 1 to 65535 (opentrack's is 4242); "
                + "expected an address and port like \"127.0.0.1:4242\"",
        ])
        #expect(ConfigDiagnostics.of("[opentrack]\ncontroller = \"left\"\n" + Self.profile) == [
            "c.toml:2:14: error: opentrack.controller: 'left' is not a Bluetooth address; expected six hex byte pairs "
                + "like \"C0:DD:EE:00:00:01\"",
        ])
        #expect(ConfigDiagnostics.of("[opentrack]\nport = 4242\n" + Self.profile) == [
            "c.toml:2:1: error: unknown key 'port' in [opentrack]; expected one of: send-to, controller",
        ])
    }

    @Test func theLoaderKeepsIt() throws {
        let loaded = try ConfigLoader.load(Array(("opentrack.send-to = \"127.0.0.1:4000\"\n" + Self.profile).utf8), from: .builtIn)
        #expect(loaded.openTrack?.sendTo.port == 4000)
    }
}
