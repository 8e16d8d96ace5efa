import DaydreamProtocol

/// An `org.bluez.Adapter1` as the cache knows it.
public struct AdapterInfo: Equatable, Sendable {
    /// The object path, `/org/bluez/hci0`.
    public let path: String
    /// The adapter's own Bluetooth address.
    public let address: String
    /// `Powered`.
    public let isPowered: Bool
    /// `Discovering`.
    public let isDiscovering: Bool
    /// `PowerState` on newer BlueZ (`on`, `off`, `off-blocked` when rfkill blocks it), if present.
    public let powerState: String?

    /// The adapter's name, `hci0`.
    public var name: String { path.split(separator: "/").last.map(String.init) ?? path }

    init(path: String, _ properties: ObjectCache.Properties) {
        self.path = path
        address = properties["Address"]?.string ?? ""
        isPowered = properties["Powered"]?.boolean ?? false
        isDiscovering = properties["Discovering"]?.boolean ?? false
        powerState = properties["PowerState"]?.string
    }
}

/// An `org.bluez.Device1` as the cache knows it.
public struct DeviceInfo: Equatable, Sendable {
    /// The object path, `/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`.
    public let path: String
    /// `Address`, upper case with colons.
    public let address: String
    /// `Name` as advertised (not the user's `Alias`).
    public let name: String?
    /// `UUIDs`, lower case.
    public let uuids: [String]
    /// `Paired`.
    public let isPaired: Bool
    /// `Bonded` (BlueZ 5.62+; `Paired` before).
    public let isBonded: Bool
    /// `Trusted`.
    public let isTrusted: Bool
    /// `Connected`.
    public let isConnected: Bool
    /// `ServicesResolved`: the GATT objects are there.
    public let servicesResolved: Bool
    /// `RSSI`, present while the device is seen advertising.
    public let rssi: Int?
    /// The adapter it belongs to.
    public let adapterPath: String

    init(path: String, _ properties: ObjectCache.Properties) {
        self.path = path
        address = properties["Address"]?.string ?? ""
        name = properties["Name"]?.string
        uuids = (properties["UUIDs"]?.strings ?? []).map { $0.lowercased() }
        isPaired = properties["Paired"]?.boolean ?? false
        isBonded = properties["Bonded"]?.boolean ?? isPaired
        isTrusted = properties["Trusted"]?.boolean ?? false
        isConnected = properties["Connected"]?.boolean ?? false
        servicesResolved = properties["ServicesResolved"]?.boolean ?? false
        rssi = properties["RSSI"]?.integer
        adapterPath = properties["Adapter"]?.string ?? ""
    }

    /// Whether this is a controller of a family the bridge knows (a Daydream View controller:
    /// named exactly `Daydream controller`, or advertising the FE55 service; a Gear VR or Oculus
    /// Go controller by its name or data service).
    public var isDaydreamController: Bool { controllerFamily != nil }

    /// The family its name or services say it is of, or nil.
    public var controllerFamily: ControllerFamily? {
        if name == DaydreamGATT.advertisedName || uuids.contains(DaydreamGATT.serviceUUID) { return .daydream }
        return ControllerFamily.recognising(name: name, services: uuids)
    }
}

/// An `org.bluez.GattCharacteristic1` with the UUID of its service.
public struct CharacteristicInfo: Equatable, Sendable {
    /// The object path.
    public let path: String
    /// The characteristic's UUID, lower case.
    public let uuid: String
    /// The service object it belongs to.
    public let servicePath: String
    /// That service's UUID, lower case, when known.
    public let serviceUUID: String?
    /// `Flags`: `read`, `notify`, `write`...
    public let flags: [String]

    /// Whether the characteristic can notify (or indicate).
    public var canNotify: Bool { flags.contains("notify") || flags.contains("indicate") }
}

extension ObjectCache {
    /// Every adapter, sorted by path.
    public var adapters: [AdapterInfo] {
        paths(with: BlueZNames.adapter).compactMap { path in properties(path, BlueZNames.adapter).map { AdapterInfo(path: path, $0) } }
    }

    /// Every device, sorted by path.
    public var devices: [DeviceInfo] {
        paths(with: BlueZNames.device).compactMap { device(at: $0) }
    }

    /// The device at `path`, if known.
    public func device(at path: String) -> DeviceInfo? {
        properties(path, BlueZNames.device).map { DeviceInfo(path: path, $0) }
    }

    /// The device with `address` (any adapter; the first by path).
    public func device(address: String) -> DeviceInfo? {
        devices.first { $0.address.uppercased() == address.uppercased() }
    }

    /// The GATT characteristics under a device, sorted by path.
    public func characteristics(of devicePath: String) -> [CharacteristicInfo] {
        paths(with: BlueZNames.gattCharacteristic).filter { $0.hasPrefix(devicePath + "/") }.compactMap { path in
            guard let properties = properties(path, BlueZNames.gattCharacteristic) else { return nil }
            let servicePath = properties["Service"]?.string ?? ""
            return CharacteristicInfo(
                path: path,
                uuid: (properties["UUID"]?.string ?? "").lowercased(),
                servicePath: servicePath,
                serviceUUID: self.properties(servicePath, BlueZNames.gattService)?["UUID"]?.string?.lowercased(),
                flags: properties["Flags"]?.strings ?? [])
        }
    }
}
