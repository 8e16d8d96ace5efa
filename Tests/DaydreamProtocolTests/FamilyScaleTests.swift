import Testing
import DaydreamProtocol

/// A packet's `scale` is its family's, read from a table made once: the same as the family's
/// description says, for every family and for a number no family has (the Daydream's then).
@Suite("Family scales")
struct FamilyScaleTests {
    @Test func everyFamilysPacketReadsItsFamilysScale() {
        for family in ControllerFamily.all {
            var packet = DaydreamPacket()
            packet.family = family.id
            #expect(packet.scale == family.scale, "\(family.name)")
        }
    }

    @Test func aNumberNoFamilyHasReadsTheDaydreamsScale() {
        var packet = DaydreamPacket()
        packet.family = ControllerFamilyID(rawValue: 200)
        #expect(packet.scale == ControllerFamily.daydream.scale)
    }
}
