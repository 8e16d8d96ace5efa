/// How many codes each event type has (`KEY_CNT`, `REL_CNT`, `ABS_CNT`, `MSC_CNT`): the one
/// definition of every table indexed by code, in the engine and in the devices.
///
/// Computed and inlinable, so a table's size is a constant wherever it is read (no lazy
/// global's once-check on the packet path).
extension EventCode {
    /// `KEY_CNT`: key and button codes.
    @inlinable public static var keyCount: Int { Int(keyMax) + 1 }
    /// `REL_CNT`: relative axis codes.
    @inlinable public static var relCount: Int { Int(relMax) + 1 }
    /// `ABS_CNT`: absolute axis codes.
    @inlinable public static var absCount: Int { Int(absMax) + 1 }
    /// `MSC_CNT`: miscellaneous codes.
    @inlinable public static var mscCount: Int { Int(mscMax) + 1 }
}
