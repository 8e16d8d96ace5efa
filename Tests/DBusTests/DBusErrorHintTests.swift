@testable import DBus
import Testing

/// The generic D-Bus layer's hints are the library's words: no program's commands in them.
@Suite("D-Bus error hints")
struct DBusErrorHintTests {
    @Test func noHintNamesAProgramsCommand() {
        #expect(!DBusError.hints.isEmpty)
        for (name, hint) in DBusError.hints {
            #expect(!hint.contains("daydream-bridge"), "\(name): \(hint)")
        }
    }

    @Test func aStaleBondSaysWhatHappenedAndWhatToDo() {
        let error = DBusError(name: "org.bluez.Error.AuthenticationFailed", message: "")
        #expect(error.description.contains("stale bond") && error.description.contains("pair it again"))
    }
}
