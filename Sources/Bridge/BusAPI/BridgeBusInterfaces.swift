import DBus
import DaydreamProtocol
import Mapping

/// The API's two interfaces, answered from the daemon: `Bridge1` on `/org/daydream_bridge` and
/// `Controller1` on each controller's object. A method checks its arguments, makes them one
/// `BridgeCommand` and answers with what the daemon's outcome says (`BridgeBusError.refused`).
@MainActor
enum BridgeBusInterfaces {
    /// The longest application id or profile name taken, in bytes. Wayland app_ids, X11
    /// WM_CLASS and profile names are a few dozen; a 60 MiB app_id stalled the loop 6.4 s.
    static let longestName = 255
    /// The most of a window title kept, in bytes: a longer one is cut (the switch still happens).
    static let longestTitle = 1024

    /// `Bridge1`: `Version`, `Profiles`, `Identity`; `SetProfile`, `NextProfile`, `Reload`,
    /// `SetFocusedApplication`, `Pair` (an address, or empty: the one unpaired controller in
    /// range; it returns once the search started, and the controller's object appears when
    /// it is paired and connects), `Forget`.
    static func bridge(_ backend: some BridgeBusBackend, version: String) -> ExportedInterface {
        ExportedInterface(
            name: BridgeBusNames.bridgeInterface,
            methods: [
                ExportedMethod("SetProfile", arguments: [ExportedArgument("name", "s")]) { arguments in
                    let name = arguments[0].string ?? ""
                    return switchProfile(backend, to: name, address: nil)
                },
                ExportedMethod("NextProfile") { _ in
                    perform(.nextProfile(controller: nil), on: backend)
                },
                ExportedMethod("Reload") { _ in
                    perform(.reload, on: backend)
                },
                ExportedMethod("Pair", arguments: [ExportedArgument("address", "s")]) { arguments in
                    let address = arguments[0].string ?? ""
                    return perform(.pair(controller: address.isEmpty ? nil : address), on: backend)
                },
                ExportedMethod("Forget", arguments: [ExportedArgument("address", "s")]) { arguments in
                    perform(.forget(controller: arguments[0].string ?? ""), on: backend)
                },
                ExportedMethod("SetFocusedApplication", arguments: [ExportedArgument("app_id", "s"), ExportedArgument("title", "s")]) {
                    arguments in
                    // An empty app_id: nothing has the focus (the desktop itself).
                    let appID = arguments[0].string ?? ""
                    guard appID.utf8.count <= longestName else {
                        return .failure(BridgeBusError.tooLong("app_id", appID, limit: longestName))
                    }
                    guard !appID.contains(where: \.isWhitespace) else {
                        return .failure(BridgeBusError.invalidArgument("app_id '\(appID)' has white space: give the Wayland app_id or the X11 WM_CLASS"))
                    }
                    let title = BridgeRefusal.prefix(of: arguments[1].string ?? "", bytes: longestTitle)
                    return perform(.focusChanged(FocusedApplication(ids: appID.isEmpty ? [] : [appID], title: title)), on: backend)
                },
            ],
            properties: [
                ExportedProperty("Version", "s") { .string(version) },
                ExportedProperty("Profiles", "as") {
                    .strings(profileNames(backend))
                },
                ExportedProperty("Identity", "s") {
                    .string(backend.state.bridge.identity)
                },
            ])
    }

    /// `Controller1` for the controller at `address`: `Address`, `Name`, `Connected`, `Battery`,
    /// `Firmware`, `Profile` (writable), `Packets`, `PacketsLost`, `PacketsMalformed`, `GyroBias`
    /// (deg/s about x, y, z; empty until calibrated), `Calibrating`, `Lent`; `Recenter`,
    /// `CalibrateGyro`, `Lend`, `Reclaim`.
    static func controller(_ backend: some BridgeBusBackend, address: String) -> ExportedInterface {
        func status() -> ControllerStatus? { backend.state.controller(address) }
        return ExportedInterface(
            name: BridgeBusNames.controllerInterface,
            methods: [
                ExportedMethod("Recenter") { _ in
                    perform(.recenter(controller: address), on: backend)
                },
                ExportedMethod("CalibrateGyro") { _ in
                    perform(.calibrateGyro(controller: address), on: backend)
                },
                ExportedMethod("Lend") { _ in
                    perform(.lend(controller: address), on: backend)
                },
                ExportedMethod("Reclaim") { _ in
                    perform(.reclaim(controller: address), on: backend)
                },
            ],
            properties: [
                ExportedProperty("Address", "s") { .string(address) },
                ExportedProperty("Name", "s") { .string(status()?.name ?? "") },
                ExportedProperty("Connected", "b") { .boolean(status()?.isConnected == true) },
                ExportedProperty("Battery", "y") { .byte(UInt8(clamping: status()?.batteryPercent ?? 0)) },
                ExportedProperty("Firmware", "s") { .string(status()?.firmware ?? "") },
                ExportedProperty("Profile", "s", get: { .string(status()?.profile ?? "") }, set: { value in
                    switchProfile(backend, to: value.string ?? "", address: address).map { _ in () }
                }),
                ExportedProperty("Packets", "t", emitsChangedSignal: false) { .uint64(UInt64(status()?.statistics.received ?? 0)) },
                ExportedProperty("PacketsLost", "t", emitsChangedSignal: false) { .uint64(UInt64(status()?.statistics.lost ?? 0)) },
                ExportedProperty("PacketsMalformed", "t", emitsChangedSignal: false) { .uint64(UInt64(status()?.statistics.malformed ?? 0)) },
                ExportedProperty("GyroBias", "ad") { .array(element: "d", gyroBiasDegrees(status()?.gyroBias)) },
                ExportedProperty("Calibrating", "b") { .boolean(status()?.isCalibrating == true) },
                ExportedProperty("Lent", "b") { .boolean(status()?.isLent == true) },
            ])
    }

    /// The `Controller1` properties that show `fields`, in the interface's order.
    static func propertyNames(_ fields: Set<BridgeState.ControllerField>) -> [String] {
        let names: [(BridgeState.ControllerField, String)] = [
            (.name, "Name"), (.connected, "Connected"), (.battery, "Battery"), (.firmware, "Firmware"),
            (.profile, "Profile"), (.gyroBias, "GyroBias"), (.calibrating, "Calibrating"), (.lent, "Lent"),
        ]
        return names.filter { fields.contains($0.0) }.map(\.1)
    }

    /// The `Bridge1` properties that show `fields`.
    static func propertyNames(_ fields: Set<BridgeState.BridgeField>) -> [String] {
        (fields.contains(.profiles) ? ["Profiles"] : []) + (fields.contains(.identity) ? ["Identity"] : [])
    }

    /// The bias in deg/s about x, y and z; none before a calibration.
    static func gyroBiasDegrees(_ bias: Vector3?) -> [DBusValue] {
        guard let bias else { return [] }
        let degrees = UnitConversion.degrees(radians: bias)
        return [.double(degrees.x), .double(degrees.y), .double(degrees.z)]
    }

    static func profileNames(_ backend: some BridgeBusBackend) -> [String] {
        backend.state.bridge.profiles
    }

    private static func switchProfile(_ backend: some BridgeBusBackend, to name: String, address: String?) -> Result<[DBusValue], DBusError> {
        guard name.utf8.count <= longestName else {
            return .failure(BridgeBusError.tooLong("profile name", name, limit: longestName))
        }
        return perform(.switchProfile(name, controller: address), on: backend)
    }

    /// Carries out `command`: no reply values when done, the refusal as the API's error when not.
    private static func perform(_ command: BridgeCommand, on backend: some BridgeBusBackend) -> Result<[DBusValue], DBusError> {
        backend.perform(command).map { _ in [] }.mapError(BridgeBusError.refused)
    }
}
