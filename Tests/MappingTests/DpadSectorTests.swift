#if canImport(Glibc)
import Glibc
#endif
import DaydreamProtocol
@testable import Mapping
import Testing

@Suite("D-pad sectors")
struct DpadSectorTests {
    private func options(directions: Int, deadzone: Double = 0.25) -> DpadOptions {
        var options = DpadOptions()
        options.directions = directions
        options.deadzone = deadzone
        return options
    }

    /// What the sector of the angle gives, the deadzone first, as the d-pad decided before it
    /// compared coordinates.
    private func byAngle(_ position: PadPosition, _ options: DpadOptions) -> UInt8 {
        guard position.radius > options.deadzone else { return 0 }
        return MappingEngine.dpadDirectionsByAngle(position, sectors: options.directions)
    }

    /// Every position a packet can report (255 steps a side), for 4 and 8 directions and a
    /// deadzone of 0, the default and a wide one: the same directions as the angle's sector.
    @Test func everyPacketPositionGetsTheDirectionsOfItsAngle() {
        var differing: [String] = []
        for directions in [4, 8] {
            for deadzone in [0.0, 0.25, 0.6] {
                let options = options(directions: directions, deadzone: deadzone)
                for x in 0...255 {
                    for y in 0...255 {
                        let position = PadPosition(TouchPoint(x: Double(x) * Scale.touch, y: Double(y) * Scale.touch))
                        if MappingEngine.dpadDirections(position, options) != byAngle(position, options) {
                            differing.append("\(directions) directions, deadzone \(deadzone): (\(x), \(y))")
                        }
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
    }

    /// Points on and a hair either side of every sector boundary, at several distances from the
    /// centre: the same directions as the angle's sector, and the boundaries fall where they should.
    @Test func theBoundariesFallWhereTheAnglesDo() {
        var differing: [String] = []
        for directions in [4, 8] {
            let options = options(directions: directions, deadzone: 0)
            let boundaries = directions == 4 ? 4 : 8
            for boundary in 0..<boundaries {
                let angle = (Double(boundary) + 0.5) * 2 * Double.pi / Double(boundaries)
                for radius in [0.3, 0.7, 1.0] {
                    for offset in [-1e-6, -1e-12, -1e-15, 0, 1e-15, 1e-12, 1e-6] {
                        let position = PadPosition(TouchPoint(
                            x: 0.5 + radius * cos(angle + offset) / 2, y: 0.5 + radius * sin(angle + offset) / 2))
                        if MappingEngine.dpadDirections(position, options) != byAngle(position, options) {
                            differing.append("\(directions) directions, boundary \(boundary), offset \(offset)")
                        }
                    }
                }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(10))")
        let four = options(directions: 4, deadzone: 0)
        let eight = options(directions: 8, deadzone: 0)
        let downRight = PadPosition(TouchPoint(x: 0.9, y: 0.9))
        #expect(MappingEngine.dpadDirections(downRight, four) == Direction.down, "a tie at 45 degrees goes clockwise")
        #expect(MappingEngine.dpadDirections(downRight, eight) == Direction.down | Direction.right)
        let mostlyRight = PadPosition(TouchPoint(x: 0.9, y: 0.55))
        #expect(MappingEngine.dpadDirections(mostlyRight, eight) == Direction.right)
        let mostlyUp = PadPosition(TouchPoint(x: 0.45, y: 0.1))
        #expect(MappingEngine.dpadDirections(mostlyUp, eight) == Direction.up)
    }
}
