/// One short item of a HID report descriptor (HID 1.11, section 6.2.2.2):
/// a prefix byte (tag, type, size) and 0, 1, 2 or 4 data bytes, little endian.
///
/// Values take the fewest bytes that hold them: signed for logical and
/// physical extents, unsigned for everything else.
public struct HIDItem: Hashable, Sendable {
    /// The item's type, bits 2-3 of its prefix.
    public enum Kind: UInt8, Sendable {
        case main = 0
        case global = 1
        case local = 2
    }

    /// The prefix's tag, bits 4-7.
    public let tag: UInt8
    /// Main, global or local.
    public let kind: Kind
    /// The data bytes, little endian: 0, 1, 2 or 4 of them.
    public let data: [UInt8]

    private init(tag: UInt8, kind: Kind, unsigned value: UInt32) {
        self.tag = tag
        self.kind = kind
        data = switch value {
        case 0: []
        case ...0xFF: [UInt8(value)]
        case ...0xFFFF: [UInt8(value & 0xFF), UInt8(value >> 8)]
        default: (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }
        }
    }

    private init(tag: UInt8, kind: Kind, signed value: Int32) {
        self.tag = tag
        self.kind = kind
        let bits = UInt32(bitPattern: value)
        data = switch value {
        case -0x80...0x7F: [UInt8(bits & 0xFF)]
        case -0x8000...0x7FFF: [UInt8(bits & 0xFF), UInt8((bits >> 8) & 0xFF)]
        default: (0..<4).map { UInt8((bits >> (8 * $0)) & 0xFF) }
        }
    }

    /// The item as it stands in a descriptor.
    public var bytes: [UInt8] {
        let sizeCode: UInt8 = data.count == 4 ? 3 : UInt8(data.count)
        return [tag << 4 | kind.rawValue << 2 | sizeCode] + data
    }

    // Main items.

    /// Data, variable, absolute (0x02); with `nullState`, values outside the logical extent mean "none" (0x42).
    public static func input(nullState: Bool = false) -> HIDItem {
        HIDItem(tag: 0x8, kind: .main, unsigned: nullState ? 0x42 : 0x02)
    }
    /// An output field: data, variable, absolute.
    public static let output = HIDItem(tag: 0x9, kind: .main, unsigned: 0x02)
    /// A feature field: data, variable, absolute.
    public static let feature = HIDItem(tag: 0xB, kind: .main, unsigned: 0x02)
    /// An application collection.
    public static let applicationCollection = HIDItem(tag: 0xA, kind: .main, unsigned: 0x01)
    /// The end of the innermost collection.
    public static let endCollection = HIDItem(tag: 0xC, kind: .main, unsigned: 0)

    // Global items.

    /// The usage page the next usages are on.
    public static func usagePage(_ page: UInt16) -> HIDItem { HIDItem(tag: 0x0, kind: .global, unsigned: UInt32(page)) }
    /// The smallest value a field holds.
    public static func logicalMinimum(_ value: Int32) -> HIDItem { HIDItem(tag: 0x1, kind: .global, signed: value) }
    /// The largest value a field holds.
    public static func logicalMaximum(_ value: Int32) -> HIDItem { HIDItem(tag: 0x2, kind: .global, signed: value) }
    /// The physical value of the logical minimum.
    public static func physicalMinimum(_ value: Int32) -> HIDItem { HIDItem(tag: 0x3, kind: .global, signed: value) }
    /// The physical value of the logical maximum.
    public static func physicalMaximum(_ value: Int32) -> HIDItem { HIDItem(tag: 0x4, kind: .global, signed: value) }
    /// The unit of the physical values (0 for none; 0x14 for degrees).
    public static func unit(_ code: UInt32) -> HIDItem { HIDItem(tag: 0x6, kind: .global, unsigned: code) }
    /// Bits per field.
    public static func reportSize(_ bits: UInt32) -> HIDItem { HIDItem(tag: 0x7, kind: .global, unsigned: bits) }
    /// The report the next fields belong to.
    public static func reportID(_ id: UInt8) -> HIDItem { HIDItem(tag: 0x8, kind: .global, unsigned: UInt32(id)) }
    /// How many fields the next main item declares.
    public static func reportCount(_ count: UInt32) -> HIDItem { HIDItem(tag: 0x9, kind: .global, unsigned: count) }

    // Local items.

    /// One usage on the current page.
    public static func usage(_ id: UInt16) -> HIDItem { HIDItem(tag: 0x0, kind: .local, unsigned: UInt32(id)) }
    /// The first of a run of usages.
    public static func usageMinimum(_ id: UInt16) -> HIDItem { HIDItem(tag: 0x1, kind: .local, unsigned: UInt32(id)) }
    /// The last of a run of usages.
    public static func usageMaximum(_ id: UInt16) -> HIDItem { HIDItem(tag: 0x2, kind: .local, unsigned: UInt32(id)) }
}
