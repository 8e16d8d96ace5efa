import Descriptors
import DSU
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The DSU latency bench's client: a UDP socket on loopback, subscribed to slot 0, that dates
/// each data message by the kernel's receive timestamp (`SO_TIMESTAMPNS`, `CLOCK_REALTIME`).
/// On loopback the kernel stamps the datagram inside the server's `sendto`, so the stamp is
/// when it was sent, with no clock read added to the server's path.
///
/// Its own thread reads it (`run`), blocking, as a game's client would; it renews the
/// subscription as it goes, since one lapses after five seconds without a request.
final class TimestampingDSUClient: @unchecked Sendable {
    /// How many data messages it can date: packet counter N goes in entry N - 1.
    let capacity: Int
    /// `CLOCK_REALTIME` nanoseconds each data message reached the socket; 0 where none came.
    let stampedAt: UnsafeMutablePointer<Int64>
    /// Data messages received; read after `done`.
    private(set) var received = 0
    /// Messages that were not a dated data message of slot 0.
    private(set) var unexpected = 0
    let done = DispatchSemaphore(value: 0)
    /// The client's socket, closed when the client goes (after its thread).
    private let descriptor: FileDescriptor
    private let subscription: [UInt8]

    /// A client on 127.0.0.1 talking to the server at `serverPort`; `capacity` packets' worth.
    init(serverPort: UInt16, capacity: Int) throws {
        self.capacity = capacity
        do {
            descriptor = try FileDescriptor(
                checking: socket(AF_INET, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0), from: "socket")
        } catch {
            throw BenchError("DSU client \(error)")
        }
        stampedAt = .allocate(capacity: capacity)
        stampedAt.initialize(repeating: 0, count: capacity)
        subscription = Self.subscribeRequest(clientID: 0x6265_6E63)
        var on: CInt = 1
        var receiveBuffer: CInt = 1 << 20
        // Silence for a second ends `run`: by then every datagram sent has arrived.
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        local.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var server = local
        server.sin_port = serverPort.bigEndian
        let fd = descriptor.rawValue
        guard setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &on, socklen_t(MemoryLayout<CInt>.size)) == 0,
              setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receiveBuffer, socklen_t(MemoryLayout<CInt>.size)) == 0,
              setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0,
              Self.withAddress(&local, { bind(fd, $0, $1) }) == 0,
              Self.withAddress(&server, { connect(fd, $0, $1) }) == 0
        else {
            // Every property is set, so `deinit` runs (it frees the stamps) and the socket closes.
            throw BenchError("DSU client setup: \(String(cString: strerror(errno)))")
        }
    }

    deinit { stampedAt.deallocate() }

    /// Sends (or renews) the subscription to slot 0.
    func subscribe() {
        _ = subscription.withUnsafeBytes { send(descriptor.rawValue, $0.baseAddress, $0.count, 0) }
    }

    /// Reads data messages until `expected` have come or a second passes without one.
    func run(expected: Int) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 2048, alignment: 8)
        let control = UnsafeMutableRawBufferPointer.allocate(byteCount: 256, alignment: 8)
        defer {
            buffer.deallocate()
            control.deallocate()
            done.signal()
        }
        let descriptor = descriptor.rawValue
        var vector = iovec(iov_base: buffer.baseAddress, iov_len: buffer.count)
        while received < expected {
            var message = msghdr()
            let length = withUnsafeMutablePointer(to: &vector) { vectorPointer -> Int in
                message.msg_iov = vectorPointer
                message.msg_iovlen = 1
                message.msg_control = control.baseAddress
                message.msg_controllen = control.count
                return recvmsg(descriptor, &message, 0)
            }
            if length < 0, errno == EINTR { continue }
            guard length >= 0 else { return }
            guard length == DSUReply.controllerDataLength,
                  buffer.load(fromByteOffset: 16, as: UInt32.self) == DSUMessageType.controllerData.rawValue.littleEndian,
                  let stamp = Self.timestamp(in: UnsafeRawBufferPointer(rebasing: control[0..<Int(message.msg_controllen)]))
            else {
                unexpected += 1
                continue
            }
            let counter = Int(UInt32(littleEndian: buffer.loadUnaligned(fromByteOffset: 32, as: UInt32.self)))
            if counter >= 1, counter <= capacity { stampedAt[counter - 1] = stamp } else { unexpected += 1 }
            received += 1
            if received % 1000 == 0 { subscribe() }
        }
    }

    /// The `SCM_TIMESTAMPNS` control message's time in nanoseconds, if there is one.
    private static func timestamp(in control: UnsafeRawBufferPointer) -> Int64? {
        let headerSize = MemoryLayout<cmsghdr>.size
        let align = MemoryLayout<Int>.size
        var offset = 0
        while offset + headerSize <= control.count {
            let header = control.loadUnaligned(fromByteOffset: offset, as: cmsghdr.self)
            let length = Int(header.cmsg_len)
            guard length >= headerSize, offset + length <= control.count else { return nil }
            if header.cmsg_level == SOL_SOCKET, header.cmsg_type == SO_TIMESTAMPNS,
               length >= headerSize + MemoryLayout<timespec>.size {
                let spec = control.loadUnaligned(fromByteOffset: offset + headerSize, as: timespec.self)
                return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
            }
            offset += (length + align - 1) / align * align
        }
        return nil
    }

    /// A controller-data request for slot 0: the header ("DSUC", version, length after the
    /// header, CRC32, client id), the type, then flags 1 (by slot), the slot, a zero MAC.
    private static func subscribeRequest(clientID: UInt32) -> [UInt8] {
        func le(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let payload: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0]
        let afterHeader = UInt16(4 + payload.count)
        var bytes = DSUProtocol.clientMagic
        bytes += [UInt8(truncatingIfNeeded: DSUProtocol.version), UInt8(DSUProtocol.version >> 8)]
        bytes += [UInt8(truncatingIfNeeded: afterHeader), UInt8(afterHeader >> 8)]
        bytes += [0, 0, 0, 0] + le(clientID) + le(DSUMessageType.controllerData.rawValue) + payload
        bytes.withUnsafeMutableBytes { DSUChecksum.seal($0) }
        return bytes
    }

    private static func withAddress(_ address: inout sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) -> CInt) -> CInt {
        withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
