/// Bus names, interfaces and error names of BlueZ's D-Bus API.
public enum BlueZNames {
    public static let service = "org.bluez"
    public static let adapter = "org.bluez.Adapter1"
    public static let device = "org.bluez.Device1"
    public static let gattService = "org.bluez.GattService1"
    public static let gattCharacteristic = "org.bluez.GattCharacteristic1"
    public static let agentManager = "org.bluez.AgentManager1"
    public static let agent = "org.bluez.Agent1"
    public static let objectManager = "org.freedesktop.DBus.ObjectManager"
    public static let properties = "org.freedesktop.DBus.Properties"
    public static let busDaemon = "org.freedesktop.DBus"
    public static let rejected = "org.bluez.Error.Rejected"
}
