import Foundation
import TestSupport
import Testing

@testable import VirtualHID

/// The descriptor and the encoder checked against an independent HID parser:
/// hid-tools (PyPI), in the venv `scripts/install-deps --test` makes
/// (`.build/test-python`), or `$DAYDREAM_TEST_PYTHON`. Skipped, with the
/// reason printed, where neither has it.
@Suite(.requires(HIDTools.python != nil, "needs python3 with hid-tools (scripts/install-deps --test)"))
struct HIDToolsTests {
    /// Parses the descriptor, then prints each report's length and, for the
    /// input report given in hex, every field's usage and values, one a line:
    /// "size input 1 64", "field 0x10030 [12]".
    private static let script = """
        import sys
        from hidtools.hid import ReportDescriptor
        rdesc = ReportDescriptor.from_bytes(bytes.fromhex(sys.argv[1]))
        for kind, reports in (("input", rdesc.input_reports), ("output", rdesc.output_reports),
                              ("feature", rdesc.feature_reports)):
            for report_id, report in sorted(reports.items()):
                print("size", kind, report_id, report.size)
        data = list(bytes.fromhex(sys.argv[2]))
        report = rdesc.get(data[0], len(data))
        for field in report:
            usage = field.usage if field.usage > 0xFFFF else (field.usage_page << 16) | field.usage
            print("field", hex(usage), field.get_values(data))
        """

    private func parse(_ report: [UInt8]) throws -> (sizes: Set<String>, fields: [String: [String]]) {
        let python = try #require(HIDTools.python)
        let (status, text) = try ProgramOutput.run(python, ["-c", Self.script, HIDTools.hex(DualSenseReportDescriptor.bytes), HIDTools.hex(report)])
        #expect(status == 0)
        var sizes: Set<String> = []
        var fields: [String: [String]] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            if words.first == "size" {
                sizes.insert(words.dropFirst().joined(separator: " "))
            } else if words.first == "field", words.count == 3 {
                fields[words[1], default: []].append(words[2])
            }
        }
        return (sizes, fields)
    }

    @Test func theParserFindsEveryReportWithTheDriversLength() throws {
        var encoder = DualSenseInputReportEncoder()
        encoder.encode(DualSenseInputState())
        let sizes = try parse(encoder.report).sizes
        #expect(sizes == ["input 49 78", "output 49 78", "feature 5 41", "feature 9 20", "feature 32 64"])
    }

    @Test func theParserReadsTheEncodedValues() throws {
        var state = DualSenseInputState()
        state.leftStick = .init(x: 10, y: 20)
        state.rightStick = .init(x: 30, y: 40)
        state.leftTrigger = 50
        state.rightTrigger = 60
        state.dpad = .east
        state.buttons = [.cross, .r1, .ps]
        state.rotationRate = .init(x: 1, y: -2, z: 3)
        state.acceleration = .init(x: 0.5, y: -1, z: 0)
        state.sensorTime = 7
        var encoder = DualSenseInputReportEncoder()
        encoder.encode(state)
        let fields = try parse(encoder.report).fields
        // Generic Desktop X, Y, Z, Rz, Rx, Ry; the hat; buttons 1-15 (one field each or one array).
        #expect(fields["0x10030"] == ["[10]"])
        #expect(fields["0x10031"] == ["[20]"])
        #expect(fields["0x10032"] == ["[30]"])
        #expect(fields["0x10035"] == ["[40]"])
        #expect(fields["0x10033"] == ["[50]"])
        #expect(fields["0x10034"] == ["[60]"])
        #expect(fields["0x10039"] == ["[2]"])
        let buttons = (1...15).map { fields["0x9" + String(format: "%04x", $0)]?.first ?? "missing" }
        let pressed = [2, 6, 13]  // cross, R1, PS: buttons 2, 6 and 13 in the descriptor's order
        #expect(buttons == (1...15).map { pressed.contains($0) ? "[1]" : "[0]" })
        // The vendor page's signed motion fields and the sensor clock.
        #expect(fields["0xff000023"] == ["[16]"])
        #expect(fields["0xff000024"] == ["[-32]"])
        #expect(fields["0xff000025"] == ["[48]"])
        #expect(fields["0xff000026"] == ["[4096]"])
        #expect(fields["0xff000027"] == ["[-8192]"])
        #expect(fields["0xff000028"] == ["[0]"])
        #expect(fields["0xff000029"] == ["[21]"])
        // The sequence byte, and the CRC the parser finds in the last field.
        #expect(fields["0xff00002b"] == ["[0]"])
        let crc = Int32(bitPattern: BitwiseCRC32.of([0xA1] + encoder.report.dropLast(4)))
        #expect(fields["0xff00002c"] == ["[\(crc)]"])
    }
}

/// Where hid-tools is, if anywhere.
enum HIDTools {
    /// A python3 that can import hid-tools, or nil (the reason printed once).
    static let python: String? = {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var candidates = [packageRoot.appendingPathComponent(".build/test-python/bin/python3").path]
        if let chosen = ProcessInfo.processInfo.environment["DAYDREAM_TEST_PYTHON"] { candidates.insert(chosen, at: 0) }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: candidate)
            process.arguments = ["-c", "import hidtools.hid"]
            process.standardError = FileHandle.nullDevice
            if (try? process.run()) != nil {
                process.waitUntilExit()
                if process.terminationStatus == 0 { return candidate }
            }
        }
        print("VirtualHIDTests: skipping the hid-tools tests: no python3 with hid-tools at "
            + "\(candidates.joined(separator: " or ")) (scripts/install-deps --test makes one)")
        return nil
    }()

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined()
    }
}
