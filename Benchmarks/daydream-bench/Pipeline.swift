import Bridge
import DaydreamCore
import DaydreamProtocol
import EventVocabulary
import Mapping
import Timebase
import VirtualDevice

/// The daemon's per-packet path: the link hands the notification to the controller's
/// `ControllerFeed`, which decodes it and hands the packet to its consumer, the daemon's
/// `ControllerSession`, which runs the mapping engine, sends the events to the output and
/// re-arms its timer.
/// A configuration without profiles measures the library's path instead: the feed's consumer
/// is a `DDController` model (buttons with long-press timers, touchpad, motion).
@MainActor
final class Pipeline {
    let feed: ControllerFeed
    let session: ControllerSession?
    let model: DDController?

    init(_ profile: BenchProfile, output: any OutputSink, scheduler: any DeadlineScheduler) {
        feed = ControllerFeed(address: "C0:DD:EE:00:00:01")
        if profile.configuration.profiles.isEmpty {
            let model = DDController(address: feed.address, scheduler: scheduler)
            model.longPressDuration = profile.configuration.holdTime
            model.follow(feed)
            self.model = model
            session = nil
        } else {
            let session = ControllerSession(
                address: feed.address, configuration: profile.configuration, profileName: profile.profile,
                output: output, scheduler: scheduler)
            feed.attach(session)
            self.session = session
            model = nil
        }
        feed.linkChanged(connected: true, at: scheduler.now)
    }

    /// Runs one notification received at `time` through the whole path.
    @inline(__always)
    func process(_ bytes: UnsafeRawBufferPointer, at time: MonotonicTime) {
        feed.receive(bytes, at: time)
    }
}

/// The pipeline benchmark's output: encodes events as the 24-byte `struct input_event`
/// records a uinput write takes, one preallocated buffer per device, and writes nothing.
/// As the daemon's `InputEventWriter`, it zeroes the records once and then stores only each
/// event's type, code and value.
@MainActor
final class EncodingOutput: @MainActor OutputSink {
    static let recordSize = 24
    static let capacity = 256
    private let buffers: UnsafeMutablePointer<UnsafeMutableRawPointer>
    /// Events encoded per device in this call. Behind a pointer, as the daemon's writers keep
    /// theirs (`InputEventWriter`: an unchecked count and storage): an array here would pay a
    /// uniqueness check per event that the daemon's path does not.
    private let counts: UnsafeMutablePointer<Int>
    /// `OutputDeviceKind.count`, read once: a static `let` is a lazy global, checked at each read.
    private let deviceCount = OutputDeviceKind.count
    /// Events encoded since creation.
    @exclusivity(unchecked) private(set) var totalEvents = 0
    var label = ""
    var summary: [String] { ["events encoded in memory"] }

    init() {
        buffers = .allocate(capacity: OutputDeviceKind.count)
        for device in 0..<OutputDeviceKind.count {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.recordSize * Self.capacity, alignment: 8)
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Self.recordSize * Self.capacity)
            (buffers + device).initialize(to: buffer)
        }
        counts = .allocate(capacity: OutputDeviceKind.count)
        counts.initialize(repeating: 0, count: OutputDeviceKind.count)
    }

    isolated deinit {
        for device in 0..<OutputDeviceKind.count { buffers[device].deallocate() }
        buffers.deallocate()
        counts.deallocate()
    }

    func send(_ events: UnsafeBufferPointer<OutputEvent>, at time: MonotonicTime) {
        counts.update(repeating: 0, count: deviceCount)
        for event in events {
            let device = Int(event.device.rawValue)
            let count = counts[device]
            guard count < Self.capacity else { continue }
            // The time fields stay as zeroed at init, as `InputEventWriter` leaves them.
            let record = buffers[device] + count * Self.recordSize
            record.storeBytes(of: event.type, toByteOffset: 16, as: UInt16.self)
            record.storeBytes(of: event.code, toByteOffset: 18, as: UInt16.self)
            record.storeBytes(of: event.value, toByteOffset: 20, as: Int32.self)
            counts[device] = count + 1
        }
        totalEvents &+= events.count
    }

    /// Nothing is held: the records are not devices.
    func releaseAll(at time: MonotonicTime) {}
}
