import DaydreamProtocol
import Mapping
import Testing

@Suite("Capabilities from profiles")
struct CapabilitiesTests {
    @Test func mouseButtonsGoToTheMouseNeverTheGamepad() {
        let profile = Profile(name: "p", click: .plain(.keys([EventCode.btnLeft])), app: .plain(.keys([EventCode.btnSouth])))
        let caps = MappingConfiguration(profiles: [profile]).capabilities
        #expect(caps.gamepad?.hasKey(EventCode.btnSouth) == true)
        #expect(caps.gamepad?.keys.contains(where: { (EventCode.btnLeft...EventCode.btnTask).contains($0) }) == false)
        #expect(caps.mouse?.hasKey(EventCode.btnLeft) == true)
        #expect(caps.keyboard == nil)
    }
}
