import DBus
import DaydreamProtocol
import Timebase

/// The BlueZ methods the project uses, as calls with completions.
extension BlueZClient {
    /// `Adapter1.Powered = true`.
    public func powerOn(adapter path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        setProperty(path, BlueZNames.adapter, "Powered", .boolean(true), completion: completion)
    }

    /// `Adapter1.SetDiscoveryFilter({Transport: le})`: the Gear VR advertises its name, not its
    /// data service, so a filter on service UUIDs would hide it; the name or services decide after.
    public func setDaydreamDiscoveryFilter(adapter path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        let filter = DBusValue.properties([
            "Transport": .string("le"),
        ])
        call(path, BlueZNames.adapter, "SetDiscoveryFilter", [filter]) { completion($0.map { _ in () }) }
    }

    /// `Adapter1.StartDiscovery()`.
    public func startDiscovery(adapter path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(path, BlueZNames.adapter, "StartDiscovery") { completion($0.map { _ in () }) }
    }

    /// `Adapter1.StopDiscovery()`.
    public func stopDiscovery(adapter path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(path, BlueZNames.adapter, "StopDiscovery") { completion($0.map { _ in () }) }
    }

    /// `Adapter1.RemoveDevice(device)`: forgets the device and its bond.
    public func removeDevice(_ device: DeviceInfo, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(device.adapterPath, BlueZNames.adapter, "RemoveDevice", [.objectPath(device.path)]) { completion($0.map { _ in () }) }
    }

    /// `Device1.Pair()` (no timeout of ours: BlueZ ends it).
    public func pair(device path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(path, BlueZNames.device, "Pair", timeout: .seconds(60)) { completion($0.map { _ in () }) }
    }

    /// `Device1.Connect()`.
    public func connect(device path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(path, BlueZNames.device, "Connect", timeout: .seconds(40)) { completion($0.map { _ in () }) }
    }

    /// `Device1.Disconnect()`.
    public func disconnect(device path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(path, BlueZNames.device, "Disconnect") { completion($0.map { _ in () }) }
    }

    /// `Device1.Trusted = true`.
    public func trust(device path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        setProperty(path, BlueZNames.device, "Trusted", .boolean(true), completion: completion)
    }

    /// `Device1.Blocked = true`: bluetoothd drops the link at once (no grace
    /// period, unlike `Disconnect` and `RemoveDevice` on a connected device),
    /// removes the device's profiles (an input device of its HID service goes
    /// with them) and has the kernel refuse the device. `RemoveDevice` unblocks it.
    public func block(device path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        setProperty(path, BlueZNames.device, "Blocked", .boolean(true), completion: completion)
    }

    /// `GattCharacteristic1.ReadValue({})`.
    public func readValue(characteristic path: String, completion: @escaping @MainActor (Result<[UInt8], DBusError>) -> Void) {
        call(path, BlueZNames.gattCharacteristic, "ReadValue", [.properties([:])]) { result in
            completion(result.map { $0.first?.bytes ?? [] })
        }
    }

    /// `GattCharacteristic1.WriteValue(value, {"type": "request"})`: a write with a response.
    public func writeValue(
        _ value: [UInt8], characteristic path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void
    ) {
        let bytes = DBusValue.array(element: "y", value.map { .byte($0) })
        call(path, BlueZNames.gattCharacteristic, "WriteValue", [bytes, .properties(["type": .string("request")])]) {
            completion($0.map { _ in () })
        }
    }

    /// `GattCharacteristic1.StartNotify()`: values then come in `PropertiesChanged`.
    public func startNotify(characteristic path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(path, BlueZNames.gattCharacteristic, "StartNotify") { completion($0.map { _ in () }) }
    }

    /// `GattCharacteristic1.StopNotify()`.
    public func stopNotify(characteristic path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call(path, BlueZNames.gattCharacteristic, "StopNotify") { completion($0.map { _ in () }) }
    }

    /// `GattCharacteristic1.AcquireNotify({})`: a socket (one read = one
    /// notification) and the MTU. The caller owns the descriptor.
    public func acquireNotify(
        characteristic path: String,
        completion: @escaping @MainActor (Result<(descriptor: UnixFileDescriptor, mtu: Int), DBusError>) -> Void
    ) {
        call(path, BlueZNames.gattCharacteristic, "AcquireNotify", [.properties([:])]) { result in
            completion(result.flatMap { values in
                guard let descriptor = values.first?.unixFD else {
                    return .failure(DBusError(name: "org.freedesktop.DBus.Error.InvalidSignature",
                                              message: "AcquireNotify returned no file descriptor"))
                }
                return .success((descriptor, values.dropFirst().first?.integer ?? 23))
            })
        }
    }

    /// `AgentManager1.RegisterAgent(path, capability)`.
    public func registerAgent(path: String, capability: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call("/org/bluez", BlueZNames.agentManager, "RegisterAgent", [.objectPath(path), .string(capability)]) {
            completion($0.map { _ in () })
        }
    }

    /// `AgentManager1.RequestDefaultAgent(path)`.
    public func requestDefaultAgent(path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call("/org/bluez", BlueZNames.agentManager, "RequestDefaultAgent", [.objectPath(path)]) {
            completion($0.map { _ in () })
        }
    }

    /// `AgentManager1.UnregisterAgent(path)`.
    public func unregisterAgent(path: String, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        call("/org/bluez", BlueZNames.agentManager, "UnregisterAgent", [.objectPath(path)]) {
            completion($0.map { _ in () })
        }
    }
}
