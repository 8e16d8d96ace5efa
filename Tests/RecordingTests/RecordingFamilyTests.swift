import DaydreamProtocol
import Recording
import Testing
import Timebase

/// Recordings of a Gear VR: the `family` line, its 60-byte packets, and old recordings as Daydream ones.
@Suite("recording family")
struct RecordingFamilyTests {
    /// A hand-made Gear VR packet (three samples at 1000, 5850, 10700 µs; click and trigger; battery 77).
    static let gearVR = "e80300000000000000080e00e4ff8f00da1600000000000000080e00e4ff8f00cc2900000000000000080e00e4ff8f000a0014001e001280c81f494d"

    func parseErrors(_ text: String) -> [String] {
        do {
            _ = try RecordingParser.parse(text)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aGearVRRecordingReadsItsPacketsAsTheFamilySays() throws {
        let text = "# daydream-bridge recording v1\nname Gear VR Controller(1A2B)\nfamily gear-vr\n0.000000 \(Self.gearVR)\n"
        let recording = try RecordingParser.parse(text)
        #expect(recording.info.family == .gearVR)
        let packet = try #require(recording.packets.first)
        #expect(packet.family == .gearVR)
        #expect(packet.sample(0).time == 1000)
        #expect(packet.buttons == [.click, .trigger])
        // Written back, byte for byte.
        #expect(RecordingFormat.format(recording).contains("family gear-vr\n"))
        #expect(RecordingFormat.format(recording).contains(Self.gearVR.uppercased()))
        #expect(try RecordingParser.parse(RecordingFormat.format(recording)) == recording)
    }

    @Test func aRecordingWithoutTheFieldIsADaydreams() throws {
        let recording = try RecordingParser.parse("# daydream-bridge recording v1\n0.000000 5BEBFFB825FDB000041000B00000000000000000\n")
        #expect(recording.info.family == nil)
        #expect(recording.info.controllerFamily.id == .daydream)
        #expect(recording.packets.first?.family == .daydream)
    }

    @Test func aPacketOfAnotherLengthOrAnUnknownFamilyIsAnError() {
        #expect(parseErrors("# daydream-bridge recording v1\nfamily gear-vr\n0.000000 5BEBFFB825FDB000041000B00000000000000000\n")
            == ["3:10: a gear-vr packet is 60 bytes (120 hex digits); this one has 40 digits"])
        #expect(parseErrors("# daydream-bridge recording v1\nfamily wiimote\n")
            == ["2:8: unknown controller family 'wiimote' (known: daydream, gear-vr, oculus-go)"])
    }
}
