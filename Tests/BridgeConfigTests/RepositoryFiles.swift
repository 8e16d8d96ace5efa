import Foundation

/// Files of this repository, found from this source file's path.
enum RepositoryFiles {
    /// The repository's root directory.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Tests/BridgeConfigTests/Fixtures.
    static let fixtures = root.appendingPathComponent("Tests/BridgeConfigTests/Fixtures")

    /// config/.
    static let config = root.appendingPathComponent("config")

    /// The files in `directory` whose names end in `suffix`, sorted by name.
    static func files(in directory: URL, endingIn suffix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The bytes of a file.
    static func bytes(_ url: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: url))
    }
}
