import Foundation
import Testing

/// Facts about the run the tests are part of.
public enum TestRun {
    /// True under `CI=true`, where `scripts/install-deps --test` has installed every tool a
    /// test needs: there a missing tool is a broken install, never a reason to skip.
    public static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"
}

/// What a test needed and did not find, in a CI run that must have it.
public struct MissingRequirement: Error, CustomStringConvertible {
    /// The requirement's own words ("needs busctl and gdbus").
    public let reason: String

    public var description: String {
        "CI=true and this test's requirement is not met (\(reason)): scripts/install-deps --test installs it"
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs the test or suite when `available()` is true. When it is not, the test is skipped
    /// with `reason` on a developer's machine, and fails with `reason` under `CI=true`.
    ///
    /// Only what the end-to-end VM runs instead (real `/dev/uinput` and `/dev/uhid`) keeps a
    /// plain `.enabled(if:)`, which skips everywhere; `scripts/unit-tests` fails a CI run that
    /// skipped anything else.
    public static func requires(_ available: @autoclosure @escaping @Sendable () -> Bool, _ reason: String,
                                sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        .enabled(Comment(rawValue: reason), sourceLocation: sourceLocation) {
            if available() { return true }
            if TestRun.isCI { throw MissingRequirement(reason: reason) }
            return false
        }
    }
}
