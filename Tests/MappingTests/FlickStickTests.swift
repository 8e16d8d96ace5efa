import DaydreamProtocol
import EventVocabulary
import Foundation
import Mapping
import Testing

/// Flick stick on the pad's rim: the flick to the touched direction within flick-time, 1:1
/// along the rim, snapping, and a flick that finishes after the thumb lifts.
@Suite("flick stick")
struct FlickStickTests {
    /// A touch at `degrees` (0 up, clockwise) at `radius` of the pad's radius.
    static func touch(_ degrees: Double, radius: Double = 0.9) -> TouchPoint {
        let angle = degrees * Double.pi / 180
        return TouchPoint(x: 0.5 + sin(angle) * radius / 2, y: 0.5 - cos(angle) * radius / 2)
    }

    /// REL_X per packet, one packet every 10 ms.
    static func run(_ options: FlickOptions, _ touches: [TouchPoint?]) -> [Int] {
        var engine = MappingEngine(configuration: MappingConfiguration(profiles: [Profile(name: "f", touchpad: .flick(options))]))
        return touches.enumerated().map { index, touch in
            var buffer = OutputBuffer()
            engine.update(ControllerInput(touch: touch), at: .milliseconds(Int64(index * 10)), into: &buffer)
            return buffer.events.filter { $0.type == EventType.rel && $0.code == EventCode.relX }.reduce(0) { $0 + Int($1.value) }
        }
    }

    static func options(_ change: (inout FlickOptions) -> Void = { _ in }) -> FlickOptions {
        var options = FlickOptions()
        options.countsPerDegree = 10
        change(&options)
        return options
    }

    @Test func touchingTheRimFlicksToThatDirectionWithinFlickTime() {
        let counts = Self.run(Self.options(), Array(repeating: Self.touch(90), count: 15))
        #expect(counts.reduce(0, +) == 900, "a quarter turn right: 90 degrees x 10 counts")
        #expect(counts.prefix(11).reduce(0, +) == 900, "all of it within 100 ms")
        #expect(counts.max() ?? 0 <= 91, "spread over the flick time (fractions carried): \(counts)")
    }

    @Test func movingAlongTheRimTurnsOneToOne() {
        var touches: [TouchPoint?] = Array(repeating: Self.touch(0), count: 12)  // straight ahead: no flick
        touches += (1...9).map { Self.touch(Double($0) * 10) }  // round to 90 degrees
        let counts = Self.run(Self.options(), touches)
        #expect(counts.prefix(12).reduce(0, +) == 0)
        #expect(counts.suffix(9).allSatisfy { abs($0 - 100) <= 1 }, "10 degrees a packet, 100 counts each: \(counts.suffix(9))")
        #expect(abs(counts.suffix(9).reduce(0, +) - 900) <= 1)
        // Across the bottom (170 -> 180 -> -170) is 20 degrees, not 340 back.
        let across = Self.run(Self.options(), [Self.touch(170)] + Array(repeating: Self.touch(170), count: 11) + [Self.touch(-170)])
        #expect(abs((across.last ?? 0) - 200) <= 1)
    }

    @Test func snappingAndTheRim() {
        #expect(Self.run(Self.options { $0.snap = .four }, Array(repeating: Self.touch(30), count: 12)).reduce(0, +) == 0, "30 snaps to ahead")
        let halfSnapped = Self.run(Self.options { $0.snap = .four; $0.snapStrength = 0.5 }, Array(repeating: Self.touch(30), count: 12))
        #expect(abs(halfSnapped.reduce(0, +) - 150) <= 1, "half way from 30 to ahead: 15 degrees")
        #expect(Self.run(Self.options { $0.snap = .eight }, Array(repeating: Self.touch(-50), count: 12)).reduce(0, +) == -450)
        #expect(Self.run(Self.options(), Array(repeating: Self.touch(90, radius: 0.4), count: 12)).reduce(0, +) == 0, "inside the rim: nothing")
    }

    @Test func aFlickFinishesAfterTheThumbLifts() {
        let counts = Self.run(Self.options(), [Self.touch(180), Self.touch(180)] + Array(repeating: nil, count: 12))
        #expect(counts.reduce(0, +) == 1800, "a half turn, though the thumb lifted after 10 ms")
    }
}
