import DaydreamProtocol
import Recording
import Testing
import Timebase

/// The recording text format: writing, reading back, and the errors for bad text.
@Suite("recording format")
struct RecordingFormatTests {
    static let flat = "5BEBFFB825FDB000041000B00000000000000000"
    static let finger = "480BFE87EB00E801841000B00000000191FBA008"

    func parseErrors(_ text: String) -> [String] {
        do {
            _ = try RecordingParser.parse(text)
            return []
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func aWrittenRecordingReadsBackTheSame() throws {
        let packets = try [Self.flat, Self.finger].map { try DaydreamPacket(#require(Hex.decode($0))) }
        let recording = Recording(
            info: RecordingInfo(address: "C0:DD:EE:00:00:01", name: "Daydream controller", firmware: "1.0.8",
                                battery: 87, source: "test", extra: [RecordingField(key: "x-rig", value: "vm 2")]),
            entries: [
                RecordingEntry(time: .zero, event: .packet(packets[0])),
                RecordingEntry(time: TimeSpan(nanoseconds: 13_500_000), event: .packet(packets[1])),
                RecordingEntry(time: .seconds(2), event: .disconnected),
                RecordingEntry(time: .seconds(3.25), event: .connected),
                RecordingEntry(time: .seconds(3.26), event: .battery(86)),
            ]
        )
        let text = RecordingFormat.format(recording)
        #expect(text.hasPrefix("# daydream-bridge recording v1\naddress C0:DD:EE:00:00:01\nname Daydream controller\n"))
        #expect(text.contains("\n0.013500 \(Self.finger)\n2.000000 disconnected\n3.250000 connected\n3.260000 battery 86\n"))
        #expect(try RecordingParser.parse(text) == recording)
    }

    @Test func toleratesWhatDoesNotChangeTheMeaning() throws {
        let text = "\u{FEFF}# daydream-bridge recording v1  \r\n"
            + "\r\n"
            + "# a comment\n"
            + "  name   Daydream  controller \t\r\n"
            + "future-key some value\n"
            + "0 \(Self.flat.lowercased())   # trailing comment\n"
            + "\t0.5\t\(Self.finger)\n"
            + "0.5 disconnected\n"
        let recording = try RecordingParser.parse(text)
        #expect(recording.info.name == "Daydream  controller")
        #expect(recording.info.extra == [RecordingField(key: "future-key", value: "some value")])
        #expect(recording.entries.map(\.time) == [.zero, .milliseconds(500), .milliseconds(500)])
        #expect(recording.packets.count == 2)
        #expect(recording.entries.last?.event == .disconnected)
    }

    @Test func timesKeepNanoseconds() throws {
        let recording = try RecordingParser.parse("# daydream-bridge recording v1\n1.000000001 connected\n12 connected\n")
        #expect(recording.entries.map(\.time.nanoseconds) == [1_000_000_001, 12_000_000_000])
    }

    @Test func aTextWithoutTheHeaderIsRefused() {
        #expect(parseErrors("") == ["1:1: not a daydream-bridge recording: the first line must be '# daydream-bridge recording v1'"])
        #expect(parseErrors("0 \(Self.flat)\n").first?.hasPrefix("1:1: not a daydream-bridge recording") == true)
        #expect(parseErrors("# daydream-bridge recording vX\n") == ["1:30: expected a version number after '# daydream-bridge recording v'"])
    }

    @Test func aNewerVersionSaysToUpdate() {
        #expect(parseErrors("# daydream-bridge recording v2\n0 connected\n")
            == ["1:30: recording version 2 is newer than this program reads (1): update daydream-bridge"])
    }

    @Test func everyBadLineIsReportedWithItsPosition() {
        let text = """
        # daydream-bridge recording v1
        battery lots
        0.1 \(Self.flat)00
        0.2 \(Self.flat.prefix(10))Z\(Self.flat.dropFirst(11))
        0.3 connected # fine
        0.05 disconnected
        0.35 connected now
        1.x connected
        1. connected
        0.4 battery 101
        ! what
        0.4
        name
        0.4 wiggle
        """
        #expect(parseErrors(text) == [
            "2:9: battery is a percentage, 0 to 100, not 'lots'",
            "3:5: a packet is 20 bytes (40 hex digits); this one has 42 digits",
            "4:15: 'Z' is not a hex digit",
            "6:1: time 0.050000 is before the previous entry's 0.300000; times never decrease",
            "7:16: unexpected 'now' after the 'connected'",
            "8:3: expected digits after the decimal point",
            "9:3: expected digits after the decimal point",
            "10:13: battery is a percentage, 0 to 100, not '101'",
            "11:1: expected a time, an information key or '#', found '!'",
            "12:4: expected a packet (40 hex digits), connected, disconnected or battery after the time",
            "13:1: 'name' needs a value",
            "14:5: expected a packet (40 hex digits), connected, disconnected or battery, found 'wiggle'",
        ])
    }

    @Test func parsingStopsAfterTheMaximumNumberOfProblems() {
        let text = "# daydream-bridge recording v1\n" + String(repeating: "? bad\n", count: 50)
        #expect(parseErrors(text).count == RecordingParser.maximumDiagnostics)
    }

    @Test func errorsCanNameTheFile() {
        let error = RecordingParseError(diagnostics: [RecordingDiagnostic(line: 3, column: 7, message: "bad")])
        #expect(error.describe(file: "a.recording") == "a.recording:3:7: bad")
    }

    @Test func arbitraryBytesNeverCrashTheParser() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("0123456789abcdefABCDEF .#\n\r\tconnectedisbatry-xyz!".utf8)
        for _ in 0..<500 {
            var bytes = Array("# daydream-bridge recording v1\n".utf8)
            for _ in 0..<Int.random(in: 0..<200, using: &generator) {
                bytes.append(alphabet.randomElement(using: &generator) ?? 0)
            }
            if Bool.random(using: &generator) { bytes.append(UInt8.random(in: 0...255, using: &generator)) }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                let recording = try RecordingParser.parse(text)
                // Whatever was accepted writes and reads back the same.
                #expect(try RecordingParser.parse(RecordingFormat.format(recording)).entries == recording.entries)
            } catch {
                #expect(!error.diagnostics.isEmpty)
            }
        }
    }
}
