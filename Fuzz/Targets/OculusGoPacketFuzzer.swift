// libFuzzer entry for the Oculus Go controller's packet decoder (experimental), built by
// Fuzz/build-fuzzer together with Sources/DaydreamProtocol.
//
// Each input is used twice: as the bytes of a notification, and as the hex text
// `daydream-bridge decode --controller oculus-go` reads. Properties checked (a violation
// traps, which libFuzzer reports as a crash):
// - any length but 20 throws `.familyWrongLength` with that length, never anything else;
// - every 20-byte notification decodes: the buttons are the Go's only and agree with byte 19,
//   the touch is within 0...315 and present exactly when byte 19 says a finger is down;
// - encoding gives back exactly the same 20 bytes;
// - the scaled views and the JSON line are finite and well formed.
import DaydreamProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func oculusGoPacketDecoderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    checkNotification(input)
    checkHexText(input)
    return 0
}

private let family = ControllerFamily.oculusGo
private let packetLength = 20

private func checkNotification(_ input: UnsafeRawBufferPointer) {
    let packet: DaydreamPacket
    do {
        packet = try family.decode(input)
    } catch {
        guard case .familyWrongLength(let decoded, let count, let expected) = error else {
            fatalError("unexpected decoding error \(error) for \(input.count) bytes")
        }
        require(decoded == .oculusGo && count == input.count && expected == packetLength && count != packetLength,
                "wrong-length error \(error) for \(input.count) bytes")
        return
    }
    require(input.count == packetLength, "decoded \(input.count) bytes")
    checkFields(packet, input)
    let encoded = family.encode(packet)
    require(encoded.elementsEqual(input), "round trip changed \(Hex.encode(input)) into \(Hex.encode(encoded))")
}

private func checkFields(_ packet: DaydreamPacket, _ input: UnsafeRawBufferPointer) {
    require(packet.family == .oculusGo, "family \(packet.family)")
    let byte19 = input[19]
    let goButtons: DaydreamButtons = [.click, .home, .trigger, .back]
    require(goButtons.isSuperset(of: packet.buttons), "buttons \(packet.buttons.names) an Oculus Go has not")
    for (bit, button) in [(UInt8(0x01), DaydreamButtons.home), (0x02, .back), (0x04, .trigger), (0x08, .click)] {
        require(packet.buttons.contains(button) == (byte19 & bit != 0), "\(button.names) disagrees with byte 19 \(byte19)")
    }
    let touching = byte19 & 0x10 != 0
    require(packet.isTouching == touching, "touching \(packet.isTouching) for byte 19 \(byte19)")
    require(packet.touchX <= 315 && packet.touchY <= 315, "touch \(packet.touchX), \(packet.touchY) beyond 315")
    if let point = packet.touchPoint {
        require((0...1).contains(point.x) && (0...1).contains(point.y), "touch point \(point) outside 0...1")
    }
    let acceleration = packet.accelerationSI
    for value in [acceleration.x, acceleration.y, acceleration.z] {
        require(value.isFinite && abs(value) < 10_000, "scaled acceleration \(value)")
    }
    let line = packet.jsonLine
    require(line.hasPrefix("{") && line.hasSuffix("}") && !line.contains("nan") && !line.contains("inf"),
            "bad JSON line: \(line)")
}

private func checkHexText(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    guard let bytes = Hex.decode(text), bytes.count == packetLength else { return }
    bytes.withUnsafeBytes { checkNotification($0) }
}
