extension DeviceKindDescription {
    /// The mouse: `BUS_VIRTUAL` da7d:0002. It always carries `REL_X`, `REL_Y` and `BTN_LEFT`,
    /// so udev and libinput take it for a mouse even when a profile only scrolls.
    public static let mouse = DeviceKindDescription(
        name: "mouse", deviceName: "Daydream Controller Mouse", product: 0x0002,
        classificationCodes: DeviceCapabilities(keys: [EventCode.btnLeft], relativeAxes: [EventCode.relX, EventCode.relY]),
        takesSettings: true)
}
