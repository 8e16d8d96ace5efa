// libFuzzer entry for the Gear VR controller's packet decoder, built by Fuzz/build-fuzzer
// together with Sources/DaydreamProtocol.
//
// Each input is used twice: as the bytes of a notification, and as the hex text
// `daydream-bridge decode --controller gear-vr` reads. Properties checked (a violation
// traps, which libFuzzer reports as a crash):
// - a 2-byte notification is a command echo carrying its value (little endian), never input;
//   any other length but 60 throws `.familyWrongLength` with that length;
// - every 60-byte notification decodes: its three samples are the packet's times and counts
//   (on the common axes: x, z, -y of the Gear VR's),
//   the touch is within 0...315 and never 0,0 while the touch bits say a finger is down, the
//   buttons are the Gear VR's only, the battery is byte 59;
// - encoding gives back exactly the same 60 bytes (the decoder keeps all 480 bits);
// - each sample handed on alone keeps the packet's buttons and touch, and its scaled views
//   and the JSON line are finite and well formed.
import DaydreamProtocol

@_cdecl("LLVMFuzzerTestOneInput")
public func gearVRPacketDecoderFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    checkNotification(input)
    checkHexText(input)
    return 0
}

private let family = ControllerFamily.gearVR
private let packetLength = 60

private func checkNotification(_ input: UnsafeRawBufferPointer) {
    let packet: DaydreamPacket
    do {
        packet = try family.decode(input)
    } catch {
        switch error {
        case .commandEcho(let value):
            require(input.count == 2, "a command echo from \(input.count) bytes")
            require(value == UInt16(input[0]) | UInt16(input[1]) << 8, "echo \(value) from \(Hex.encode(input))")
        case .familyWrongLength(let decoded, let count, let expected):
            require(decoded == .gearVR && count == input.count && expected == packetLength && count != 2,
                    "wrong-length error \(error) for \(input.count) bytes")
        default:
            fatalError("unexpected decoding error \(error) for \(input.count) bytes")
        }
        return
    }
    require(input.count == packetLength, "decoded \(input.count) bytes")
    checkFields(packet, input)
    let encoded = family.encode(packet)
    require(encoded.elementsEqual(input), "round trip changed \(Hex.encode(input)) into \(Hex.encode(encoded))")
    checkSamples(packet)
}

private func littleEndian32(_ input: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
    (0..<4).reduce(UInt32(0)) { $0 | UInt32(input[offset + $1]) << (8 * UInt32($1)) }
}

private func littleEndian16(_ input: UnsafeRawBufferPointer, _ offset: Int) -> Int16 {
    Int16(bitPattern: UInt16(input[offset]) | UInt16(input[offset + 1]) << 8)
}

private func checkFields(_ packet: DaydreamPacket, _ input: UnsafeRawBufferPointer) {
    require(packet.family == .gearVR && packet.sampleCount == 3, "family \(packet.family), \(packet.sampleCount) samples")
    for index in 0..<3 {
        let offset = 16 * index
        let sample = packet.sample(index)
        require(sample.time == littleEndian32(input, offset), "sample \(index): time \(sample.time)")
        let counts = (0..<6).map { littleEndian16(input, offset + 4 + 2 * $0) }
        // On the common axes: (x, z, -y) of the Gear VR's counts, the negation wrapping.
        let common = [counts[0], counts[2], 0 &- counts[1], counts[3], counts[5], 0 &- counts[4]]
        let decoded = [sample.acceleration.x, sample.acceleration.y, sample.acceleration.z,
                       sample.gyro.x, sample.gyro.y, sample.gyro.z]
        require(decoded == common, "sample \(index): counts \(decoded), the packet says \(counts) (common \(common))")
    }
    let touching = (input[54] >> 4) & 0x03 == 0x01
    require(packet.isTouching == touching, "touching \(packet.isTouching) for byte 54 \(input[54])")
    require(packet.touchX <= 315 && packet.touchY <= 315, "touch \(packet.touchX), \(packet.touchY) beyond 315")
    require(packet.isTouching == (packet.touchPoint != nil), "touch point disagrees with touching")
    if let point = packet.touchPoint {
        require((0...1).contains(point.x) && (0...1).contains(point.y), "touch point \(point) outside 0...1")
    }
    let gearButtons: DaydreamButtons = [.click, .home, .volumeUp, .volumeDown, .trigger, .back]
    require(gearButtons.isSuperset(of: packet.buttons), "buttons \(packet.buttons.names) a Gear VR has not")
    require(packet.buttons.contains(.trigger) == (input[58] & 0x01 != 0), "trigger disagrees with byte 58")
    require(packet.buttons.contains(.back) == (input[58] & 0x04 != 0), "back disagrees with byte 58")
    require(packet.battery == input[59], "battery \(String(describing: packet.battery)) for byte 59 \(input[59])")
}

private func checkSamples(_ packet: DaydreamPacket) {
    for index in 0..<3 {
        let one = packet.forSample(index)
        require(one.buttons == packet.buttons && one.touchX == packet.touchX && one.touchY == packet.touchY,
                "sample \(index) lost the packet's buttons or touch")
        require(one.sampleTime == packet.sample(index).time, "sample \(index) handed on with the wrong time")
        let acceleration = one.accelerationSI
        let rate = one.rotationRate
        for value in [acceleration.x, acceleration.y, acceleration.z, rate.x, rate.y, rate.z] {
            require(value.isFinite && abs(value) < 1_000, "sample \(index): scaled value \(value)")
        }
    }
    let line = packet.jsonLine
    require(line.hasPrefix("{") && line.hasSuffix("}") && !line.contains("nan") && !line.contains("inf"),
            "bad JSON line: \(line)")
    require(line.contains("\"samples\""), "the JSON line has no samples: \(line)")
}

private func checkHexText(_ input: UnsafeRawBufferPointer) {
    let text = String(decoding: input, as: UTF8.self)
    guard let bytes = Hex.decode(text) else { return }
    if bytes.count == packetLength || bytes.count == 2 {
        bytes.withUnsafeBytes { checkNotification($0) }
    }
}
