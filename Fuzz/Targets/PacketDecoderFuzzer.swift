// libFuzzer entry for the packet decoder, built by Fuzz/build-fuzzer together
// with Sources/DaydreamProtocol.
//
// Each input is used twice: as the bytes of a notification, and as the hex
// text `daydream-bridge decode` reads. Properties checked (a violation traps,
// which libFuzzer reports as a crash):
// - a notification that is not 20 bytes throws `.wrongLength(count)`, nothing else;
// - every 20-byte notification decodes, every field is within its width, and
//   encoding gives back exactly the same 20 bytes (the layout covers all 160 bits);
// - the scaled views (quaternion, JSON line) are finite and well formed;
// - hex text that decodes re-encodes to the same bytes.
import DaydreamProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func packetDecoderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    checkNotification(input)
    checkHexText(input)
    return 0
}

private func checkNotification(_ input: UnsafeRawBufferPointer) {
    let packet: DaydreamPacket
    do {
        packet = try DaydreamPacket(bytes: input)
    } catch {
        guard case .wrongLength(let count) = error, count == input.count, input.count != 20 else {
            fatalError("unexpected decoding error \(error) for \(input.count) bytes")
        }
        return
    }
    // The generic decoder must agree with the pointer decoder.
    guard let again = try? DaydreamPacket(Array(input)), again == packet else {
        fatalError("the collection decoder disagrees")
    }
    checkRanges(packet)
    var encoded = [UInt8](repeating: 0xAA, count: 20)
    encoded.withUnsafeMutableBytes { packet.encode(into: $0) }
    guard encoded.elementsEqual(input) else {
        fatalError("round trip changed \(Hex.encode(input)) into \(Hex.encode(encoded))")
    }
    checkScaled(packet)
}

private func checkRanges(_ packet: DaydreamPacket) {
    require(packet.time < 512, "time out of range")
    require(packet.sequence < 32, "sequence out of range")
    require(packet.buttons.rawValue < 32, "buttons out of range")
    for vector in [packet.orientation, packet.acceleration, packet.gyro] {
        for value in [vector.x, vector.y, vector.z] {
            require(PacketLayout.signedRange.contains(value), "13-bit field out of range: \(value)")
        }
    }
    require(packet.isTouching == (packet.touchPoint != nil), "touch flag disagrees")
}

private func checkScaled(_ packet: DaydreamPacket) {
    let q = packet.quaternion
    let norm = (q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z).squareRoot()
    require(abs(norm - 1) < 1e-9, "quaternion not unit: \(norm)")
    let angles = q.eulerAngles
    require(angles.yaw.isFinite && angles.pitch.isFinite && angles.roll.isFinite, "angles not finite")
    let line = packet.jsonLine
    require(line.hasPrefix("{") && line.hasSuffix("}") && !line.contains("nan"), "bad JSON line: \(line)")
}

private func checkHexText(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    guard let bytes = Hex.decode(text) else { return }
    let encoded = Hex.encode(bytes)
    guard Hex.decode(encoded) == bytes, encoded.utf8.count == 2 * bytes.count else {
        fatalError("hex round trip failed for \(text.debugDescription)")
    }
    if bytes.count == 20 {
        bytes.withUnsafeBytes { checkNotification($0) }
    }
}
