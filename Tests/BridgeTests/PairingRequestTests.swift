import Bridge
import Testing

/// The control socket's requests for the controllers panel: `recenter`, `profiles`, and the
/// streamed `pair` and `forget`, each read back from its line; and the lines a pairing's steps
/// are sent as.
@Suite struct PairingRequestTests {
    @Test func eachRequestReadsBackFromItsLine() {
        let requests: [ControlRequest] = [
            .recenter(address: nil), .recenter(address: "C0:DD:EE:00:00:01"), .profiles,
            .pair(address: nil), .pair(address: "C0:DD:EE:00:00:01"), .forget(address: "C0:DD:EE:00:00:01"),
        ]
        for request in requests {
            #expect(ControlRequest.parse(request.line) == .success(request), "\(request.line)")
        }
        #expect(ControlRequest.pair(address: nil).streamsReply && ControlRequest.forget(address: "A").streamsReply)
        #expect(!ControlRequest.recenter(address: nil).streamsReply && !ControlRequest.profiles.streamsReply)
        #expect(ControlRequest.parse("forget") == .failure(ControlError("usage: forget ADDRESS")))
        #expect(ControlRequest.parse("pair A B") == .failure(ControlError("usage: pair [ADDRESS]")))
        #expect(ControlRequest.parse("recenter A B") == .failure(ControlError("usage: recenter [ADDRESS]")))
        guard case .failure(let unknown) = ControlRequest.parse("pear") else { return #expect(Bool(false)) }
        #expect(unknown.message.hasSuffix("recenter, pair, forget"))
    }

    @Test func aPairingsStepsAreSaidInOneLineEachWithTheHintFirst() {
        #expect(PairingStep.looking(address: nil).lines
            == ["looking for an unpaired Daydream controller: hold its home button until the light blinks"])
        #expect(PairingStep.pairing(address: "C0:DD:EE:00:00:01").lines == ["pairing C0:DD:EE:00:00:01"])
        #expect(PairingStep.paired(address: "C0:DD:EE:00:00:01").lines == ["paired and trusted C0:DD:EE:00:00:01"])
        let several = PairingStep.several(["C0:DD:EE:00:00:01 Daydream controller", "C0:DD:EE:00:00:02 Daydream controller"])
        #expect(several.lines.prefix(2) == ["candidate C0:DD:EE:00:00:01 Daydream controller", "candidate C0:DD:EE:00:00:02 Daydream controller"])
        #expect(several.lines.last?.hasPrefix("failed: 2 unpaired") == true)
        #expect(several.ends && !PairingStep.looking(address: nil).ends && !PairingStep.pairing(address: "A").ends)
    }

    @Test func theNewRefusalsSayWhatToDo() {
        #expect(BridgeRefusal.noBluetooth.name == "NoBluetooth")
        #expect(BridgeRefusal.unknownDevice("C0:DD:EE:00:00:09").message.hasPrefix("BlueZ does not know C0:DD:EE:00:00:09"))
        #expect(BridgeRefusal.badAddress("nope").message == "'nope' is not a Bluetooth address (AA:BB:CC:DD:EE:FF)")
    }
}
