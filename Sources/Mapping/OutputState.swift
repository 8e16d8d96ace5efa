import EventVocabulary

/// What the virtual devices currently show, per device and code: which keys are down (with a
/// count, so two bindings on one code never release each other's press) and where each
/// absolute axis is.
///
/// Every change goes into the buffer; unchanged values are not repeated. Dense tables indexed
/// by `OutputDeviceKind.rawValue` and code (`device * codes + code`), allocated once at init.
/// Noncopyable, so the tables are its own and a change needs no copy-on-write check; indices
/// are checked against the code ranges before any access. Sendable unchecked: being
/// noncopyable, it is the only way to its tables, so whoever holds it holds them alone.
struct OutputState: ~Copyable, @unchecked Sendable {
    // Computed, so the packet path reads constants (no lazy global's once-check).
    private static var keyCodes: Int { EventCode.keyCount }
    private static var absoluteCodes: Int { EventCode.absCount }
    private static var relativeCodes: Int { EventCode.relCount }
    /// Each device's run in `relative`: its codes, then the bits of the codes added to.
    private static var relativeStride: Int { relativeCodes + 1 }
    /// The tables' sizes: every device's run.
    private static var keyTableSize: Int { OutputDeviceKind.count * keyCodes }
    private static var absoluteTableSize: Int { OutputDeviceKind.count * absoluteCodes }
    private static var relativeTableSize: Int { OutputDeviceKind.count * relativeStride }

    /// Presses per device and `EV_KEY` code.
    private let keyCounts: UnsafeMutablePointer<UInt8>
    /// How many (device, code) pairs of `keyCounts` went from 0 to pressed and not back; never
    /// fewer than are down, so `releaseEverything` can stop once it has released them all.
    private var keysDown = 0
    /// Current value per device and `EV_ABS` code.
    private let absValues: UnsafeMutablePointer<Int32>
    /// Rest value per device and `EV_ABS` code (from the capabilities).
    private let absRest: UnsafeMutablePointer<Int32>
    /// Pending relative motion per device and `EV_REL` code, summed within a frame and written by
    /// `flushRelative`; after each device's codes, the codes added to since the flush, as bits.
    private let relative: UnsafeMutablePointer<Int32>
    /// Devices with pending relative motion, as bits of `OutputDeviceKind.rawValue`.
    private var relativeDevices: UInt64 = 0

    init(capabilities: Capabilities) {
        precondition(Self.relativeCodes <= UInt32.bitWidth, "one bit per EV_REL code")
        keyCounts = .allocate(capacity: Self.keyTableSize)
        keyCounts.initialize(repeating: 0, count: Self.keyTableSize)
        absValues = .allocate(capacity: Self.absoluteTableSize)
        absValues.initialize(repeating: 0, count: Self.absoluteTableSize)
        absRest = .allocate(capacity: Self.absoluteTableSize)
        absRest.initialize(repeating: 0, count: Self.absoluteTableSize)
        relative = .allocate(capacity: Self.relativeTableSize)
        relative.initialize(repeating: 0, count: Self.relativeTableSize)
        for kind in capabilities.deviceKinds {
            for axis in capabilities[kind]?.absoluteAxes ?? [] where Int(axis.code) < Self.absoluteCodes {
                let index = Self.absoluteIndex(axis.code, on: kind)
                absRest[index] = axis.info.value
                absValues[index] = axis.info.value
            }
        }
    }

    deinit {
        // Trivial elements: nothing to deinitialize.
        keyCounts.deallocate()
        absValues.deallocate()
        absRest.deallocate()
        relative.deallocate()
    }

    @inline(__always)
    private static func keyIndex(_ code: UInt16, on device: OutputDeviceKind) -> Int {
        Int(device.rawValue) * keyCodes + Int(code)
    }

    @inline(__always)
    private static func absoluteIndex(_ code: UInt16, on device: OutputDeviceKind) -> Int {
        Int(device.rawValue) * absoluteCodes + Int(code)
    }

    /// True when any key is down or any axis is away from rest.
    var isIdle: Bool {
        !UnsafeBufferPointer(start: keyCounts, count: Self.keyTableSize).contains(where: { $0 != 0 })
            && absValuesAtRest
    }

    /// Whether every absolute axis is at its rest value.
    private var absValuesAtRest: Bool {
        UnsafeBufferPointer(start: absValues, count: Self.absoluteTableSize)
            .elementsEqual(UnsafeBufferPointer(start: absRest, count: Self.absoluteTableSize))
    }

    /// Presses `code` on `device` (emitting only the first press).
    mutating func press(_ code: UInt16, on device: OutputDeviceKind, into output: inout OutputBuffer) {
        guard Int(code) < Self.keyCodes else { return }
        let index = Self.keyIndex(code, on: device)
        if keyCounts[index] == 0 {
            output.append(device, type: EventType.key, code: code, value: 1)
            keysDown += 1
        }
        keyCounts[index] &+= 1
    }

    /// Releases one press of `code` on `device` (emitting only the last release).
    mutating func release(_ code: UInt16, on device: OutputDeviceKind, into output: inout OutputBuffer) {
        guard Int(code) < Self.keyCodes else { return }
        let index = Self.keyIndex(code, on: device)
        guard keyCounts[index] > 0 else { return }
        keyCounts[index] -= 1
        if keyCounts[index] == 0 {
            output.append(device, type: EventType.key, code: code, value: 0)
            keysDown -= 1
        }
    }

    /// Moves an absolute axis of `device` (emitting only a change).
    mutating func setAbsolute(_ code: UInt16, _ value: Int32, on device: OutputDeviceKind, into output: inout OutputBuffer) {
        guard Int(code) < Self.absoluteCodes else { return }
        let index = Self.absoluteIndex(code, on: device)
        guard absValues[index] != value else { return }
        absValues[index] = value
        output.append(device, type: EventType.abs, code: code, value: value)
    }

    /// `setAbsolute` into room the caller reserved in `output` (`OutputBuffer.reserve`).
    @inline(__always)
    mutating func setAbsoluteReserved(_ code: UInt16, _ value: Int32, on device: OutputDeviceKind, into output: inout OutputBuffer) {
        guard Int(code) < Self.absoluteCodes else { return }
        let index = Self.absoluteIndex(code, on: device)
        guard absValues[index] != value else { return }
        absValues[index] = value
        output.appendReserved(device, type: EventType.abs, code: code, value: value)
    }

    /// Returns an absolute axis of `device` to its rest value.
    mutating func centreAbsolute(_ code: UInt16, on device: OutputDeviceKind, into output: inout OutputBuffer) {
        guard Int(code) < Self.absoluteCodes else { return }
        setAbsolute(code, absRest[Self.absoluteIndex(code, on: device)], on: device, into: &output)
    }

    /// Adds relative motion of `device` to the current frame (inlined: several calls a packet).
    @inline(__always)
    mutating func addRelative(_ code: UInt16, _ value: Int32, on device: OutputDeviceKind) {
        guard Int(code) < Self.relativeCodes, value != 0 else { return }
        let first = Int(device.rawValue) * Self.relativeStride
        relative[first + Int(code)] &+= value
        // Masking shifts: the code is below 32 and the kind's bit below 64 (both checked at init).
        relative[first + Self.relativeCodes] |= Int32(bitPattern: 1 &<< UInt32(code))
        relativeDevices |= 1 &<< UInt64(device.rawValue)
    }

    /// Writes the summed relative motion (non-zero codes, by device, then in code order) and clears it.
    /// Inlined: most packets of most profiles have none.
    @inline(__always)
    mutating func flushRelative(into output: inout OutputBuffer) {
        if relativeDevices != 0 { writeRelative(into: &output) }
    }

    @inline(never)
    private mutating func writeRelative(into output: inout OutputBuffer) {
        var pending = relativeDevices
        relativeDevices = 0
        while pending != 0 {
            let raw = pending.trailingZeroBitCount
            pending &= pending - 1
            guard let device = OutputDeviceKind(rawValue: UInt8(raw)) else { continue }
            let first = raw * Self.relativeStride
            // Only the codes added to, lowest first, in the order of a scan of every code.
            var added = UInt32(bitPattern: relative[first + Self.relativeCodes])
            relative[first + Self.relativeCodes] = 0
            while added != 0 {
                let code = added.trailingZeroBitCount
                added &= added &- 1
                guard relative[first + code] != 0 else { continue }
                output.append(device, type: EventType.rel, code: UInt16(code), value: relative[first + code])
                relative[first + code] = 0
            }
        }
    }

    /// Releases every key that is down and centres every axis (each in code order, devices in
    /// kind order within a code); no `SYN_REPORT`.
    mutating func releaseEverything(into output: inout OutputBuffer) {
        let devices = OutputDeviceKind.allCases
        // Up to the last key down: a profile switch or a reload comes here, with a few keys down at most.
        for code in 0..<Self.keyCodes {
            guard keysDown > 0 else { break }
            for device in devices {
                let index = Self.keyIndex(UInt16(code), on: device)
                guard keyCounts[index] != 0 else { continue }
                keyCounts[index] = 1
                release(UInt16(code), on: device, into: &output)
            }
        }
        keysDown = 0
        // Centring an axis at rest writes nothing: compare the tables before visiting every axis.
        if !absValuesAtRest {
            for code in 0..<Self.absoluteCodes {
                for device in devices {
                    centreAbsolute(UInt16(code), on: device, into: &output)
                }
            }
        }
        relative.update(repeating: 0, count: Self.relativeTableSize)
        relativeDevices = 0
    }
}
