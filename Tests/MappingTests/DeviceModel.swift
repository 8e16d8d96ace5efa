import EventVocabulary
import Mapping

/// What the virtual devices would show after the events so far; reports events that make no
/// sense to a device (a press of a key already down, a release of one that is up, a frame left
/// open at the end of a call, something still down after `releaseAll`, a code on a device that
/// must not carry it, a motion-sensor timestamp that does not increase).
struct DeviceModel {
    private var keysDown: Set<UInt16> = []
    private var axes: [AxisKey: Int32] = [:]
    private var lastTimestamp: UInt32?

    private struct AxisKey: Hashable, Comparable {
        var device: UInt8
        var code: UInt16
        static func < (left: AxisKey, right: AxisKey) -> Bool { (left.device, left.code) < (right.device, right.code) }
    }

    /// An axis's value at rest: 0, but the centre of the screen on the absolute pointer.
    private static func rest(of key: AxisKey) -> Int32 {
        // A kind of fixed codes says its axes' rest; the others' axes rest centred at 0.
        OutputDeviceKind(rawValue: key.device)?.details.ownCodes?.absInfo(key.code)?.value ?? 0
    }

    /// The problems in one engine call's events, in order.
    mutating func check(_ events: [OutputEvent], afterReleaseAll: Bool) -> [String] {
        var problems: [String] = []
        var open: Set<OutputDeviceKind> = []
        for event in events {
            let name = EventCodeNames.name(type: event.type, code: event.code)
            if event.isSynReport {
                if !open.contains(event.device) { problems.append("empty frame on \(event.device)") }
                open.remove(event.device)
                continue
            }
            open.insert(event.device)
            if !event.device.accepts(type: event.type, code: event.code) {
                problems.append("\(name) sent to the \(event.device)")
            }
            switch event.type {
            case EventType.key:
                if event.value == 1, !keysDown.insert(event.code).inserted { problems.append("\(name) pressed while down") }
                if event.value == 0, keysDown.remove(event.code) == nil { problems.append("\(name) released while up") }
                if event.value != 0, event.value != 1 { problems.append("\(name) value \(event.value)") }
            case EventType.abs:
                let key = AxisKey(device: event.device.rawValue, code: event.code)
                if axes[key] == event.value { problems.append("\(name) repeated \(event.value)") }
                axes[key] = event.value
            case EventType.msc where event.code == EventCode.mscTimestamp:
                let stamp = UInt32(bitPattern: event.value)
                // Increasing, modulo the counter's own wrap at 2^32 microseconds.
                if let last = lastTimestamp, stamp &- last == 0 || stamp &- last >= 1 << 31 {
                    problems.append("\(name) \(stamp) not after \(last)")
                }
                lastTimestamp = stamp
            case EventType.rel:
                if event.value == 0 { problems.append("\(name) of 0") }
            default:
                problems.append("unexpected type \(event.type)")
            }
        }
        for device in open.sorted(by: { $0.rawValue < $1.rawValue }) {
            problems.append("frame left open on \(device)")
        }
        if afterReleaseAll {
            for code in keysDown.sorted() { problems.append("\(EventCodeNames.name(type: EventType.key, code: code)) still down") }
            for (key, value) in axes.sorted(by: { $0.key < $1.key }) where value != Self.rest(of: key) {
                problems.append("\(EventCodeNames.name(type: EventType.abs, code: key.code)) still at \(value)")
            }
        }
        return problems
    }
}
