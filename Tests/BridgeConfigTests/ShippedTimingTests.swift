import DaydreamProtocol
import EventVocabulary
import Foundation
import Mapping
import Testing
import Timebase
@testable import BridgeConfig

/// Every button of every shipped profile, through the engine in virtual time with the
/// controller's 80 Hz reports: a 150 ms press keeps each key it presses down for at least
/// 100 ms (so a game reading once a frame sees it), and a plain binding held down is pressed
/// within the chord window.
@Suite("Shipped profiles' press timing")
struct ShippedTimingTests {
    static let files = RepositoryFiles.files(in: RepositoryFiles.config, endingIn: ".toml").map(\.lastPathComponent)
    static let report = TimeSpan(nanoseconds: 12_500_000)

    /// The keys the engine pressed and how long each stayed down, for `button` held from 0 to `held`.
    static func keyDurations(_ configuration: MappingConfiguration, profile: String, button: ControllerButton, held: TimeSpan)
        -> [(code: UInt16, pressed: MonotonicTime, down: TimeSpan?)] {
        var engine = MappingEngine(configuration: configuration, profileName: profile)
        var buffer = OutputBuffer()
        var presses: [(code: UInt16, pressed: MonotonicTime, down: TimeSpan?)] = []
        func collect(at time: MonotonicTime) {
            for event in buffer.events where event.type == EventType.key {
                if event.value == 1 {
                    presses.append((event.code, time, nil))
                } else if let index = presses.lastIndex(where: { $0.code == event.code && $0.down == nil }) {
                    presses[index].down = time - presses[index].pressed
                }
            }
            buffer.removeAll()
        }
        var time = MonotonicTime.zero
        let end = MonotonicTime.zero + held + .seconds(2)
        while time <= end {
            // Timers first, as the daemon's would fire between reports.
            while let deadline = engine.nextDeadline, deadline < time {
                engine.advance(to: deadline, into: &buffer)
                collect(at: deadline)
            }
            let down = time < MonotonicTime.zero + held
            engine.update(ControllerInput(buttons: down ? button.mask : []), at: time, into: &buffer)
            collect(at: time)
            time = time + report
        }
        return presses
    }

    @Test("a 150 ms press is down at least 100 ms; a held plain binding within the chord window", arguments: files)
    func pressTiming(file: String) throws {
        let configuration = try ConfigDecoder.decode(try RepositoryFiles.bytes(RepositoryFiles.config.appendingPathComponent(file)))
        for profile in configuration.profiles {
            for button in ControllerButton.allCases {
                let context = "\(file) \(profile.name) \(button)"
                for press in Self.keyDurations(configuration, profile: profile.name, button: button, held: .milliseconds(150)) {
                    let down = try #require(press.down, "\(context): key \(press.code) stuck")
                    #expect(down >= .milliseconds(100), "\(context): key \(press.code) down only \(down)")
                }
                guard case .plain(.keys) = profile[button] else { continue }
                let held = Self.keyDurations(configuration, profile: profile.name, button: button, held: .seconds(2))
                #expect(!held.isEmpty, "\(context): held, pressed nothing")
                for press in held {
                    #expect(press.pressed - .zero <= configuration.chordWindow, "\(context): held, pressed only at \(press.pressed)")
                }
            }
        }
    }
}
