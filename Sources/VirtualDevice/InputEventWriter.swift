#if canImport(Glibc)
import Glibc
#endif
import CEvdev
import Descriptors
import EventVocabulary

/// Packs events into a preallocated array of `struct input_event` and sends
/// each frame to a file descriptor with one `write(2)` (or, for a device set
/// in memory, appends it to the set's `EventLog`).
///
/// The kernel's uinput takes any number of whole events per write and stamps
/// them itself, so the time fields stay zero. Nothing allocates after `init`.
public final class InputEventWriter {
    /// The file descriptor written to; not owned. -1 for a writer into memory.
    public let fileDescriptor: Int32
    /// Where a writer into memory keeps its frames, and the kind they are logged as.
    private let memory: (log: EventLog, kind: OutputDeviceKind)?
    /// How many events fit before a frame is sent in parts.
    public let capacity: Int
    /// Events buffered and not yet written. Touched for every event; unchecked, it skips the
    /// run-time exclusivity checks, and no two accesses can overlap (nothing is called while
    /// one lasts: `flush` empties the count before it writes).
    @exclusivity(unchecked) public private(set) var count = 0
    /// Whose events these are, for error messages.
    let deviceName: String
    private let storage: UnsafeMutablePointer<input_event>

    /// A writer for `fileDescriptor` holding up to `capacity` events per write.
    public convenience init(fileDescriptor: Int32, capacity: Int, deviceName: String) {
        self.init(fileDescriptor: fileDescriptor, memory: nil, capacity: capacity, deviceName: deviceName)
    }

    /// A writer appending each frame to `log`, as events of the device of `kind`.
    convenience init(log: EventLog, kind: OutputDeviceKind, capacity: Int, deviceName: String) {
        self.init(fileDescriptor: -1, memory: (log, kind), capacity: capacity, deviceName: deviceName)
    }

    private init(fileDescriptor: Int32, memory: (log: EventLog, kind: OutputDeviceKind)?, capacity: Int, deviceName: String) {
        self.fileDescriptor = fileDescriptor
        self.memory = memory
        self.capacity = max(capacity, 2)
        self.deviceName = deviceName
        storage = .allocate(capacity: self.capacity)
        storage.initialize(repeating: input_event(), count: self.capacity)
    }

    deinit {
        storage.deallocate()
    }

    /// Buffers one event. A frame larger than `capacity` is written in parts;
    /// readers still see it whole, since evdev delivers at `SYN_REPORT`.
    public func append(type: UInt16, code: UInt16, value: Int32) throws(VirtualDeviceError) {
        if count == capacity { try flush() }
        storage[count].type = type
        storage[count].code = code
        storage[count].value = value
        count += 1
    }

    /// Buffers `SYN_REPORT` and writes the frame.
    public func endFrame() throws(VirtualDeviceError) {
        try append(type: EventType.syn, code: EventCode.synReport, value: 0)
        try flush()
    }

    /// Writes every buffered event with one `write(2)` (retried on `EINTR`,
    /// continued on a short write) and empties the buffer. Nothing buffered:
    /// nothing written. On failure the buffer is dropped too.
    public func flush() throws(VirtualDeviceError) {
        guard count > 0 else { return }
        if let memory {
            if let code = memory.log.failsWith {
                count = 0
                throw .writeFailed(device: deviceName, errno: code)
            }
            for event in UnsafeBufferPointer(start: storage, count: count) {
                memory.log.events.append(OutputEvent(device: memory.kind, type: event.type, code: event.code, value: event.value))
            }
            count = 0
            return
        }
        let total = count * MemoryLayout<input_event>.stride
        count = 0
        let bytes = UnsafeRawPointer(storage)
        var written = 0
        while written < total {
            let result = retryingOnInterrupt { write(fileDescriptor, bytes + written, total - written) }
            if result < 0 {
                throw .writeFailed(device: deviceName, errno: errno)
            }
            if result == 0 { throw .writeFailed(device: deviceName, errno: EIO) }
            written += result
        }
    }

    /// Drops buffered events without writing them.
    public func discard() {
        count = 0
    }
}
