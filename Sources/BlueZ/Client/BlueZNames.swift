/// Bus names, interfaces and error names of BlueZ's D-Bus API.
public enum BlueZNames {
    /// bluetoothd's bus name.
    public static let service = "org.bluez"
    /// An adapter (`/org/bluez/hci0`).
    public static let adapter = "org.bluez.Adapter1"
    /// A remote device (`.../dev_AA_BB_...`).
    public static let device = "org.bluez.Device1"
    /// A remote GATT service.
    public static let gattService = "org.bluez.GattService1"
    /// A remote GATT characteristic.
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    /// The battery plugin's view of a device's Battery Service (`Percentage`).
    public static let battery = "org.bluez.Battery1"
    /// Where agents register (`/org/bluez`).
    public static let agentManager = "org.bluez.AgentManager1"
    /// The interface a pairing agent exports.
    public static let agent = "org.bluez.Agent1"
    /// `GetManagedObjects`, `InterfacesAdded`, `InterfacesRemoved`.
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    /// `Get`, `Set`, `PropertiesChanged`.
    public static let properties = "org.freedesktop.DBus.Properties"
    /// The bus daemon's name and interface.
    public static let busDaemon = "org.freedesktop.DBus"
    /// The error an agent answers with to refuse.
    public static let rejected = "org.bluez.Error.Rejected"
}
