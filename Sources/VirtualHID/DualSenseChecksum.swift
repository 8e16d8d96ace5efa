import CZlib

/// The CRC-32 that ends every DualSense report on Bluetooth: zlib's CRC-32 of
/// one seed byte, the Bluetooth HID transaction header, followed by the report
/// without its last four bytes, stored there least significant byte first.
/// hid-playstation and SDL drop a report whose CRC does not match.
public enum DualSenseChecksum {
    /// The seed of an input report (`DATA | INPUT`).
    public static let inputSeed: UInt8 = 0xA1
    /// The seed of a feature report (`DATA | FEATURE`).
    public static let featureSeed: UInt8 = 0xA3

    /// The CRC of `report` (all but its last four bytes) under `seed`.
    public static func crc(of report: [UInt8], seed: UInt8) -> UInt32 {
        let covered = max(0, report.count - 4)
        var value = withUnsafePointer(to: seed) { crc32(0, $0, 1) }
        value = report.withUnsafeBufferPointer { crc32(value, $0.baseAddress, UInt32(covered)) }
        return UInt32(truncatingIfNeeded: value)
    }

    /// Writes the CRC of `report` under `seed` into its last four bytes.
    public static func seal(_ report: inout [UInt8], seed: UInt8) {
        guard report.count >= 4 else { return }
        let value = crc(of: report, seed: seed)
        let end = report.count
        for index in 0..<4 {
            report[end - 4 + index] = UInt8((value >> (8 * UInt32(index))) & 0xFF)
        }
    }
}
