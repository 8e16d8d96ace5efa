import TestSupport

@testable import VirtualHID

/// An input report read the way hid-playstation's `dualsense_parse_report`
/// reads a Bluetooth one (id 0x31 and 78 bytes, its CRC checked, then by
/// offset from byte 2), with its own constants: what the kernel's nodes would
/// then carry.
struct KernelReading {
    /// False when the kernel would drop the report ("DualSense input CRC's check failed").
    var crcMatches: Bool
    var x, y, rx, ry, z, rz: UInt8
    var hat: (x: Int, y: Int)
    var keys: Set<String>
    var gyro: [Int]
    var acceleration: [Int]
    var timestamp: UInt32
    var touches: [(active: Bool, contact: UInt8, x: Int, y: Int)]
    var touchpadClick: Bool
    var batteryCapacity: Int
    var batteryCharging: Bool

    init(_ report: [UInt8]) {
        precondition(report.count == 78 && report[0] == 0x31, "not a Bluetooth state report")
        crcMatches = BitwiseCRC32.littleEndianTail(of: report) == BitwiseCRC32.of([0xA1] + report.dropLast(4))
        let body = Array(report.dropFirst(2))
        x = body[0]; y = body[1]; rx = body[2]; ry = body[3]; z = body[4]; rz = body[5]
        let hats = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, 0)]
        let hatValue = Int(body[7] & 0x0F)
        hat = hatValue < hats.count ? hats[hatValue] : (0, 0)
        let names: [(Int, UInt8, String)] = [
            (7, 0x10, "BTN_WEST"), (7, 0x20, "BTN_SOUTH"), (7, 0x40, "BTN_EAST"), (7, 0x80, "BTN_NORTH"),
            (8, 0x01, "BTN_TL"), (8, 0x02, "BTN_TR"), (8, 0x04, "BTN_TL2"), (8, 0x08, "BTN_TR2"),
            (8, 0x10, "BTN_SELECT"), (8, 0x20, "BTN_START"), (8, 0x40, "BTN_THUMBL"), (8, 0x80, "BTN_THUMBR"),
            (9, 0x01, "BTN_MODE"),
        ]
        keys = Set(names.filter { body[$0.0] & $0.1 != 0 }.map(\.2))
        func int16(_ offset: Int) -> Int { Int(Int16(bitPattern: UInt16(body[offset]) | UInt16(body[offset + 1]) << 8)) }
        // Calibrated with the report DualSenseFeatureReports gives: gyro x64, acceleration x1.
        gyro = (0..<3).map { int16(15 + 2 * $0) * 1080 * 1024 / 17280 }
        acceleration = (0..<3).map { int16(21 + 2 * $0) * 2 * 8192 / 16384 }
        timestamp = (0..<4).reduce(0) { $0 | UInt32(body[27 + $1]) << (8 * UInt32($1)) }
        touches = [32, 36].map { offset in
            let contact = body[offset]
            return (contact & 0x80 == 0, contact & 0x7F,
                    Int(body[offset + 2] & 0x0F) << 8 | Int(body[offset + 1]),
                    Int(body[offset + 3]) << 4 | Int(body[offset + 2] >> 4))
        }
        touchpadClick = body[9] & 0x02 != 0
        let status = body[52]
        batteryCharging = status >> 4 == 1
        switch status >> 4 {
        case 0, 1: batteryCapacity = min(Int(status & 0x0F) * 10 + 5, 100)
        case 2: batteryCapacity = 100
        default: batteryCapacity = 0
        }
    }
}
