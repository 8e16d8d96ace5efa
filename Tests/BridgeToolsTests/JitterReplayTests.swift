@testable import Bridge
import BridgeConfig
import Mapping
import Recording
import Testing
import Timebase

/// `touch-jitter.recording`: a swipe whose packets arrive bunched, as Bluetooth delivers them,
/// moves the pointer exactly as the same packets arriving evenly, in every trackpad profile
/// (the accelerating ones included: their gain goes by the controller's clock, not arrival).
/// `motion-jitter.recording`: the same for a turn of the controller with the air mouse on.
@Suite("jittered arrival")
@MainActor
struct JitterReplayTests {
    /// (file, profile) of every shipped trackpad profile.
    nonisolated static let trackpads = ["default.toml mouse", "mouse.toml mouse"]

    /// Every shipped profile whose air mouse is always on.
    nonisolated static let airMice = ["mouse.toml reader"]

    static func recording(_ name: String = "touch-jitter") throws -> Recording {
        try #require(Scenarios.all.first { $0.name == name }).recording
    }

    /// The pointer's path: the relative motion of each report, in order, without times.
    static func path(_ recording: Recording, _ file: String, _ profile: String) throws -> [String] {
        let lines = try ReplayGoldenTests.replayLines(recording, ReplayGoldenTests.load(file), profile: profile)
        var path: [String] = []
        for line in lines {
            let words = line.split(separator: " ").map(String.init)
            guard words.count == 5, words[1] == "mouse" else { continue }
            if words[2] == "EV_REL" {
                path.append("\(words[3]) \(words[4])")
            } else if words[3] == "SYN_REPORT" {
                path.append("SYN")
            }
        }
        return path
    }

    @Test(arguments: ["touch-jitter", "motion-jitter"])
    func theRecordingIsJittered(name: String) throws {
        var times: [Int64] = []
        for entry in try Self.recording(name).entries {
            if case .packet = entry.event { times.append(entry.time.nanoseconds) }
        }
        var gaps: [Int64] = []
        for index in times.indices.dropFirst() { gaps.append(times[index] - times[index - 1]) }
        #expect(gaps.min() ?? 0 <= 1_300_000, "no bunched packets")
        #expect(gaps.max() ?? 0 >= 30_000_000, "no gaps")
        #expect(gaps.filter { $0 < 2_000_000 }.count * 2 >= gaps.count, "fewer than half the packets bunched")
    }

    @Test(arguments: trackpads)
    func pathIsTheSameAsWithEvenArrivals(target: String) throws {
        let parts = target.split(separator: " ").map(String.init)
        let configuration = try ReplayGoldenTests.load(parts[0])
        guard case .trackpad(let options) = configuration.profile(named: parts[1])?.touchpad else {
            Issue.record("\(target) is not a trackpad profile")
            return
        }
        #expect(options.acceleration != 1, "\(target): a linear trackpad cannot show the fault")
        let even = try Self.path(Scenarios.swipe(arrival: { $0 }), parts[0], parts[1])
        let jittered = try Self.path(Self.recording(), parts[0], parts[1])
        let moved = even.filter { $0.hasPrefix("REL_X") }.compactMap { Int($0.split(separator: " ")[1]) }.reduce(0, +)
        #expect(moved > 300, "\(target): the swipe hardly moved the pointer (\(moved))")
        #expect(jittered == even, "\(target): the jittered path differs from the even one")
    }

    @Test(arguments: airMice)
    func airMousePathIsTheSameAsWithEvenArrivals(target: String) throws {
        let parts = target.split(separator: " ").map(String.init)
        let configuration = try ReplayGoldenTests.load(parts[0])
        #expect(configuration.profile(named: parts[1])?.airMouse.always == true, "\(target): the air mouse is not always on")
        let even = try Self.path(Scenarios.turn(arrival: { $0 }), parts[0], parts[1])
        let jittered = try Self.path(Self.recording("motion-jitter"), parts[0], parts[1])
        let moved = even.filter { $0.hasPrefix("REL_X") }.compactMap { Int($0.split(separator: " ")[1]) }.reduce(0, +)
        #expect(moved < -300, "\(target): the turn hardly moved the pointer (\(moved))")
        #expect(jittered == even, "\(target): the jittered path differs from the even one")
    }
}
