/// A client's request, decoded and checked.
public struct DSURequest: Hashable, Sendable {
    /// What the client asks for.
    public enum Kind: Hashable, Sendable {
        /// The protocol version the server speaks.
        case version
        /// What the given slots hold (one reply per slot, in the order asked).
        case controllerInfo(slots: [UInt8])
        /// A subscription to controller data, renewed by every such request.
        case controllerData(DSUSubscription)
    }

    /// The client's id, as it put it in the header.
    public var clientID: UInt32
    public var kind: Kind

    public init(clientID: UInt32, kind: Kind) {
        self.clientID = clientID
        self.kind = kind
    }
}

/// What a controller-data request subscribes to.
public enum DSUSubscription: Hashable, Sendable {
    /// Every slot.
    case allSlots
    /// One slot, by number.
    case slot(UInt8)
    /// The slot that holds the controller with this MAC.
    case mac(DSUMACAddress)
}

/// Why a datagram was dropped: each is counted on its own.
public enum DSUDropReason: String, Error, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    /// Shorter than a header and a message type, or than the length its header gives.
    case short
    /// Longer than any message of the protocol.
    case oversized
    /// Not "DSUC": a server's message, or not DSU at all.
    case wrongMagic = "wrong-magic"
    /// A protocol version other than 1001.
    case wrongVersion = "wrong-version"
    /// The CRC32 does not match the message.
    case badChecksum = "bad-checksum"
    /// A message type this protocol does not have.
    case unknownType = "unknown-type"
    /// A payload too short for its type, or with a slot number or count out of range.
    case badPayload = "bad-payload"

    public var description: String { rawValue }
}

extension DSURequest {
    /// Decodes one datagram from a client, or says why it is dropped. A datagram longer than its
    /// header's length is read up to that length (the protocol description says to truncate);
    /// the checksum covers the header and that length.
    public init(datagram: UnsafeRawBufferPointer) throws(DSUDropReason) {
        guard datagram.count <= DSUProtocol.maximumMessageLength else { throw .oversized }
        guard datagram.count >= DSUProtocol.minimumMessageLength else { throw .short }
        guard datagram.prefix(4).elementsEqual(DSUProtocol.clientMagic) else { throw .wrongMagic }
        let reader = LittleEndianReader(datagram)
        guard reader.u16(at: 4) == DSUProtocol.version else { throw .wrongVersion }
        let length = DSUProtocol.headerLength + Int(reader.u16(at: 6))
        guard length >= DSUProtocol.minimumMessageLength, length <= datagram.count else { throw .short }
        let message = UnsafeRawBufferPointer(rebasing: datagram[0..<length])
        guard reader.u32(at: DSUProtocol.crcOffset) == DSUChecksum.compute(message) else { throw .badChecksum }
        let clientID = reader.u32(at: 12)
        guard let type = DSUMessageType(rawValue: reader.u32(at: 16)) else { throw .unknownType }
        let payload = LittleEndianReader(UnsafeRawBufferPointer(rebasing: message[DSUProtocol.minimumMessageLength...]))
        switch type {
        case .version:
            self.init(clientID: clientID, kind: .version)
        case .controllerInfo:
            // A signed 32-bit count (at most 4), then that many slot numbers (each below 4).
            guard payload.count >= 4 else { throw .badPayload }
            let count = Int32(bitPattern: payload.u32(at: 0))
            guard count >= 0, count <= Int32(DSUProtocol.slotCount), payload.count >= 4 + Int(count) else { throw .badPayload }
            var slots: [UInt8] = []
            for index in 0..<Int(count) {
                let slot = payload.u8(at: 4 + index)
                guard slot < DSUProtocol.slotCount else { throw .badPayload }
                slots.append(slot)
            }
            self.init(clientID: clientID, kind: .controllerInfo(slots: slots))
        case .controllerData:
            // Flags (1 = by slot, 2 = by MAC, 0 = every slot), a slot, a 6-byte MAC.
            guard payload.count >= 8 else { throw .badPayload }
            let flags = payload.u8(at: 0)
            let subscription: DSUSubscription
            if flags & 0x01 != 0 {
                let slot = payload.u8(at: 1)
                guard slot < DSUProtocol.slotCount else { throw .badPayload }
                subscription = .slot(slot)
            } else if flags & 0x02 != 0 {
                subscription = .mac(DSUMACAddress(bytes: (2..<8).map { payload.u8(at: $0) }))
            } else {
                subscription = .allSlots
            }
            self.init(clientID: clientID, kind: .controllerData(subscription))
        }
    }
}
