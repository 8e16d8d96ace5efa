import BlueZ
import DaydreamProtocol

/// What a device must show before the manager keeps its bond and trusts it.
///
/// The name `Daydream controller` and the advertised FE55 service prove
/// nothing: anything can advertise them. A bonded look-alike that offers a
/// HID service (0x1812) gets a keyboard from bluetoothd's input plugin and
/// can type into the whole desktop. So a paired device must have the
/// Daydream input characteristic in its FE55 service and no HID service.
enum ControllerVerification {
    /// Why `device` is refused before pairing (it already shows a HID service), or nil.
    static func refusalBeforePairing(_ device: DeviceInfo) -> String? {
        device.uuids.contains(DaydreamGATT.hidServiceUUID) ? hidRefusal : nil
    }

    /// Why `device` is refused now, or nil when nothing seen so far rules it out.
    /// BlueZ's input plugin claims the HID service and exports no
    /// `GattService1` for it, so `Device1.UUIDs` is checked as well.
    static func hidRefusal(of device: DeviceInfo, in cache: ObjectCache) -> String? {
        let services = cache.paths(with: BlueZNames.gattService)
            .filter { $0.hasPrefix(device.path + "/") }
            .compactMap { cache.properties($0, BlueZNames.gattService)?["UUID"]?.string?.lowercased() }
        let offersHID = device.uuids.contains(DaydreamGATT.hidServiceUUID) || services.contains(DaydreamGATT.hidServiceUUID)
        return offersHID ? hidRefusal : nil
    }

    /// Whether the device's resolved services include the Daydream input characteristic.
    static func hasInputCharacteristic(_ device: DeviceInfo, in cache: ObjectCache) -> Bool {
        cache.characteristics(of: device.path).contains { characteristic in
            characteristic.uuid == DaydreamGATT.inputCharacteristicUUID
                && characteristic.serviceUUID == DaydreamGATT.serviceUUID && characteristic.canNotify
        }
    }

    static let hidRefusal = "it offers a HID service (0x1812), as keyboards and mice do; a Daydream controller has none"
    static let noInputRefusal = "it has no Daydream input characteristic (service FE55)"
}
