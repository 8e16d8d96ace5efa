import Descriptors
import EventLoop
#if canImport(Glibc)
import Glibc
#endif

/// `daydream-bench --loop-floor FD...`: the stand-in `daemon_load.py floor` runs in place of the
/// daemon. The daemon's event loop (`Reactor`) watches each socket as `NotificationStream` does
/// (non-blocking, level-triggered, one `read` per readiness) and writes one 48-byte frame (two
/// `input_event`s, as one ABS_X packet makes) to standard output per packet: the kernel-facing work
/// of the daemon under that load, with none of the bridge's code. It takes the sockets: each is its
/// watch's, which closes it at its end of file (or a read error). Returns when every socket has closed.
@MainActor
func runLoopFloor(descriptors: [Int32]) throws(SystemCallError) {
    let reactor = try Reactor()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 512, alignment: 8)
    let frame = UnsafeMutableRawBufferPointer.allocate(byteCount: 48, alignment: 8)
    frame.initializeMemory(as: UInt8.self, repeating: 0)
    defer {
        buffer.deallocate()
        frame.deallocate()
    }
    var open = descriptors.count
    var watches: [IOWatch] = []
    for descriptor in descriptors {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        // The handler owns the socket from here; if `watch` throws, the handler goes and closes it.
        var socket: FileDescriptor? = FileDescriptor(owning: descriptor)
        var watch: IOWatch?
        watch = try reactor.watch(descriptor, interest: .readable) { _ in
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                _ = write(STDOUT_FILENO, frame.baseAddress, frame.count)
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                watch?.cancel()
                watch = nil
                try? socket.take()?.close()
                open -= 1
                if open == 0 { reactor.stop() }
            }
        }
        if let watch { watches.append(watch) }
    }
    guard open > 0 else { return }
    reactor.run()
    for watch in watches { watch.cancel() }
}
