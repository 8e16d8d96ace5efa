extension DeviceKindDescription {
    /// The keyboard: `BUS_VIRTUAL` da7d:0003, with the keys the profiles press and nothing else.
    public static let keyboard = DeviceKindDescription(
        name: "keyboard", deviceName: "Daydream Controller Keyboard", product: 0x0003, takesSettings: true)
}
