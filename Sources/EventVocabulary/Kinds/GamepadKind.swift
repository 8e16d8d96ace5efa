extension DeviceKindDescription {
    /// The gamepad: `BUS_VIRTUAL` da7d:0001. It always carries `BTN_SOUTH` (= `BTN_GAMEPAD`,
    /// which SDL needs to map it) and at least two gamepad buttons (`BTN_EAST` when needed), so
    /// udev makes it a joystick, and centred `ABS_X` and `ABS_Y`, which SDL's device test
    /// without udev (Flatpak, Snap, Steam's runtime) and Godot require.
    public static let gamepad = DeviceKindDescription(
        name: "gamepad", deviceName: "Daydream Controller Gamepad", product: 0x0001,
        classificationCodes: DeviceCapabilities(
            keys: [EventCode.btnSouth],
            absoluteAxes: [AbsoluteAxis(code: EventCode.absX, info: .stick), AbsoluteAxis(code: EventCode.absY, info: .stick)]),
        takesSettings: true,
        classify: { codes in
            let gamepadButtons = codes.keys.filter { (EventCode.btnJoystick..<EventCode.btnDigi).contains($0) }
            if gamepadButtons.count < 2 { codes.insertKey(EventCode.btnEast) }
        })
}
