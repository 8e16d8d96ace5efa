import DaydreamProtocol
import Testing

/// `Hex.bluetoothAddress`, the one reader of `AA:BB:CC:DD:EE:FF` that the CLI, the config,
/// the DSU slots and the DualSense's address share.
struct BluetoothAddressTextTests {
    @Test func sixPairsOfHexDigitsInEitherCaseAreAnAddress() {
        #expect(Hex.bluetoothAddress("C0:DD:ee:00:0a:FF") == [0xC0, 0xDD, 0xEE, 0x00, 0x0A, 0xFF])
        #expect(Hex.bluetoothAddress([0xC0, 0x0A, 0, 1, 2, 0xFF], uppercase: true) == "C0:0A:00:01:02:FF")
        #expect(Hex.bluetoothAddress([0xC0, 0x0A, 0, 1, 2, 0xFF], uppercase: false) == "c0:0a:00:01:02:ff")
    }

    @Test func anythingElseIsNot() {
        for text in ["", "C0:DD:EE:00:00", "C0:DD:EE:00:00:01:02", "C0:DD:EE:00:00:0G", "C0:DD:EE:00:00:1",
                     "C0:DD:EE:00:00:+1", "C0:DD:EE:00:00:-1", "C0DD:EE:00:00:01:", "C0-DD-EE-00-00-01"] {
            #expect(Hex.bluetoothAddress(text) == nil, "\(text)")
        }
    }
}
