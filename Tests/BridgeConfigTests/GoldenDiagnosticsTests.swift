import Foundation
import TestSupport
import Testing
@testable import BridgeConfig

/// Each `Fixtures/NAME.toml` is a broken config; `Fixtures/NAME.errors` holds exactly
/// what `check-config` prints for it (file named `NAME.toml`), one error a line.
///
/// To write the `.errors` files anew after changing a message, run the tests with
/// `DAYDREAM_UPDATE_GOLDEN=1` (they are rewritten and still fail) and review the diff.
@Suite("Golden config diagnostics")
struct GoldenDiagnosticsTests {
    static let fixtures = RepositoryFiles.files(in: RepositoryFiles.fixtures, endingIn: ".toml").map(\.lastPathComponent)

    @Test("there are fixtures")
    func fixturesExist() {
        #expect(Self.fixtures.count >= 10)
    }

    @Test("diagnostics match the golden text", arguments: fixtures)
    func golden(name: String) throws {
        let url = RepositoryFiles.fixtures.appendingPathComponent(name)
        let actual: String
        do {
            _ = try ConfigDecoder.decode(try RepositoryFiles.bytes(url))
            actual = ""
        } catch let errors as ConfigErrors {
            actual = errors.formatted(file: name).map { $0 + "\n" }.joined()
        }
        #expect(!actual.isEmpty, "every fixture is a broken config")
        GoldenFile.check(actual, against: url.deletingPathExtension().appendingPathExtension("errors"))
    }
}
