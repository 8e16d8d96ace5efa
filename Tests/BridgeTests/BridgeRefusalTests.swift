import Bridge
import Testing

/// Every door shows a refusal's one message; the D-Bus API adds its name.
@Suite struct BridgeRefusalTests {
    @Test(arguments: [
        (BridgeRefusal.unknownProfile("kees", profiles: ["pad", "keys"]), "UnknownProfile", "no profile 'kees'; profiles: pad, keys"),
        (.noController("00:11:22:33:44:55", controllers: []), "NoController", "no controller 00:11:22:33:44:55; controllers: none"),
        (.noneConnected, "NotConnected", "no controller is connected to measure; connect one, hold it still and calibrate again"),
        (.notConnected("C0:DD:EE:00:00:01"), "NotConnected",
         "controller C0:DD:EE:00:00:01 is not connected; connect it, hold it still and calibrate again"),
        (.invalidConfig(["a.toml:1:1: error: x", "a.toml:2:1: error: y"]), "InvalidConfig",
         "the config has errors, so the running one stays:\na.toml:1:1: error: x\na.toml:2:1: error: y"),
        (.stopping, "Stopping", "the bridge is stopping"),
    ])
    func eachRefusalHasItsNameAndMessage(refusal: BridgeRefusal, name: String, message: String) {
        #expect(refusal.name == name)
        #expect(refusal.message == message)
    }

    @Test func aLongNameIsQuotedByItsStartOnly() {
        let message = BridgeRefusal.unknownProfile(String(repeating: "é", count: 100), profiles: ["pad"]).message
        #expect(message == "no profile '\(String(repeating: "é", count: 32))...'; profiles: pad")
    }
}
