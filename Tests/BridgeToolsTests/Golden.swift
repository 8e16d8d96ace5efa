import Foundation

/// Golden files under `Tests/BridgeToolsTests/Golden` and recordings under `Tests/Recordings`,
/// compared with `GoldenFile.check`.
enum Golden {
    static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let goldenDirectory = testsDirectory.appendingPathComponent("BridgeToolsTests/Golden")
    static let recordingsDirectory = testsDirectory.appendingPathComponent("Recordings")
}
