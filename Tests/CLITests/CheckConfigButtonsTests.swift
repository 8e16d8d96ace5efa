import Foundation
import TestSupport
import Testing

/// `check-config` with the Gear VR's and Oculus Go's buttons: accepted in any profile, with a note.
@Suite("check-config trigger and back", .requires(BuiltBinary.exists, "the daydream-bridge binary is not built"))
struct CheckConfigButtonsTests {
    @Test func triggerAndBackAreAcceptedWithANoteOnWhoHasThem() throws {
        let scratch = try TemporaryDirectory(prefix: "daydream-check-buttons")
        let file = scratch.path + "/config.toml"
        try """
        [profile.shooter]
        trigger = "BTN_TR2"
        back = "KEY_ESC"
        click = "BTN_SOUTH"

        [profile.plain]
        home = "KEY_HOME"

        [profile.plain.chords]
        "trigger+click" = "KEY_ENTER"
        """.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try BuiltBinary.run(["check-config", file])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            Note: profile 'shooter' uses trigger, which only the gear-vr and oculus-go controllers have; others never press it.
            Note: profile 'shooter' uses back, which only the gear-vr and oculus-go controllers have; others never press it.
            Note: profile 'plain' uses trigger, which only the gear-vr and oculus-go controllers have; others never press it.
            No errors found.

            """)
    }
}
