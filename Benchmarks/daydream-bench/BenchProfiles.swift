import Mapping
import Timebase

/// A configuration and the profile to run it in, with the name the table shows.
struct BenchProfile {
    var name: String
    var configuration: MappingConfiguration
    var profile: String?
}

enum BenchProfiles {
    /// No profile at all: decode and the controller model only.
    static let decodeAndModel = BenchProfile(
        name: "decode+model only", configuration: MappingConfiguration(profiles: []), profile: nil)

    /// Everything at once, the worst case a config can ask for: the pad as a stick,
    /// the air mouse always on, tilt on, tap/hold bindings and a chord.
    static let everything: BenchProfile = {
        var stick = StickOptions()
        stick.deadzone = 0.12
        var airMouse = AirMouseSettings()
        airMouse.always = true
        let profile = Profile(
            name: "everything",
            click: .plain(.keys([EventCode.btnSouth])),
            app: .tapHold(tap: .keys([EventCode.btnEast]), hold: .keys([EventCode.btnWest]), holdTime: nil),
            home: .tapHold(tap: .keys([EventCode.btnMode]), hold: .recenter, holdTime: nil),
            volumeUp: .plain(.keys([EventCode.btnTR])),
            volumeDown: .plain(.keys([EventCode.btnTL])),
            touchpad: .stick(stick),
            airMouse: airMouse,
            tilt: TiltSettings(),
            chords: [Chord(buttons: [.home, .app], action: .nextProfile)]
        )
        return BenchProfile(name: "built-in: everything", configuration: MappingConfiguration(profiles: [profile]), profile: nil)
    }()
}
