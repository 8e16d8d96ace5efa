import BridgeConfig
import EventVocabulary
import Foundation
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
            volumeUp: .plain(.keys([EventCode.btnTr])),
            volumeDown: .plain(.keys([EventCode.btnTl])),
            touchpad: .stick(stick),
            airMouse: airMouse,
            tilt: TiltSettings(),
            chords: [Chord(buttons: [.home, .app], action: .nextProfile)]
        )
        return BenchProfile(name: "built-in: everything", configuration: MappingConfiguration(profiles: [profile]), profile: nil)
    }()
}

extension BenchProfiles {
    /// Every profile of every `*.toml` in `directory` (the shipped configs), in file
    /// and profile order; a file that does not decode is reported in `problems`.
    static func shipped(in directory: String) -> (profiles: [BenchProfile], problems: [String]) {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".toml") }
            .sorted()
        var profiles: [BenchProfile] = []
        var problems: [String] = []
        for file in files {
            let path = directory + "/" + file
            guard let data = FileManager.default.contents(atPath: path) else {
                problems.append("\(path): cannot read")
                continue
            }
            do {
                let configuration = try ConfigDecoder.decode(Array(data))
                for profile in configuration.profiles {
                    profiles.append(BenchProfile(
                        name: "\(file.dropLast(5)).\(profile.name)", configuration: configuration, profile: profile.name))
                }
            } catch {
                problems.append(contentsOf: error.formatted(file: path))
            }
        }
        return (profiles, problems)
    }
}
