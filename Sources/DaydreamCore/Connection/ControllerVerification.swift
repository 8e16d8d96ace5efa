import BlueZ
import DaydreamProtocol

/// What a device must show before the manager bonds it and trusts it.
///
/// The name `Daydream controller` and the advertised FE55 service prove
/// nothing: anything can advertise them. A look-alike that offers a HID
/// service (0x1812) gets a keyboard from bluetoothd's input plugin and can
/// type into the whole desktop. So a device is bonded only when its services
/// are the controller's (`DaydreamGATT.serviceLayout`) and its FE55 service
/// has the input characteristic; a HID service is refused at any moment,
/// also on a paired controller's later connections.
enum ControllerVerification {
    /// Why `device` is refused before anything connects to it (its advertised
    /// or remembered services are not the controller's), or nil.
    static func refusalBeforePairing(_ device: DeviceInfo) -> String? {
        refusal(services: Set(device.uuids), family: device.controllerFamily ?? .daydream)
    }

    /// Why `device` is refused because of a HID service, or nil. bluetoothd's
    /// input plugin claims the HID service and exports no `GattService1` for
    /// it, so `Device1.UUIDs` is checked as well.
    static func hidRefusal(of device: DeviceInfo, in cache: ObjectCache) -> String? {
        services(of: device, in: cache).contains(DaydreamGATT.hidServiceUUID) ? hidRefusal : nil
    }

    /// Why the services seen so far on `device` are not the controller's, or nil.
    static func layoutRefusal(of device: DeviceInfo, in cache: ObjectCache) -> String? {
        refusal(services: services(of: device, in: cache), family: device.controllerFamily ?? .daydream)
    }

    /// Whether the device's resolved services include its family's input characteristic.
    static func hasInputCharacteristic(_ device: DeviceInfo, in cache: ObjectCache) -> Bool {
        let gatt = (device.controllerFamily ?? .daydream).gatt
        return cache.characteristics(of: device.path).contains { characteristic in
            characteristic.uuid == gatt.input && characteristic.serviceUUID == gatt.dataService && characteristic.canNotify
        }
    }

    /// `Device1.UUIDs` and the UUIDs of the device's `GattService1` objects, lower case.
    private static func services(of device: DeviceInfo, in cache: ObjectCache) -> Set<String> {
        let exported = cache.paths(with: BlueZNames.gattService)
            .filter { $0.hasPrefix(device.path + "/") }
            .compactMap { cache.properties($0, BlueZNames.gattService)?["UUID"]?.string?.lowercased() }
        return Set(device.uuids).union(exported)
    }

    private static func refusal(services: Set<String>, family: ControllerFamily) -> String? {
        if services.contains(DaydreamGATT.hidServiceUUID) { return hidRefusal }
        let foreign = services.subtracting(family.gatt.serviceLayout).map(DaydreamGATT.shortName).sorted()
        guard !foreign.isEmpty else { return nil }
        return "it offers \(foreign.count == 1 ? "a service" : "services") a \(family.displayName) does not have "
            + "(\(foreign.joined(separator: ", ")))"
    }

    static let hidRefusal = "it offers a HID service (0x1812), as keyboards and mice do; a Daydream controller has none"
    static let noInputRefusal = "it has no Daydream input characteristic (service FE55)"
}
