// libFuzzer entry for the DSU server's request decoder, built by Fuzz/build-fuzzer together
// with Sources/DSU: every datagram from the network goes through it.
//
// Properties checked (a violation traps, which libFuzzer reports as a crash):
// - any input decodes or is dropped with a reason, and which one agrees with its length
//   (over 100 bytes: oversized; under 20: short);
// - a decoded request names at most four slots, each below 4;
// - with its header made right (magic, version, length, CRC32), a datagram is dropped only for
//   its type or its payload.
import DSU

@_cdecl("LLVMFuzzerTestOneInput")
public func dsuRequestFuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size)
    check(input)
    // The same bytes as a well-formed header would carry them: magic, version, length and CRC
    // put right, so the decoder's payload checks get exercised too.
    guard input.count >= 20, input.count <= DSUProtocol.maximumMessageLength else { return 0 }
    var sealed = Array(input)
    sealed.replaceSubrange(0..<4, with: DSUProtocol.clientMagic)
    sealed[4] = UInt8(DSUProtocol.version & 0xFF)
    sealed[5] = UInt8(DSUProtocol.version >> 8)
    sealed[6] = UInt8(sealed.count - DSUProtocol.headerLength)
    sealed[7] = 0
    sealed.withUnsafeMutableBytes { DSUChecksum.seal($0) }
    sealed.withUnsafeBytes { buffer in
        do throws(DSUDropReason) {
            _ = try DSURequest(datagram: buffer)
        } catch {
            require(error == .unknownType || error == .badPayload, "a sealed request dropped as \(error)")
        }
        check(buffer)
    }
    return 0
}

private func check(_ input: UnsafeRawBufferPointer) {
    let request: DSURequest
    do throws(DSUDropReason) {
        request = try DSURequest(datagram: input)
    } catch {
        if input.count > DSUProtocol.maximumMessageLength {
            require(error == .oversized, "\(input.count) bytes dropped as \(error), not oversized")
        } else if input.count < DSUProtocol.minimumMessageLength {
            require(error == .short, "\(input.count) bytes dropped as \(error), not short")
        }
        return
    }
    require(input.count >= DSUProtocol.minimumMessageLength && input.count <= DSUProtocol.maximumMessageLength, "decoded \(input.count) bytes")
    switch request.kind {
    case .version:
        break
    case .controllerInfo(let slots):
        require(slots.count <= DSUProtocol.slotCount && slots.allSatisfy { $0 < DSUProtocol.slotCount }, "slots \(slots)")
    case .controllerData(let subscription):
        if case .slot(let slot) = subscription { require(slot < DSUProtocol.slotCount, "slot \(slot)") }
    }
}
