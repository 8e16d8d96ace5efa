import Testing

@testable import VirtualHID

@Suite struct DualSenseAddressTests {
    @Test func flipsTheLocallyAdministeredBitOfTheControllersAddress() {
        #expect(DualSenseAddress(controllerAddress: "EC:12:34:56:78:9A").uniq == "ee:12:34:56:78:9a")
        #expect(DualSenseAddress(controllerAddress: "ee:12:34:56:78:9a").uniq == "ec:12:34:56:78:9a")
        #expect(DualSenseAddress(controllerAddress: "00:00:00:00:00:0F").uniq == "02:00:00:00:00:0f")
    }

    @Test func isStableAndDistinctPerController() {
        let first = DualSenseAddress(controllerAddress: "EC:12:34:56:78:9A")
        #expect(first == DualSenseAddress(controllerAddress: "EC:12:34:56:78:9A"))
        #expect(first != DualSenseAddress(controllerAddress: "EC:12:34:56:78:9B"))
        #expect(first != DualSenseAddress(controllerAddress: "EE:12:34:56:78:9A"))
    }

    @Test func aNameThatIsNoAddressGetsALocallyAdministeredUnicastOne() {
        for name in ["replay", "", "EC:12:34:56:78", "EC:12:34:56:78:9G", "EC-12-34-56-78-9A"] {
            let address = DualSenseAddress(controllerAddress: name)
            #expect(address.octets.count == 6)
            #expect(address.octets[0] & 0x02 == 0x02, "\(name)")
            #expect(address.octets[0] & 0x01 == 0, "\(name)")
            #expect(address == DualSenseAddress(controllerAddress: name))
        }
        #expect(DualSenseAddress(controllerAddress: "replay") != DualSenseAddress(controllerAddress: "replay2"))
    }
}
