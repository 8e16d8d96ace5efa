import DSU
import Testing

/// The server's messages against bytes written out by hand from the protocol description
/// (v1993's cemuhook-protocol README, and the structures Dolphin's client reads). The CRC32s
/// were computed with Python's `zlib.crc32` over each message with its CRC field zeroed.
@Suite struct GoldenPacketTests {
    static let serverID: UInt32 = 0x1122_3344

    static func encoded(length: Int, _ encode: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        var buffer = [UInt8](repeating: 0xA5, count: 128)
        buffer.withUnsafeMutableBytes { encode($0) }
        return Array(buffer.prefix(length))
    }

    @Test func versionReply() {
        let expected: [UInt8] = [
            0x44, 0x53, 0x55, 0x53,  // "DSUS": from a server
            0xE9, 0x03,  // version 1001
            0x08, 0x00,  // 8 bytes follow the header: type, version, padding
            0x6E, 0xA8, 0x3A, 0xA2,  // CRC32 0xA23AA86E
            0x44, 0x33, 0x22, 0x11,  // server id 0x11223344
            0x00, 0x00, 0x10, 0x00,  // type 0x100000: version
            0xE9, 0x03,  // the highest version served: 1001
            0x00, 0x00,  // padding (Dolphin's VersionResponse is 24 bytes, CRC over all of it)
        ]
        let bytes = Self.encoded(length: DSUReply.versionLength) { DSUReply.encodeVersion(serverID: Self.serverID, into: $0) }
        #expect(bytes == expected)
    }

    @Test func controllerInfoReply() {
        let expected: [UInt8] = [
            0x44, 0x53, 0x55, 0x53, 0xE9, 0x03,
            0x10, 0x00,  // 16 bytes follow: type, 11 bytes of slot description, a zero
            0xED, 0xB1, 0xB8, 0xD2,  // CRC32 0xD2B8B1ED
            0x44, 0x33, 0x22, 0x11,
            0x01, 0x00, 0x10, 0x00,  // type 0x100001: controller info
            0x01,  // slot 1
            0x02,  // connected
            0x02,  // full gyro
            0x02,  // Bluetooth
            0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0x01,  // MAC, in the order the address is written
            0x04,  // battery: high
            0x00,  // the trailing zero
        ]
        let info = DSUControllerInfo(
            slot: 1, state: .connected, mac: DSUMACAddress(bluetoothAddress: "AA:BB:CC:DD:EE:01") ?? .none, battery: .high)
        let bytes = Self.encoded(length: DSUReply.controllerInfoLength) {
            DSUReply.encodeControllerInfo(info, serverID: Self.serverID, into: $0)
        }
        #expect(bytes == expected)
    }

    @Test func controllerDataMessage() {
        let expected: [UInt8] = [
            0x44, 0x53, 0x55, 0x53, 0xE9, 0x03,
            0x54, 0x00,  // 84 bytes follow the header: 100 in all
            0xB1, 0xD4, 0x5C, 0x8C,  // CRC32 0x8C5CD4B1
            0x44, 0x33, 0x22, 0x11,
            0x02, 0x00, 0x10, 0x00,  // type 0x100002: controller data
            0x00, 0x02, 0x02, 0x02,  // slot 0, connected, full gyro, Bluetooth
            0x01, 0x02, 0x03, 0x04, 0x05, 0x06,  // MAC
            0x05,  // battery: full
            0x01,  // active
            0x07, 0x00, 0x00, 0x00,  // packet counter 7
            0x00,  // d-pad, options, sticks' buttons, share: none
            0x28,  // A (0x20) and R1 (0x08)
            0x01,  // PS (home)
            0x01,  // touch button
            0x80, 0x80, 0x80, 0x80,  // both sticks centred
            0x00, 0x00, 0x00, 0x00,  // analog d-pad left, down, right, up
            0x00, 0x00, 0xFF, 0x00,  // analog Y, B, A (pressed), X
            0xFF, 0x00, 0x00, 0x00,  // analog R1 (pressed), L1, R2, L2
            0x01, 0x03, 0xE8, 0x03, 0xF4, 0x01,  // touch 1: active, id 3, x 1000, y 500
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // touch 2: none
            0x15, 0xCD, 0x5B, 0x07, 0x00, 0x00, 0x00, 0x00,  // timestamp 123456789 us
            0x00, 0x00, 0x00, 0x3F,  // acceleration x 0.5 g
            0x00, 0x00, 0x80, 0xBF,  // y -1 g
            0x00, 0x00, 0x80, 0x3E,  // z 0.25 g
            0x00, 0x00, 0x20, 0x41,  // pitch 10 deg/s
            0x00, 0x00, 0xA0, 0xC1,  // yaw -20 deg/s
            0x00, 0x00, 0xF4, 0x41,  // roll 30.5 deg/s
        ]
        let info = DSUControllerInfo(slot: 0, state: .connected, mac: DSUMACAddress(bytes: [1, 2, 3, 4, 5, 6]), battery: .full)
        var pad = DSUPadState()
        pad.isActive = true
        pad.packetCounter = 7
        pad.buttons2 = [.a, .r1]
        pad.home = true
        pad.touchButton = true
        pad.touch1 = DSUPadState.Touch(isActive: true, id: 3, x: 1000, y: 500)
        pad.motionTimestamp = 123_456_789
        pad.acceleration = (0.5, -1, 0.25)
        pad.gyro = (10, -20, 30.5)
        let bytes = Self.encoded(length: DSUReply.controllerDataLength) {
            DSUReply.encodeControllerData(info, pad, serverID: Self.serverID, into: $0)
        }
        #expect(bytes == expected)
    }

    /// The analog buttons (bytes 44...55: d-pad left, down, right, up, then Y, B, A, X, R1, L1,
    /// R2, L2): each one down makes its own byte 255 and no other, whatever the buttons without an
    /// analog byte (options, share, L3, R3) do.
    @Test func eachButtonDownFillsItsOwnAnalogByte() {
        let info = DSUControllerInfo(slot: 0, state: .connected, mac: DSUMACAddress(bytes: [1, 2, 3, 4, 5, 6]), battery: .full)
        let buttons: [(DSUPadState.Buttons1, DSUPadState.Buttons2)] = [
            ([.dpadLeft], []), ([.dpadDown], []), ([.dpadRight], []), ([.dpadUp], []),
            ([], [.y]), ([], [.b]), ([], [.a]), ([], [.x]), ([], [.r1]), ([], [.l1]), ([], [.r2]), ([], [.l2]),
        ]
        for (index, (first, second)) in buttons.enumerated() {
            for others in [[], [.options, .share, .l3, .r3]] as [DSUPadState.Buttons1] {
                var pad = DSUPadState()
                pad.buttons1 = first.union(others)
                pad.buttons2 = second
                let bytes = Self.encoded(length: DSUReply.controllerDataLength) {
                    DSUReply.encodeControllerData(info, pad, serverID: Self.serverID, into: $0)
                }
                var expected = [UInt8](repeating: 0, count: 12)
                expected[index] = 255
                #expect(Array(bytes[44...55]) == expected, "button \(index), others \(others.rawValue)")
            }
        }
    }
}
