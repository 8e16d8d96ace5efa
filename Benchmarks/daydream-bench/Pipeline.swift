import Daydream
import DaydreamProtocol
import Mapping
import Timebase

/// The daemon's per-packet path without the syscalls: decode, the controller model
/// (buttons, long-press timers, touchpad, motion), the mapping engine, and the events
/// encoded as the `struct input_event` records a uinput write takes.
@MainActor
final class Pipeline {
    let controller: DDController
    let scheduler: ManualScheduler
    private var engine: MappingEngine
    /// The events of the last packet, until the next one.
    private(set) var output = OutputBuffer()
    /// One `input_event` buffer per output device, as written to its uinput fd;
    /// nil when a sink encodes the events itself.
    let encoder: InputEventEncoder?
    /// Events produced by the last packet.
    private(set) var lastEventCount = 0
    /// Events produced since creation.
    private(set) var totalEvents = 0

    /// The capabilities of the devices this configuration needs.
    var capabilities: Capabilities { engine.capabilities }

    init(configuration: MappingConfiguration, profile: String?, encodes: Bool = true) {
        encoder = encodes ? InputEventEncoder() : nil
        scheduler = ManualScheduler()
        controller = DDController(address: "C0:DD:EE:00:00:01", scheduler: scheduler)
        engine = MappingEngine(configuration: configuration, profileName: profile)
        controller.longPressDuration = configuration.holdTime
        controller.packetHandler = { [unowned self] _, packet, time in
            self.map(packet, at: time)
        }
        controller.markConnected()
    }

    /// Runs one notification received at `time` through the whole path; the events
    /// are in `output` (and encoded in `encoder`) afterwards.
    @inline(__always)
    func process(_ bytes: UnsafeRawBufferPointer, at time: MonotonicTime) {
        output.removeAll()
        encoder?.reset()
        scheduler.advance(to: time)
        controller.receive(bytes, at: time)
    }

    private func map(_ packet: DaydreamPacket, at time: MonotonicTime) {
        engine.update(ControllerInput(packet: packet), at: time, into: &output)
        lastEventCount = output.events.count
        totalEvents &+= lastEventCount
        if let encoder {
            for event in output.events { encoder.append(event) }
        }
    }
}

/// Encodes `OutputEvent`s as 24-byte `struct input_event` records (timeval, type,
/// code, value; the kernel stamps the time) into one preallocated buffer per device,
/// so a frame goes to each uinput fd in a single `write(2)`.
final class InputEventEncoder {
    static let recordSize = 24
    static let capacity = 256
    private(set) var buffers: [UnsafeMutableRawPointer]
    private(set) var counts: [Int]

    init() {
        buffers = OutputDeviceKind.allCases.map { _ in
            UnsafeMutableRawPointer.allocate(byteCount: Self.recordSize * Self.capacity, alignment: 8)
        }
        for buffer in buffers { buffer.initializeMemory(as: UInt8.self, repeating: 0, count: Self.recordSize * Self.capacity) }
        counts = Array(repeating: 0, count: OutputDeviceKind.allCases.count)
    }

    deinit {
        for buffer in buffers { buffer.deallocate() }
    }

    @inline(__always)
    func reset() {
        for index in counts.indices { counts[index] = 0 }
    }

    @inline(__always)
    func append(_ event: OutputEvent) {
        let device = Int(event.device.rawValue)
        let count = counts[device]
        guard count < Self.capacity else { return }
        let record = buffers[device] + count * Self.recordSize
        record.storeBytes(of: 0, toByteOffset: 0, as: Int64.self)
        record.storeBytes(of: 0, toByteOffset: 8, as: Int64.self)
        record.storeBytes(of: event.type, toByteOffset: 16, as: UInt16.self)
        record.storeBytes(of: event.code, toByteOffset: 18, as: UInt16.self)
        record.storeBytes(of: event.value, toByteOffset: 20, as: Int32.self)
        counts[device] = count + 1
    }
}
