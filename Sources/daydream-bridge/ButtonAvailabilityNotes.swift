import DaydreamProtocol
import Mapping

/// `check-config`'s notes on buttons not every controller has: a profile may bind the trigger
/// and back button (or join them in a chord) whatever controller it serves; the note says
/// which controllers have them, so a Daydream owner knows why nothing happens.
enum ButtonAvailabilityNotes {
    /// One line a profile and button the Daydream (the controller most people have) lacks, in
    /// profile order.
    static func lines(for configuration: MappingConfiguration) -> [String] {
        var lines: [String] = []
        for profile in configuration.profiles {
            var used = DaydreamButtons()
            for button in ControllerButton.allCases where profile[button] != nil { used.insert(button.mask) }
            for chord in profile.chords { used.formUnion(chord.buttons) }
            for (name, button) in DaydreamButtons.named where used.contains(button) && !ControllerFamily.daydream.buttons.contains(button) {
                let having = ControllerFamily.having(button)
                lines.append("Note: profile '\(profile.name)' uses \(name), which only the \(having.joined(separator: " and ")) "
                             + "controller\(having.count == 1 ? " has" : "s have"); others never press it.")
            }
        }
        return lines
    }
}
