#if canImport(Glibc)
import Glibc
#endif
import Descriptors
import Testing
import SystemIntegration

/// sd_notify's protocol against real AF_UNIX datagram sockets, bound to a
/// path and to an abstract name, as systemd's would be.
@Suite("systemd notify")
struct ServiceNotifierTests {
    /// A bound datagram socket standing in for systemd's notify socket.
    final class FakeManager {
        let fd: FileDescriptor
        let name: String
        private let path: String?

        /// Binds to `name`: a path, or `@abstract`.
        init(name: String) throws {
            let opened = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            try #require(opened >= 0)
            fd = FileDescriptor(owning: opened)
            self.name = name
            path = name.hasPrefix("@") ? nil : name
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            let abstract = bytes.first == UInt8(ascii: "@")
            if abstract { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
            let length = socklen_t(2 + bytes.count + (abstract ? 0 : 1))
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd.rawValue, $0, length) }
            }
            try #require(result == 0, "bind \(name): errno \(errno)")
        }

        /// Removes the socket's file; `fd` closes after, with the rest of the object.
        deinit {
            if let path { unlink(path) }
        }

        /// The next datagram, or nil if none arrives within a second.
        func receive() -> String? {
            var poller = pollfd(fd: fd.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) == 1 else { return nil }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = buffer.withUnsafeMutableBytes { recv(fd.rawValue, $0.baseAddress, $0.count, 0) }
            guard count >= 0 else { return nil }
            return String(decoding: buffer.prefix(count), as: UTF8.self)
        }
    }

    static func uniqueName() -> String {
        "daydream-bridge-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    @Test func readyAndStatusReachAPathSocket() throws {
        let manager = try FakeManager(name: "/tmp/\(Self.uniqueName()).sock")
        let notifier = try ServiceNotifier(socketName: manager.name)
        try notifier.ready(status: "1 controller: C0:DD:EE:00:00:01 (gamepad)")
        #expect(manager.receive() == "READY=1\nSTATUS=1 controller: C0:DD:EE:00:00:01 (gamepad)")
        try notifier.status("waiting for controllers")
        #expect(manager.receive() == "STATUS=waiting for controllers")
    }

    @Test func abstractSocketNamesWork() throws {
        let manager = try FakeManager(name: "@\(Self.uniqueName())")
        let notifier = try ServiceNotifier(socketName: manager.name)
        try notifier.stopping()
        #expect(manager.receive() == "STOPPING=1")
    }

    @Test func reloadingCarriesTheMonotonicTime() throws {
        let manager = try FakeManager(name: "@\(Self.uniqueName())")
        let notifier = try ServiceNotifier(socketName: manager.name)
        var before = timespec()
        clock_gettime(CLOCK_MONOTONIC, &before)
        try notifier.reloading()
        let message = try #require(manager.receive())
        let fields = message.split(separator: "\n")
        #expect(fields.first == "RELOADING=1")
        let usec = try #require(fields.dropFirst().first.flatMap { field in
            field.hasPrefix("MONOTONIC_USEC=") ? UInt64(field.dropFirst(15)) : nil
        })
        #expect(usec >= UInt64(before.tv_sec) * 1_000_000)
        try notifier.ready()
        #expect(manager.receive() == "READY=1")
    }

    @Test func statusStaysOnOneLine() throws {
        let manager = try FakeManager(name: "@\(Self.uniqueName())")
        let notifier = try ServiceNotifier(socketName: manager.name)
        try notifier.status("two\nlines")
        #expect(manager.receive() == "STATUS=two lines")
    }

    @Test func environmentDecides() throws {
        let manager = try FakeManager(name: "@\(Self.uniqueName())")
        #expect(try ServiceNotifier(notifySocket: nil) == nil)
        #expect(try ServiceNotifier(notifySocket: "") == nil)
        let notifier = try #require(try ServiceNotifier(notifySocket: manager.name))
        try notifier.ready()
        #expect(manager.receive() == "READY=1")
    }

    @Test func noListenerIsAClearError() throws {
        let name = "/tmp/\(Self.uniqueName()).absent"
        let notifier = try ServiceNotifier(socketName: name)
        #expect(throws: ServiceNotifierError.sendFailed(name, errno: ENOENT)) { try notifier.ready() }
        #expect(ServiceNotifierError.sendFailed(name, errno: ENOENT).description
            == "cannot notify systemd at \(name): No such file or directory")
    }

    @Test(arguments: ["vsock:2:1234", "relative/path", "/" + String(repeating: "x", count: 120)])
    func unsupportedAddressesAreRefused(name: String) {
        #expect(throws: ServiceNotifierError.unsupportedAddress(name)) { try ServiceNotifier(socketName: name) }
    }
}
