import EventVocabulary
import Foundation
import Mapping
import Testing
@testable import BridgeConfig

/// doc/configuration.md against the decoder: each table after a `<!-- keys: NAME -->` or
/// `<!-- values: NAME -->` marker names, in its first column, exactly what the decoder accepts
/// there, and every list the decoder checks keys or names against has its table.
@Suite("Configuration reference")
struct ConfigReferenceTests {
    static let page = RepositoryFiles.root.appendingPathComponent("doc/configuration.md")

    /// What the decoder accepts, by the page's marker name.
    static let accepted: [String: [String]] = {
        var lists: [String: [String]] = [
            "keys: top level": ConfigDecoder.rootKeys,
            "keys: bridge": ConfigDecoder.bridgeKeys,
            "keys: gamepad": ConfigDecoder.gamepadKeys,
            "keys: dsu": ConfigDecoder.dsuKeys,
            "keys: opentrack": ConfigDecoder.openTrackKeys,
            "keys: controller": ConfigDecoder.controllerKeys,
            "keys: profile": ConfigReader.profileKeys,
            "keys: tap-hold": ConfigReader.tapHoldKeys,
            "keys: touchpad": ["mode"],
            "keys: air-mouse": ConfigReader.airMouseKeys,
            "keys: tilt": ConfigReader.tiltKeys,
            "keys: pointer": ConfigReader.pointerKeys,
            "keys: gyro": ConfigReader.gyroKeys,
            "values: identity": GamepadIdentity.allCases.map(\.rawValue),
            "values: action": ConfigReader.specialActionNames,
            "values: touchpad mode": ConfigReader.touchpadOptions.map(\.mode),
        ]
        for option in ConfigReader.touchpadOptions {
            lists["keys: touchpad \(option.mode)"] = option.keys
        }
        return lists
    }()

    /// The page's marked tables: marker name to the backquoted names in each body row's first cell.
    static func markedTables(in text: String) -> [String: [String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var tables: [String: [String]] = [:]
        var index = 0
        while index < lines.count {
            let line = lines[index].trimmingCharacters(in: .whitespaces)
            index += 1
            guard line.hasPrefix("<!-- "), line.hasSuffix(" -->") else { continue }
            let name = String(line.dropFirst(5).dropLast(4))
            var names: [String] = []
            // The header row and its |---| line, then the body rows up to the first non-table line.
            var row = index + 2
            while row < lines.count, lines[row].hasPrefix("|") {
                let firstCell = lines[row].split(separator: "|", omittingEmptySubsequences: true).first ?? ""
                names += backquoted(in: String(firstCell))
                row += 1
            }
            tables[name] = names
            index = row
        }
        return tables
    }

    /// The texts between backquotes: `x-axis`, `y-axis` gives both.
    static func backquoted(in cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    @Test func theTableReaderReadsEveryNameOfTheFirstColumn() {
        let text = "<!-- keys: sample -->\n| key | value |\n|---|---|\n| `a`, `b` | `not this` |\n| `c` | 1 |\n\nafter\n"
        #expect(Self.markedTables(in: text) == ["keys: sample": ["a", "b", "c"]])
    }

    @Test func everyTableNamesExactlyWhatTheDecoderAccepts() throws {
        let tables = Self.markedTables(in: try String(contentsOf: Self.page, encoding: .utf8))
        for (name, accepted) in Self.accepted.sorted(by: { $0.key < $1.key }) {
            let documented = try #require(tables[name], "doc/configuration.md has no table marked <!-- \(name) -->")
            #expect(Set(documented) == Set(accepted), "<!-- \(name) -->: the page has \(documented.sorted()), the decoder \(accepted.sorted())")
            #expect(documented.count == Set(documented).count, "<!-- \(name) --> names a key twice: \(documented)")
        }
        let unknown = Set(tables.keys).subtracting(Self.accepted.keys)
        #expect(unknown.isEmpty, "doc/configuration.md marks tables the test does not know: \(unknown.sorted())")
    }
}
