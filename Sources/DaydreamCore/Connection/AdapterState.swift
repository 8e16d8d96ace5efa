import Timebase

extension DaydreamControllerManager {
    /// The adapter as the manager last judged it.
    enum AdapterState: Equatable, Sendable, StateMachineName {
        /// bluetoothd is not there, or the manager does not follow it.
        case unknown
        /// bluetoothd just appeared (it takes its bus name, then reads its adapters from the
        /// kernel): no adapter is reported missing before `graceEnds`.
        case awaited(graceEnds: MonotonicTime)
        /// No adapter.
        case missing
        /// Off: blocked by rfkill, or left off.
        case unpowered
        /// PowerOn sent, not answered yet.
        case poweringOn
        /// On.
        case powered

        var name: String {
            switch self {
            case .unknown: "unknown"
            case .awaited: "awaited"
            case .missing: "missing"
            case .unpowered: "unpowered"
            case .poweringOn: "powering on"
            case .powered: "powered"
            }
        }
    }

    /// What the manager learns about the adapter.
    enum AdapterEvent: Equatable, Sendable, StateMachineName {
        /// bluetoothd appeared; a missing adapter is reported from `graceEnds`.
        case serviceAppeared(graceEnds: MonotonicTime)
        /// bluetoothd went away.
        case serviceVanished
        /// The manager stopped.
        case managerStopped
        /// No adapter, at `at`.
        case adapterMissing(at: MonotonicTime)
        /// The adapter is off (blocked, or left off).
        case adapterOff
        /// PowerOn sent.
        case powerOnSent
        /// PowerOn answered (either way: BlueZ reports the power itself).
        case powerOnAnswered
        /// The adapter is on.
        case adapterPowered

        var name: String {
            switch self {
            case .serviceAppeared: "service appeared"
            case .serviceVanished: "service vanished"
            case .managerStopped: "manager stopped"
            case .adapterMissing: "adapter missing"
            case .adapterOff: "adapter off"
            case .powerOnSent: "power on sent"
            case .powerOnAnswered: "power on answered"
            case .adapterPowered: "adapter powered"
            }
        }
    }

    /// Where `event` leads from `state`; nil when `state` has no edge for it (a bug in the caller).
    /// Nothing is judged about the adapter before bluetoothd appeared; PowerOn's answer may come
    /// in any state (bluetoothd, the adapter or the manager may have gone meanwhile).
    nonisolated static func transition(from state: AdapterState, on event: AdapterEvent) -> AdapterState? {
        switch (state, event) {
        case (_, .serviceAppeared(let graceEnds)): .awaited(graceEnds: graceEnds)
        case (_, .serviceVanished), (_, .managerStopped): .unknown
        case (.poweringOn, .powerOnAnswered): .unpowered
        case (_, .powerOnAnswered): state
        case (.unknown, _): nil
        case (.awaited(let graceEnds), .adapterMissing(let time)) where time < graceEnds: state
        case (_, .adapterMissing): .missing
        case (.poweringOn, .adapterOff): state  // blocked while powering on: the answer decides
        case (_, .adapterOff): .unpowered
        case (.poweringOn, .powerOnSent): nil
        case (_, .powerOnSent): .poweringOn
        case (_, .adapterPowered): .powered
        }
    }
}
