import DSU
import Testing

/// Client requests written out from the protocol description, and the ways a datagram is
/// dropped. CRC32s computed with Python's `zlib.crc32`.
@Suite struct RequestDecodingTests {
    static let versionRequest: [UInt8] = [
        0x44, 0x53, 0x55, 0x43,  // "DSUC": from a client
        0xE9, 0x03, 0x04, 0x00,  // version 1001; 4 bytes follow (the type)
        0x50, 0x37, 0x44, 0xC6,  // CRC32 0xC6443750
        0xBE, 0xBA, 0xFE, 0xCA,  // client id 0xCAFEBABE
        0x00, 0x00, 0x10, 0x00,  // type 0x100000
    ]
    static let listPorts: [UInt8] = [
        0x44, 0x53, 0x55, 0x43, 0xE9, 0x03, 0x0C, 0x00,
        0xE8, 0xDF, 0x0D, 0xA3,  // CRC32 0xA30DDFE8
        0xBE, 0xBA, 0xFE, 0xCA,
        0x01, 0x00, 0x10, 0x00,  // type 0x100001
        0x04, 0x00, 0x00, 0x00,  // four slots (a signed 32-bit count)
        0x00, 0x01, 0x02, 0x03,  // slots 0, 1, 2, 3
    ]
    static let subscribeBySlot: [UInt8] = [
        0x44, 0x53, 0x55, 0x43, 0xE9, 0x03, 0x0C, 0x00,
        0x5A, 0x4B, 0x11, 0xA1,  // CRC32 0xA1114B5A
        0xBE, 0xBA, 0xFE, 0xCA,
        0x02, 0x00, 0x10, 0x00,  // type 0x100002
        0x01, 0x02,  // by slot: slot 2
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // no MAC
    ]
    static let subscribeByMAC: [UInt8] = [
        0x44, 0x53, 0x55, 0x43, 0xE9, 0x03, 0x0C, 0x00,
        0x34, 0x4F, 0xA1, 0x69,  // CRC32 0x69A14F34
        0xBE, 0xBA, 0xFE, 0xCA,
        0x02, 0x00, 0x10, 0x00,
        0x02, 0x00,  // by MAC
        0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x01,
    ]

    static func decode(_ bytes: [UInt8]) throws(DSUDropReason) -> DSURequest {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(DSUDropReason) in try DSURequest(datagram: buffer) } }
        return try result.get()
    }

    static func reason(_ bytes: [UInt8]) -> DSUDropReason? {
        do {
            _ = try decode(bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func theThreeRequestsDecode() throws {
        #expect(try Self.decode(Self.versionRequest) == DSURequest(clientID: 0xCAFE_BABE, kind: .version))
        #expect(try Self.decode(Self.listPorts) == DSURequest(clientID: 0xCAFE_BABE, kind: .controllerInfo(slots: [0, 1, 2, 3])))
        #expect(try Self.decode(Self.subscribeBySlot) == DSURequest(clientID: 0xCAFE_BABE, kind: .controllerData(.slot(2))))
        let mac = try #require(DSUMACAddress(bluetoothAddress: "aa:bb:cc:dd:ee:01"))
        #expect(try Self.decode(Self.subscribeByMAC) == DSURequest(clientID: 0xCAFE_BABE, kind: .controllerData(.mac(mac))))
    }

    @Test func bytesAfterTheGivenLengthAreIgnored() throws {
        // The description says to truncate a message longer than its header's length.
        #expect(try Self.decode(Self.versionRequest + [1, 2, 3]) == DSURequest(clientID: 0xCAFE_BABE, kind: .version))
    }

    @Test func malformedDatagramsSayWhy() {
        #expect(Self.reason(Array(Self.versionRequest.prefix(19))) == .short)
        #expect(Self.reason([]) == .short)
        #expect(Self.reason(Self.versionRequest + [UInt8](repeating: 0, count: 81)) == .oversized)
        var serverMagic = Self.versionRequest
        serverMagic[3] = 0x53  // "DSUS"
        #expect(Self.reason(serverMagic) == .wrongMagic)
        var version = Self.versionRequest
        version[4] = 0xEA  // 1002
        #expect(Self.reason(version) == .wrongVersion)
        var crc = Self.versionRequest
        crc[8] ^= 0x01
        #expect(Self.reason(crc) == .badChecksum)
        var payload = Self.listPorts
        payload[27] ^= 0x01  // a changed byte, CRC left as it was
        #expect(Self.reason(payload) == .badChecksum)
        // The header promises 12 bytes after it; only 8 came.
        #expect(Self.reason(Array(Self.listPorts.prefix(24))) == .short)
    }

    @Test func anOutOfRangeSlotIsABadPayload() {
        // Slot 4 (there are 0...3), with its CRC32 (0xC2C17E60) right.
        let slotFour: [UInt8] = [
            0x44, 0x53, 0x55, 0x43, 0xE9, 0x03, 0x0C, 0x00,
            0x60, 0x7E, 0xC1, 0xC2,
            0xBE, 0xBA, 0xFE, 0xCA,
            0x02, 0x00, 0x10, 0x00,
            0x01, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
        ]
        #expect(Self.reason(slotFour) == .badPayload)
    }

    @Test func anUnknownTypeIsCounted() {
        // Type 0x100003, CRC32 0xD4F198BE.
        let unknown: [UInt8] = [
            0x44, 0x53, 0x55, 0x43, 0xE9, 0x03, 0x04, 0x00,
            0xBE, 0x98, 0xF1, 0xD4,
            0xBE, 0xBA, 0xFE, 0xCA,
            0x03, 0x00, 0x10, 0x00,
        ]
        #expect(Self.reason(unknown) == .unknownType)
    }
}

@Suite struct DropCountTests {
    @Test func eachReasonIsCountedOnItsOwn() {
        var counts = DSUDropCounts()
        #expect(counts.description == "none")
        counts.count(.short)
        counts.count(.badChecksum)
        counts.count(.badChecksum)
        #expect(counts[.short] == 1)
        #expect(counts[.badChecksum] == 2)
        #expect(counts[.oversized] == 0)
        #expect(counts.total == 3)
        #expect(counts.description == "short=1 bad-checksum=2")
    }
}

@Suite struct ListenAddressTests {
    @Test func addressesParse() throws {
        #expect(try DSUListenAddress.parse("127.0.0.1:26760").get() == .default)
        let any = try DSUListenAddress.parse("0.0.0.0:1234").get()
        #expect(any.octets == [0, 0, 0, 0] && any.port == 1234 && !any.isLoopback)
        #expect(try DSUListenAddress.parse("127.1.2.3:0").get().isLoopback)
        #expect(DSUListenAddress.default.description == "127.0.0.1:26760")
    }

    @Test func badAddressesSayWhatIsWrong() {
        for (text, words) in [
            ("26760", "not ADDRESS:PORT"), ("localhost:26760", "not an IPv4 address"), ("1.2.3:80", "not an IPv4 address"),
            ("1.2.3.256:80", "not an IPv4 address"), ("127.0.0.1:65536", "not a port"), ("127.0.0.1:", "not a port"),
        ] {
            guard case .failure(let error) = DSUListenAddress.parse(text) else {
                Issue.record("\(text) parsed")
                continue
            }
            #expect(error.description.contains(words), "\(text): \(error)")
        }
    }
}
