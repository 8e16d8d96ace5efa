import Descriptors
import EventLoop
import Glibc
import TestSupport

/// A DSU client written from the protocol description (v1993's cemuhook-protocol README and the
/// structures Dolphin's client reads), sharing no code with the server: its own byte layout,
/// the tests' own bitwise CRC32 (`BitwiseCRC32`). It listens on 127.0.0.`host` (every 127.x address is
/// this machine's) and talks to one server port on 127.0.0.1.
@MainActor
final class TestDSUClient {
    /// A message from the server, decoded.
    enum Message: Equatable {
        case version(UInt16)
        case info(Slot)
        case data(Slot, PadData)
        /// What the client could not accept, and why.
        case invalid(String)
    }

    /// The 11 bytes that describe a slot.
    struct Slot: Equatable {
        var slot: UInt8
        var state: UInt8
        var model: UInt8
        var connection: UInt8
        var mac: [UInt8]
        var battery: UInt8
    }

    struct PadData: Equatable {
        var active: UInt8
        var counter: UInt32
        var buttons1: UInt8
        var buttons2: UInt8
        var home: UInt8
        var touchButton: UInt8
        var sticks: [UInt8]
        var analog: [UInt8]
        var touch1: (active: UInt8, id: UInt8, x: UInt16, y: UInt16)
        var timestamp: UInt64
        var accel: [Float]
        var gyro: [Float]

        static func == (lhs: PadData, rhs: PadData) -> Bool {
            lhs.active == rhs.active && lhs.counter == rhs.counter && lhs.buttons1 == rhs.buttons1
                && lhs.buttons2 == rhs.buttons2 && lhs.home == rhs.home && lhs.touchButton == rhs.touchButton
                && lhs.sticks == rhs.sticks && lhs.analog == rhs.analog && lhs.touch1 == rhs.touch1
                && lhs.timestamp == rhs.timestamp && lhs.accel == rhs.accel && lhs.gyro == rhs.gyro
        }
    }

    let id: UInt32
    private let descriptor: FileDescriptor
    private var watch: IOWatch?
    private(set) var messages: [Message] = []
    /// The datagrams and bytes it sent, and the bytes it received (whatever it decoded them as).
    private(set) var sentDatagrams = 0
    private(set) var sentBytes = 0
    private(set) var receivedBytes = 0
    /// Counts every datagram sent by the clients that share it (a test rig's).
    var tally: DatagramTally?
    private(set) var serverIDs: Set<UInt32> = []

    init(reactor: Reactor, serverPort: UInt16, host: UInt8 = 1, id: UInt32 = UInt32.random(in: 1...UInt32.max)) throws {
        self.id = id
        let opened = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard opened >= 0 else { throw ClientError("socket: errno \(errno)") }
        descriptor = FileDescriptor(owning: opened)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = (0x7F00_0000 | UInt32(host)).bigEndian
        var server = local
        server.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        server.sin_port = serverPort.bigEndian
        let fd = descriptor.rawValue
        guard Self.withAddress(&local, { bind(fd, $0, $1) }) == 0 else { throw ClientError("bind: errno \(errno)") }
        guard Self.withAddress(&server, { connect(fd, $0, $1) }) == 0 else { throw ClientError("connect: errno \(errno)") }
        watch = try reactor.watch(fd, interest: .readable) { [weak self] _ in self?.readAvailable() }
    }

    /// The watch goes first; `descriptor` closes after it, with the rest of the object.
    isolated deinit {
        watch?.cancel()
    }

    /// The port the kernel gave this client.
    var port: UInt16 {
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &local) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor.rawValue, $0, &length) }
        }
        return result == 0 ? UInt16(bigEndian: local.sin_port) : 0
    }

    struct ClientError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    private static func withAddress(_ address: inout sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }

    // MARK: Requests

    func requestVersion() { send(type: 0x10_0000, payload: []) }

    func requestInfo(slots: [UInt8]) {
        send(type: 0x10_0001, payload: Self.le32(UInt32(slots.count)) + slots)
    }

    /// Flags 0: every slot; 1: `slot`; 2: `mac`.
    func subscribe(flags: UInt8, slot: UInt8 = 0, mac: [UInt8] = [0, 0, 0, 0, 0, 0]) {
        send(type: 0x10_0002, payload: [flags, slot] + mac)
    }

    /// Sends `bytes` as they are.
    func sendRaw(_ bytes: [UInt8]) {
        let sent = bytes.withUnsafeBytes { Glibc.send(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { return }
        sentDatagrams += 1
        sentBytes += sent
        tally?.sent += 1
    }

    /// A well-formed request of `type`: "DSUC", 1001, the length after the header, the CRC32 with
    /// its field zeroed, this client's id, the type, the payload.
    func message(type: UInt32, payload: [UInt8]) -> [UInt8] {
        var bytes = Array("DSUC".utf8) + Self.le16(1001) + Self.le16(UInt16(4 + payload.count)) + [0, 0, 0, 0]
        bytes += Self.le32(id) + Self.le32(type) + payload
        let crc = BitwiseCRC32.of(bytes)
        bytes.replaceSubrange(8..<12, with: Self.le32(crc))
        return bytes
    }

    private func send(type: UInt32, payload: [UInt8]) { sendRaw(message(type: type, payload: payload)) }

    // MARK: Replies

    /// Reads every datagram waiting.
    func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { return }
            receivedBytes += count
            messages.append(decode(Array(buffer.prefix(count))))
        }
    }

    /// Forgets what was received so far.
    func clear() { messages.removeAll() }

    var dataMessages: [(slot: Slot, pad: PadData)] {
        messages.compactMap { if case .data(let slot, let pad) = $0 { (slot, pad) } else { nil } }
    }

    private func decode(_ bytes: [UInt8]) -> Message {
        guard bytes.count >= 20 else { return .invalid("\(bytes.count) bytes") }
        guard bytes[0..<4].elementsEqual("DSUS".utf8) else { return .invalid("magic") }
        guard Self.u16(bytes, 4) == 1001 else { return .invalid("version") }
        guard Int(Self.u16(bytes, 6)) + 16 == bytes.count else { return .invalid("length \(Self.u16(bytes, 6)) for \(bytes.count)") }
        var zeroed = bytes
        zeroed.replaceSubrange(8..<12, with: [0, 0, 0, 0])
        guard BitwiseCRC32.of(zeroed) == Self.u32(bytes, 8) else { return .invalid("crc") }
        serverIDs.insert(Self.u32(bytes, 12))
        // The slot description that opens info and data messages (read once the length is known).
        let slot = { Slot(slot: bytes[20], state: bytes[21], model: bytes[22], connection: bytes[23], mac: Array(bytes[24..<30]), battery: bytes[30]) }
        switch Self.u32(bytes, 16) {
        case 0x10_0000:
            guard bytes.count == 24 else { return .invalid("version reply of \(bytes.count) bytes") }
            return .version(Self.u16(bytes, 20))
        case 0x10_0001:
            guard bytes.count == 32 else { return .invalid("info reply of \(bytes.count) bytes") }
            return .info(slot())
        case 0x10_0002:
            guard bytes.count == 100 else { return .invalid("data of \(bytes.count) bytes") }
            let float = { (offset: Int) in Float(bitPattern: Self.u32(bytes, offset)) }
            let pad = PadData(
                active: bytes[31], counter: Self.u32(bytes, 32), buttons1: bytes[36], buttons2: bytes[37],
                home: bytes[38], touchButton: bytes[39], sticks: Array(bytes[40..<44]), analog: Array(bytes[44..<56]),
                touch1: (bytes[56], bytes[57], Self.u16(bytes, 58), Self.u16(bytes, 60)),
                timestamp: UInt64(Self.u32(bytes, 68)) | UInt64(Self.u32(bytes, 72)) << 32,
                accel: [float(76), float(80), float(84)], gyro: [float(88), float(92), float(96)])
            return .data(slot(), pad)
        default:
            return .invalid("type")
        }
    }

    // MARK: Bytes

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { le16(UInt16(value & 0xFFFF)) + le16(UInt16(value >> 16)) }
    static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 { UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8 }
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 { UInt32(u16(bytes, offset)) | UInt32(u16(bytes, offset + 2)) << 16 }
}

/// How many datagrams a set of clients sent.
@MainActor
final class DatagramTally {
    var sent = 0
}
