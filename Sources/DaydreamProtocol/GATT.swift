/// The controller's GATT identifiers (see protocol.md).
public enum DaydreamGATT {
    /// The Google service the controller advertises.
    public static let serviceUUID16: UInt16 = 0xFE55
    public static let serviceUUID = "0000fe55-0000-1000-8000-00805f9b34fb"
    /// The characteristic that notifies 20-byte input packets.
    public static let inputCharacteristicUUID = "00000001-1000-1000-8000-00805f9b34fb"
    /// The command characteristic. The bridge never writes to it.
    public static let commandCharacteristicUUID = "00000002-1000-1000-8000-00805f9b34fb"
    /// The firmware update service. The bridge never writes to it.
    public static let firmwareUpdateServiceUUID = "0000fef5-0000-1000-8000-00805f9b34fb"
    /// The name the controller advertises.
    public static let advertisedName = "Daydream controller"
    /// The HID over GATT service (0x1812) of keyboards and mice. The controller has none.
    public static let hidServiceUUID = "00001812-0000-1000-8000-00805f9b34fb"
    /// Every service the controller offers (protocol.md's GATT table): GAP, GATT,
    /// Device Information, Battery, FE55 and the firmware update service FEF5.
    public static let serviceLayout: Set<String> = [
        "00001800-0000-1000-8000-00805f9b34fb", "00001801-0000-1000-8000-00805f9b34fb",
        "0000180a-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb",
        serviceUUID, firmwareUpdateServiceUUID,
    ]

    /// `0x1812` for a UUID on the Bluetooth base, else the UUID as given (lower case).
    public static func shortName(_ uuid: String) -> String {
        let lower = uuid.lowercased()
        let base = "-0000-1000-8000-00805f9b34fb"
        guard lower.count == 36, lower.hasPrefix("0000"), lower.hasSuffix(base) else { return lower }
        return "0x" + lower.dropFirst(4).prefix(4).uppercased()
    }

    public static let batteryLevelUUID = "00002a19-0000-1000-8000-00805f9b34fb"
    public static let manufacturerNameUUID = "00002a29-0000-1000-8000-00805f9b34fb"
    public static let modelNumberUUID = "00002a24-0000-1000-8000-00805f9b34fb"
    public static let serialNumberUUID = "00002a25-0000-1000-8000-00805f9b34fb"
    public static let hardwareRevisionUUID = "00002a27-0000-1000-8000-00805f9b34fb"
    public static let firmwareRevisionUUID = "00002a26-0000-1000-8000-00805f9b34fb"
    public static let softwareRevisionUUID = "00002a28-0000-1000-8000-00805f9b34fb"
}
