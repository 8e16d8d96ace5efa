import DaydreamCore
import Mapping

/// What the bridge shows, in one place: each controller's record (address, name, link, battery,
/// firmware, profile, gyro bias, calibrating, lent), the configuration's profiles and identity, the
/// profile new controllers start in, the focused application, the last source problem, and the
/// config's last reload.
///
/// The daemon tells it each change as it happens; the state announces to its observers only what
/// really changed, once, field by field. `status`, systemd's STATUS=, the D-Bus properties and
/// their `PropertiesChanged`, and the `watch` streams' link, battery and profile lines all read
/// it and hear it. The packet counts change with every packet: they are read live, never
/// announced.
@MainActor
public final class BridgeState {
    /// A field of a controller's record.
    public enum ControllerField: Hashable, Sendable, CaseIterable {
        case name, connected, battery, firmware, profile, gyroBias, calibrating, lent
    }

    /// A field of the bridge's own record.
    public enum BridgeField: Hashable, Sendable, CaseIterable {
        case profiles, identity, activeProfile, focus, problem, reload
    }

    /// One announcement.
    public enum Change: Equatable, Sendable {
        /// A controller seen for the first time (its record is in `controllers`).
        case controllerAdded(String)
        /// These fields of the controller at this address changed.
        case controller(String, Set<ControllerField>)
        /// These fields of the bridge's record changed.
        case bridge(Set<BridgeField>)
    }

    /// The bridge's own record.
    public struct Bridge: Equatable, Sendable {
        /// The configuration's profiles, in file order.
        public var profiles: [String] = []
        /// The gamepad's identity (`GamepadIdentity.rawValue`).
        public var identity = ""
        /// The profile new controllers start in.
        public var activeProfile: String?
        /// The application a desktop said has the focus.
        public var focus: FocusedApplication?
        /// The last problem a controller source reported, until a controller connects.
        public var problem: String?
        /// The config's last reading since start (none yet), each one announced.
        public var reload: ConfigReload?
    }

    private var records: [ControllerStatus] = []
    /// The bridge's record.
    public private(set) var bridge = Bridge()
    /// Reads a controller's packet counts, live.
    var statistics: @MainActor (String) -> DDControllerStatistics = { _ in DDControllerStatistics() }
    private var observers: [(id: Int, handler: @MainActor (Change) -> Void)] = []
    private var nextObserver = 0

    /// An empty state.
    public init() {}

    /// Every controller seen, in the order they were first seen, with their packet counts now.
    public var controllers: [ControllerStatus] {
        records.map { record in
            var status = record
            status.statistics = statistics(record.address)
            return status
        }
    }

    /// The controller at `address` (upper-case), with its packet counts now.
    public func controller(_ address: String) -> ControllerStatus? {
        guard var status = records.first(where: { $0.address == address }) else { return nil }
        status.statistics = statistics(address)
        return status
    }

    /// Calls `handler` with every change from now on, until the observation goes.
    public func observe(_ handler: @escaping @MainActor (Change) -> Void) -> Observation {
        nextObserver += 1
        let id = nextObserver
        observers.append((id, handler))
        return Observation { [weak self] in self?.observers.removeAll { $0.id == id } }
    }

    /// Takes a controller's record as it is now: a new one is announced as added, a known one by
    /// the fields that differ (none: nothing is announced).
    func set(_ record: ControllerStatus) {
        guard let index = records.firstIndex(where: { $0.address == record.address }) else {
            records.append(record)
            announce(.controllerAdded(record.address))
            return
        }
        let fields = Self.changedFields(from: records[index], to: record)
        records[index] = record
        if !fields.isEmpty { announce(.controller(record.address, fields)) }
    }

    /// Takes the bridge's record as it is now; the fields that differ are announced.
    func set(_ new: Bridge) {
        let fields = Self.differing([(BridgeField, Bool)]([
            (.profiles, new.profiles != bridge.profiles), (.identity, new.identity != bridge.identity),
            (.activeProfile, new.activeProfile != bridge.activeProfile), (.focus, new.focus != bridge.focus),
            (.problem, new.problem != bridge.problem), (.reload, new.reload != bridge.reload),
        ]))
        bridge = new
        if !fields.isEmpty { announce(.bridge(fields)) }
    }

    /// The fields of a controller's record that differ between `old` and `new` (never the counts).
    static func changedFields(from old: ControllerStatus, to new: ControllerStatus) -> Set<ControllerField> {
        differing([(ControllerField, Bool)]([
            (.name, old.name != new.name), (.connected, old.isConnected != new.isConnected),
            (.battery, old.batteryPercent != new.batteryPercent), (.firmware, old.firmware != new.firmware),
            (.profile, old.profile != new.profile), (.gyroBias, old.gyroBias != new.gyroBias),
            (.calibrating, old.isCalibrating != new.isCalibrating), (.lent, old.isLent != new.isLent),
        ]))
    }

    /// The fields whose values differ.
    private static func differing<Field: Hashable>(_ comparisons: [(Field, Bool)]) -> Set<Field> {
        Set(comparisons.filter(\.1).map(\.0))
    }

    private func announce(_ change: Change) {
        for observer in observers { observer.handler(change) }
    }
}

/// An observer's hold on a `BridgeState`: the handler is removed when this goes, or on `cancel()`.
@MainActor
public final class Observation {
    private var remove: (@MainActor () -> Void)?

    init(remove: @escaping @MainActor () -> Void) {
        self.remove = remove
    }

    /// Stops the handler now.
    public func cancel() {
        remove?()
        remove = nil
    }

    isolated deinit {
        remove?()
    }
}
