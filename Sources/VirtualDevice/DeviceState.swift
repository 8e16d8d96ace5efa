import EventVocabulary

/// One device's declared codes and its current state (keys down, axis
/// positions), as last written. Fixed-size storage: updating never allocates.
///
/// It answers two questions the kernel would not: was an event's code
/// declared (the kernel drops undeclared codes silently), and what must be
/// written to release everything.
public struct DeviceState: Sendable {
    /// The codes the device carries.
    public let capabilities: DeviceCapabilities
    /// The codes declared, as bits.
    public let declared: DeclaredCodes
    private var keysDown = CodeBits(count: EventCode.keyCount)
    private var axisValues: [Int32]

    /// A device at rest: no key down, every axis at its resting value.
    public init(capabilities: DeviceCapabilities) {
        self.capabilities = capabilities
        axisValues = Array(repeating: 0, count: EventCode.absCount)
        declared = DeclaredCodes(capabilities)
        for axis in capabilities.absoluteAxes where Int(axis.code) < EventCode.absCount {
            axisValues[Int(axis.code)] = axis.info.value
        }
    }

    /// Whether the device carries this code (`EV_SYN` always).
    public func isDeclared(type: UInt16, code: UInt16) -> Bool {
        declared.contains(type: type, code: code)
    }

    /// Takes the values of the axes whose codes are bits of `axes`, and the keys down when
    /// `keys`, from `other`, a state of the same device, into this state's own storage: what a
    /// frame changed. `self = other` would share the tables, and the next change to either would
    /// copy them, an allocation a frame; this allocates nothing once the two have storage of
    /// their own.
    public mutating func takeValues(from other: borrowing DeviceState, axes: UInt64, keys: Bool) {
        if keys { keysDown.take(other.keysDown) }
        guard axes != 0 else { return }
        axisValues.withUnsafeMutableBufferPointer { mine in
            other.axisValues.withUnsafeBufferPointer { theirs in
                var pending = axes
                while pending != 0 {
                    let code = pending.trailingZeroBitCount
                    pending &= pending &- 1
                    guard code < mine.count, code < theirs.count else { break }
                    mine[code] = theirs[code]
                }
            }
        }
    }

    /// Notes an event as written.
    public mutating func record(type: UInt16, code: UInt16, value: Int32) {
        if type == EventType.key {
            keysDown[code] = value != 0
        } else if type == EventType.abs && Int(code) < EventCode.absCount {
            axisValues[Int(code)] = value
        }
    }

    /// Whether this key is down.
    public func isDown(_ key: UInt16) -> Bool { keysDown[key] }

    /// The axis's last written value (its resting value before any).
    public func value(ofAxis code: UInt16) -> Int32? {
        declared.contains(type: EventType.abs, code: code) ? axisValues[Int(code)] : nil
    }

    /// Whether every key is up and every axis at rest.
    public var isAtRest: Bool {
        !capabilities.keys.contains { keysDown[$0] }
            && !capabilities.absoluteAxes.contains { axisValues[Int($0.code)] != $0.info.value }
    }

    /// Widens this state by `attempted`, a state that may or may not have reached the device (its
    /// frame's write failed): a key counts as down when either has it down, and an axis at rest here
    /// takes `attempted`'s value. So releasing everything covers whatever the device might hold.
    public mutating func includeUncertain(_ attempted: DeviceState) {
        for key in capabilities.keys where attempted.keysDown[key] { keysDown[key] = true }
        for axis in capabilities.absoluteAxes where axisValues[Int(axis.code)] == axis.info.value {
            axisValues[Int(axis.code)] = attempted.axisValues[Int(axis.code)]
        }
    }

    /// Calls `body` with each event that takes the device from this state to `target` (a state
    /// of the same device): keys first, by code, then axes; without `SYN_REPORT`.
    public func forEachChange<E: Error>(
        to target: DeviceState, _ body: (_ type: UInt16, _ code: UInt16, _ value: Int32) throws(E) -> Void
    ) throws(E) {
        for key in capabilities.keys where keysDown[key] != target.keysDown[key] {
            try body(EventType.key, key, target.keysDown[key] ? 1 : 0)
        }
        for axis in capabilities.absoluteAxes where axisValues[Int(axis.code)] != target.axisValues[Int(axis.code)] {
            try body(EventType.abs, axis.code, target.axisValues[Int(axis.code)])
        }
    }

    /// Calls `body` with each event that releases a key that is down or
    /// returns an axis to rest (keys first, by code; then axes), without `SYN_REPORT`.
    public func forEachRelease<E: Error>(_ body: (_ type: UInt16, _ code: UInt16, _ value: Int32) throws(E) -> Void) throws(E) {
        for key in capabilities.keys where keysDown[key] {
            try body(EventType.key, key, 0)
        }
        for axis in capabilities.absoluteAxes where axisValues[Int(axis.code)] != axis.info.value {
            try body(EventType.abs, axis.code, axis.info.value)
        }
    }
}

/// The codes a device declares, as bits: what `DeviceState.isDeclared` answers from.
public struct DeclaredCodes: Sendable {
    private var keys = CodeBits(count: EventCode.keyCount)
    private var relative: UInt64 = 0
    private var absolute: UInt64 = 0
    private var misc: UInt64 = 0

    /// The codes of `capabilities` (relative, absolute and misc codes from 64 on are never declared).
    public init(_ capabilities: DeviceCapabilities) {
        for key in capabilities.keys { keys[key] = true }
        for axis in capabilities.relativeAxes where axis < 64 { relative |= 1 << UInt64(axis) }
        for code in capabilities.miscCodes where code < 64 { misc |= 1 << UInt64(code) }
        for axis in capabilities.absoluteAxes where axis.code < 64 { absolute |= 1 << UInt64(axis.code) }
    }

    /// Whether the code is declared (`EV_SYN` always).
    public func contains(type: UInt16, code: UInt16) -> Bool {
        switch type {
        case EventType.syn: true
        case EventType.key: keys[code]
        case EventType.rel: code < 64 && relative & (1 << UInt64(code)) != 0
        case EventType.abs: code < 64 && absolute & (1 << UInt64(code)) != 0
        case EventType.msc: code < 64 && misc & (1 << UInt64(code)) != 0
        default: false
        }
    }
}

/// A fixed-size set of event codes, one bit each.
struct CodeBits: Sendable {
    private var words: [UInt64]

    /// Takes `other`'s bits (a set of the same size) into this set's own storage.
    mutating func take(_ other: borrowing CodeBits) {
        words.withUnsafeMutableBufferPointer { mine in
            other.words.withUnsafeBufferPointer { theirs in
                _ = mine.update(fromContentsOf: theirs)
            }
        }
    }

    /// A set for codes `0..<count`, all clear.
    init(count: Int) {
        words = Array(repeating: 0, count: (count + 63) / 64)
    }

    /// Whether `code` is in the set; codes past the end read as absent and are never stored.
    subscript(code: UInt16) -> Bool {
        get {
            let index = Int(code) / 64
            guard index < words.count else { return false }
            return words[index] & (1 << UInt64(code % 64)) != 0
        }
        set {
            let index = Int(code) / 64
            guard index < words.count else { return }
            if newValue {
                words[index] |= 1 << UInt64(code % 64)
            } else {
                words[index] &= ~(1 << UInt64(code % 64))
            }
        }
    }
}
