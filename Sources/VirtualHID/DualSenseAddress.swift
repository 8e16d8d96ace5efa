import DaydreamProtocol

/// The virtual DualSense's own Bluetooth-style address, derived from the
/// controller's: the kernel takes it from the pairing report as the device's
/// `uniq`, names the battery after it, and refuses a second DualSense with the
/// same one ("Duplicate device found"), so each controller needs its own.
///
/// It is the controller's address with the locally administered bit (0x02 of
/// the first octet) flipped: stable across connections and restarts, one to
/// one (two controllers never share one), and never the controller's own.
/// A controller known by something other than an address (a replay) gets a
/// locally administered address hashed from that name.
public struct DualSenseAddress: Hashable, Sendable {
    /// The six octets, most significant first, as written "aa:bb:cc:dd:ee:ff".
    public let octets: [UInt8]

    /// The address for the controller known as `controllerAddress`
    /// ("EC:12:34:56:78:9A", or any other name).
    public init(controllerAddress: String) {
        if let parsed = Hex.bluetoothAddress(controllerAddress) {
            var octets = parsed
            octets[0] ^= 0x02
            self.octets = octets
        } else {
            // FNV-1a, 64 bits, of the name; the top six bytes, locally administered and unicast.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in controllerAddress.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
            var octets = (0..<6).map { UInt8((hash >> (56 - 8 * UInt64($0))) & 0xFF) }
            octets[0] = (octets[0] | 0x02) & ~0x01
            self.octets = octets
        }
    }

    /// Lower-case and colon-separated, as the kernel prints it into `uniq` (`%pMR`).
    public var uniq: String { Hex.bluetoothAddress(octets, uppercase: false) }

    /// The octets in the pairing report's order: least significant first.
    public var reportOrder: [UInt8] { octets.reversed() }
}
