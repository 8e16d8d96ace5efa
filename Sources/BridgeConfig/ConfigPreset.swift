/// A config the editor page offers to start from: one of the example files in `config/`, carried
/// in the program (`ConfigPreset+All.swift`, made by `scripts/generate-presets`), so a first run
/// needs no file from anywhere.
public struct ConfigPreset: Sendable, Equatable {
    /// The name the page and the API use (`gamepad`, `gyro-shooter`).
    public let name: String
    /// The file in `config/` it is (`gyro-aim.toml`).
    public let file: String
    /// What the page calls it (`Gyro shooter`).
    public let title: String
    /// The file's text.
    public let text: String

    /// The preset named `name`, if there is one.
    public static func named(_ name: String) -> ConfigPreset? {
        all.first { $0.name == name }
    }

    /// The profile the preset starts in (its `[bridge] profile`, else its first profile): the one
    /// a profile added from it copies.
    public var profile: String? {
        guard let configuration = try? ConfigDecoder.decode(Array(text.utf8)) else { return nil }
        return configuration.defaultProfile ?? configuration.profiles.first?.name
    }

    /// The first sentence of the file's opening comment: what the page says the preset is for.
    public var summary: String {
        var words: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("#") else { break }
            words += line.dropFirst().split(separator: " ")
        }
        let paragraph = words.joined(separator: " ")
        let stops = [paragraph.firstRange(of: ". "), paragraph.firstRange(of: ": ")].compactMap { $0?.lowerBound }
        guard let stop = stops.min() else { return paragraph }
        return String(paragraph[..<stop]) + "."
    }
}
