import CEvdev
import EventVocabulary
import Testing
@testable import VirtualDevice

/// What the device layout tests start from: a kind's device as `DeviceLayout` describes it,
/// built by libevdev without uinput, or on real uinput with a reader of its node.
enum LaidOut {
    /// The libevdev device (no uinput) `DeviceLayout` describes for `kind` with `capabilities`.
    static func device(_ kind: OutputDeviceKind, _ capabilities: DeviceCapabilities,
                       gamepadIdentity: GamepadIdentity = .default) throws -> EvdevDevice {
        try EvdevDevice(DeviceLayout.description(for: kind, capabilities: capabilities, gamepadIdentity: gamepadIdentity))
    }

    /// Expects `device` to carry the project's id: `name`, the virtual bus, vendor 0xDA7D,
    /// `product`, version 1.
    static func expectProjectIdentity(of device: EvdevDevice, name: String, product: UInt16,
                                      sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(device.identity == DeviceIdentity(name: name, bus: UInt16(BUS_VIRTUAL), vendor: 0xDA7D, product: product, version: 0x0001),
                sourceLocation: sourceLocation)
    }

    /// Expects `DeviceLayout` to refuse `capabilities` with the key `code` added on `kind`'s
    /// device, with `error`.
    static func expectRefused(_ kind: OutputDeviceKind, _ capabilities: DeviceCapabilities, addingKey code: UInt16,
                              with error: VirtualDeviceError, sourceLocation: SourceLocation = #_sourceLocation) {
        var codes = capabilities
        codes.insertKey(code)
        #expect(throws: error, sourceLocation: sourceLocation) { try DeviceLayout.description(for: kind, capabilities: codes) }
    }

    /// A device set of `kind` alone with `capabilities` on real uinput, and a reader of its node.
    static func onUInput(_ kind: OutputDeviceKind, _ capabilities: DeviceCapabilities,
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> (set: VirtualDeviceSet, reader: UInputDeviceTests.Reader) {
        let set = try VirtualDeviceSet(capabilities: Capabilities([kind: capabilities]))
        #expect(set.kinds == [kind], sourceLocation: sourceLocation)
        let device = try #require(set[kind], sourceLocation: sourceLocation)
        return (set, try UInputDeviceTests.Reader(device))
    }
}
