/// Bus types of a device's `input_id` (`BUS_*` in linux/input.h).
public enum BusType {
    /// `BUS_USB`.
    public static let usb: UInt16 = 0x03
    /// `BUS_BLUETOOTH`.
    public static let bluetooth: UInt16 = 0x05
    /// `BUS_VIRTUAL`: no registry of ids, so a project's own numbers cannot collide with a real device's.
    public static let virtual: UInt16 = 0x06
}
