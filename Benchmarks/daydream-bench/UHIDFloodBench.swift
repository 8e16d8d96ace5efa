import Descriptors
import EventLoop
import EventVocabulary
import Foundation
import Mapping
import Synchronization
import Timebase
import VirtualDualSense
import VirtualHID
#if canImport(Glibc)
import Glibc
#endif

/// What a flood of output reports (rumble, lights: `UHID_OUTPUT`) costs the bridge.
struct UHIDFloodResult {
    var reports: Int
    var seconds: Double
    /// The loop thread's CPU time (user and system) over the flood's wall time.
    var cpuPercent: Double
    /// Loop turns (each a wake-up from epoll_wait) during the flood.
    var wakeUps: Int
    /// Output reports the device counted.
    var counted: Int
    /// Reports the fake kernel could not queue (its socket was full), as uhid drops them when
    /// its queue is.
    var dropped: Int
}

/// The kernel's side of the flood: `count` `UHID_OUTPUT` events of a Bluetooth DualSense's
/// output report (0x31, 78 bytes, as hid-playstation and SDL write it), each a whole
/// `struct uhid_event` as uhid queues it, spread evenly over the flood: the thread sleeps
/// until each is due and writes every one that is. Only this thread touches the socket once
/// it runs; the counts are atomic.
final class OutputReportFlood: @unchecked Sendable {
    let socket: FileDescriptor
    let count: Int
    let spacingNanoseconds: Int64
    let dropped = Atomic<Int>(0)
    let finished = Atomic<Bool>(false)

    init(socket: consuming FileDescriptor, count: Int, spacingNanoseconds: Int64) {
        self.socket = socket
        self.count = count
        self.spacingNanoseconds = spacingNanoseconds
    }

    func run() {
        var message = [UInt8](repeating: 0, count: UHIDMessage.eventSize)
        message[0] = UInt8(UHIDMessage.EventType.output.rawValue)
        message[4] = 0x31
        message[4 + UHIDMessage.maximumDataSize] = 78  // size, little endian
        message[4 + UHIDMessage.maximumDataSize + 2] = 1  // UHID_OUTPUT_REPORT
        let start = monotonicNanoseconds()
        message.withUnsafeBytes { bytes in
            for index in 0..<count {
                sleepUntil(start + Int64(index) * spacingNanoseconds)
                if write(socket.rawValue, bytes.baseAddress, bytes.count) != bytes.count {
                    dropped.add(1, ordering: .relaxed)
                }
            }
        }
        finished.store(true, ordering: .releasing)
    }
}

/// `reports` output reports over `seconds` into a `DualSenseDeviceSet` whose `/dev/uhid` is a
/// `socketpair(SOCK_SEQPACKET)` (one message per read, as uhid gives one event per read), read
/// by the daemon's event loop on this thread, watched as the daemon watches it (its timers
/// included); the flood comes from another thread, as from a game. The figure is this thread's
/// CPU time (`CLOCK_THREAD_CPUTIME_ID`: user and system, the reads included) over the wall time
/// from the flood's start to its last report read.
@MainActor
func measureUHIDFlood(reports: Int = 34_000, seconds: Double = 4) throws -> UHIDFloodResult {
    var pair: [CInt] = [-1, -1]
    guard socketpair(AF_UNIX, CInt(SOCK_SEQPACKET.rawValue) | CInt(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        throw BenchError("socketpair: \(String(cString: strerror(errno)))")
    }
    let kernel = FileDescriptor(owning: pair[0])
    let device = FileDescriptor(owning: pair[1])
    _ = fcntl(pair[0], F_SETFL, fcntl(pair[0], F_GETFL) | O_NONBLOCK)
    _ = fcntl(pair[1], F_SETFL, fcntl(pair[1], F_GETFL) | O_NONBLOCK)
    let reactor: Reactor
    let set: DualSenseDeviceSet
    do {
        reactor = try Reactor()
        set = try DualSenseDeviceSet(
            capabilities: Capabilities([.gamepad: FixedPad.dualsense.capabilities]), uhid: device, scheduler: reactor)
    } catch {
        throw BenchError("the DualSense: \(error)")
    }
    set.label = "EC:12:34:56:78:9A"
    do {
        try set.watch(on: reactor)  // as the daemon's GamepadSinkFactory watches it
    } catch {
        throw BenchError("watching the DualSense: \(error)")
    }
    // The first report creates the device; the driver binds it.
    set.controllerInput(ControllerInput(), at: reactor.now)
    var sink = [UInt8](repeating: 0, count: UHIDMessage.eventSize)
    while sink.withUnsafeMutableBytes({ read(kernel.rawValue, $0.baseAddress, $0.count) }) > 0 {}
    let startEvent: [UInt8] = [2, 0, 0, 0]
    _ = startEvent.withUnsafeBytes { write(kernel.rawValue, $0.baseAddress, $0.count) }
    reactor.runOnce(timeout: .milliseconds(100))

    let flood = OutputReportFlood(
        socket: kernel, count: reports, spacingNanoseconds: Int64(seconds * 1e9) / Int64(reports))
    let cpuBefore = threadCPUNanoseconds()
    let wallBefore = monotonicNanoseconds()
    let thread = Thread { flood.run() }
    thread.start()
    let handled = {
        (set.counters?.outputReports ?? 0) + flood.dropped.load(ordering: .relaxed) >= reports
            && flood.finished.load(ordering: .acquiring)
    }
    // Each turn is a wake-up: the loop sleeps in epoll_wait until the descriptor or a timer is ready.
    var wakeUps = 0
    let deadline = wallBefore + Int64((seconds + 30) * 1e9)
    while !handled() {
        guard monotonicNanoseconds() < deadline else {
            throw BenchError("only \(set.counters?.outputReports ?? 0) of \(reports) output reports arrived")
        }
        reactor.runOnce(timeout: .milliseconds(100))
        wakeUps += 1
    }
    let wall = monotonicNanoseconds() - wallBefore
    let cpu = threadCPUNanoseconds() - cpuBefore
    return UHIDFloodResult(
        reports: reports, seconds: Double(wall) / 1e9, cpuPercent: 100 * Double(cpu) / Double(wall), wakeUps: wakeUps,
        counted: set.counters?.outputReports ?? 0, dropped: flood.dropped.load(ordering: .relaxed))
}

/// This thread's CPU time, user and system, in nanoseconds.
func threadCPUNanoseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
}

extension UHIDFloodResult {
    /// The table's lines.
    var lines: [String] {
        [
            "DualSense output-report flood: \(reports) UHID_OUTPUT in \(String(format: "%.2f", seconds)) s through a fake /dev/uhid",
            String(format: "  (socketpair), read by the daemon's loop and DualSenseDeviceSet: %.1f %% of a core (loop thread CPU over wall time),", cpuPercent),
            "  \(wakeUps) wake-ups, \(counted) reports counted, \(dropped) not queued",
        ]
    }
}
