#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DaydreamProtocol
import EventVocabulary
import Timebase

/// Per-gesture touchpad state; reset on lift, profile switch and `releaseAll`.
struct TouchpadState: Sendable {
    /// The click is held and pressing the d-pad (activation = click).
    var dpadClickHeld = false
    /// D-pad directions down, as `Direction` bits.
    var dpadDirections: UInt8 = 0
    /// The last finger position of the current gesture (trackpad, scroll).
    var lastPoint: TouchPoint?
    /// The last finger angle around the centre (wheel), nil when outside the rim band.
    var lastAngle: Double?
    /// When the last point arrived, and the controller's stamp on it.
    var lastTime = MonotonicTime.zero
    var lastStamp: ControllerStamp?
    /// Fractions of a count not yet emitted, horizontal and vertical.
    var remainderX = 0.0
    var remainderY = 0.0
    /// Hi-res units emitted since the last whole detent, horizontal and vertical.
    var detentX: Int32 = 0
    var detentY: Int32 = 0
    /// The flick in progress, which outlives the touch that started it.
    var flick = FlickState()
    /// Whether the touchpad device has a finger down, and the last touch's tracking id.
    var surfaceTouching = false
    var surfaceTrackingID: Int32 = -1

    mutating func reset() {
        self = TouchpadState()
    }

    mutating func endGesture() {
        lastPoint = nil
        lastAngle = nil
        remainderX = 0
        remainderY = 0
        detentX = 0
        detentY = 0
    }
}

/// D-pad direction bits.
enum Direction {
    static let up: UInt8 = 1
    static let down: UInt8 = 2
    static let left: UInt8 = 4
    static let right: UInt8 = 8
    /// Directions of the 4 sectors, clockwise from "right".
    static let fourSectors: [UInt8] = [right, down, left, up]
    /// Directions of the 8 sectors, clockwise from "right"; diagonals hold two.
    static let eightSectors: [UInt8] = [right, right | down, down, down | left, left, left | up, up, up | right]
    /// (bit, BTN_DPAD_* code), in code order.
    static let buttons: [(bit: UInt8, code: UInt16)] = [
        (up, EventCode.btnDpadUp), (down, EventCode.btnDpadDown),
        (left, EventCode.btnDpadLeft), (right, EventCode.btnDpadRight),
    ]
}

extension MappingEngine {
    /// The d-pad claims a click made off-centre when it is activated by click.
    mutating func claimClickForDpad(_ input: ControllerInput) -> Bool {
        guard case .dpad(let options) = prepared.profile.touchpad, options.activation == .click,
              let touch = input.touch, Self.dpadDirections(PadPosition(touch), options) != 0 else { return false }
        touchpad.dpadClickHeld = true
        return true
    }

    /// The touchpad's part of a packet, in the active mode. Inlined into `update`, its one caller.
    @inline(__always)
    mutating func updateTouchpad(_ input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        switch prepared.profile.touchpad {
        case .none:
            break
        case .stick(let options):
            updateStick(input.touch, options, into: &buffer)
        case .dpad(let options):
            updateDpad(input.touch, options, into: &buffer)
        case .trackpad(let options):
            updateTrackpad(input, options, at: time)
        case .scroll(let options):
            updateScroll(input, options, at: time)
        case .flick(let options):
            updateFlick(input.touch, options, at: time)
        case .wheel(let options):
            updateWheel(input.touch, options)
        case .touchpad:
            updateTouchSurface(input.touch, into: &buffer)
        }
    }

    // MARK: Touchpad device

    /// The finger as the touchpad device's one slot: a new tracking id and `BTN_TOUCH` with
    /// `BTN_TOOL_FINGER` when it lands, its position while it stays, -1 and both up when it lifts.
    private mutating func updateTouchSurface(_ touch: TouchPoint?, into buffer: inout OutputBuffer) {
        guard let touch else {
            guard touchpad.surfaceTouching else { return }
            touchpad.surfaceTouching = false
            output.setAbsolute(EventCode.absMtTrackingId, TouchSurface.noContact, on: .touchpad, into: &buffer)
            output.release(EventCode.btnTouch, on: .touchpad, into: &buffer)
            output.release(EventCode.btnToolFinger, on: .touchpad, into: &buffer)
            return
        }
        let x = Int32((touch.x * Double(TouchSurface.maximum)).rounded())
        let y = Int32((touch.y * Double(TouchSurface.maximum)).rounded())
        if !touchpad.surfaceTouching {
            touchpad.surfaceTouching = true
            touchpad.surfaceTrackingID = (touchpad.surfaceTrackingID &+ 1) & 0xFFFF
            output.setAbsolute(EventCode.absMtTrackingId, touchpad.surfaceTrackingID, on: .touchpad, into: &buffer)
            output.press(EventCode.btnTouch, on: .touchpad, into: &buffer)
            output.press(EventCode.btnToolFinger, on: .touchpad, into: &buffer)
        }
        output.setAbsolute(EventCode.absMtPositionX, x, on: .touchpad, into: &buffer)
        output.setAbsolute(EventCode.absMtPositionY, y, on: .touchpad, into: &buffer)
        output.setAbsolute(EventCode.absX, x, on: .touchpad, into: &buffer)
        output.setAbsolute(EventCode.absY, y, on: .touchpad, into: &buffer)
    }

    // MARK: Stick

    /// Inlined into `updateTouchpad`, its one caller.
    @inline(__always)
    private mutating func updateStick(_ touch: TouchPoint?, _ options: StickOptions, into buffer: inout OutputBuffer) {
        var x = 0.0
        var y = 0.0
        if let touch {
            let position = PadPosition(touch)
            let radius = position.radius
            if radius > options.deadzone {
                let span = max(options.saturation - options.deadzone, 1e-6)
                let magnitude = min(1, (radius - options.deadzone) / span)
                var directionX = position.x / radius
                var directionY = position.y / radius
                if options.shape == .square {
                    let stretch = 1 / max(abs(directionX), abs(directionY))
                    directionX *= stretch
                    directionY *= stretch
                }
                x = directionX * magnitude
                y = directionY * magnitude
            }
        }
        output.setAbsolute(options.xAxis, stickValue(x), on: options.device, into: &buffer)
        output.setAbsolute(options.yAxis, stickValue(y), on: options.device, into: &buffer)
    }

    // MARK: D-pad

    /// The directions under a position: 4 sectors of 90 degrees, or 8 of 45 (diagonals hold two).
    ///
    /// The sector comes from comparing the position's two coordinates, not from its angle: the
    /// 4 sectors meet where |x| = |y|, the 8 where one coordinate is tan(22.5 deg) of the other.
    /// Within a hair of a boundary (where the angle's rounding decides) it takes the angle.
    static func dpadDirections(_ position: PadPosition, _ options: DpadOptions) -> UInt8 {
        guard position.radius > options.deadzone else { return 0 }
        let across = abs(position.x)
        let along = abs(position.y)
        // Far above the angle's error (a few units in the last place), far below any touch step.
        let margin = 1e-9 * (across + along)
        let horizontal = position.x > 0 ? Direction.right : Direction.left
        let vertical = position.y > 0 ? Direction.down : Direction.up
        guard options.directions == 8 else {
            guard abs(across - along) > margin else { return dpadDirectionsByAngle(position, sectors: 4) }
            return across > along ? horizontal : vertical
        }
        let tangent = 0.41421356237309503  // tan(22.5 deg) = sqrt(2) - 1
        let nearlyHorizontal = along - tangent * across
        let nearlyVertical = across - tangent * along
        guard abs(nearlyHorizontal) > margin, abs(nearlyVertical) > margin else {
            return dpadDirectionsByAngle(position, sectors: 8)
        }
        if nearlyHorizontal < 0 { return horizontal }
        if nearlyVertical < 0 { return vertical }
        return horizontal | vertical
    }

    /// The directions of the sector around the position's angle: sector 0 centred on "right",
    /// counting clockwise. What `dpadDirections` compares its way to, away from the boundaries.
    static func dpadDirectionsByAngle(_ position: PadPosition, sectors: Int) -> UInt8 {
        let sectorWidth = 2 * Double.pi / Double(sectors)
        var sector = Int(roundedToNearest(position.angle / sectorWidth)) % sectors
        if sector < 0 { sector += sectors }
        return sectors == 4 ? Direction.fourSectors[sector] : Direction.eightSectors[sector]
    }

    private mutating func updateDpad(_ touch: TouchPoint?, _ options: DpadOptions, into buffer: inout OutputBuffer) {
        var directions: UInt8 = 0
        let active = options.activation == .touch || touchpad.dpadClickHeld
        if active, let touch {
            directions = Self.dpadDirections(PadPosition(touch), options)
        }
        guard directions != touchpad.dpadDirections else { return }
        let previous = touchpad.dpadDirections
        touchpad.dpadDirections = directions
        switch options.output {
        case .buttons:
            for entry in Direction.buttons where previous & entry.bit != 0 && directions & entry.bit == 0 {
                output.release(entry.code, on: options.device, into: &buffer)
            }
            for entry in Direction.buttons where previous & entry.bit == 0 && directions & entry.bit != 0 {
                output.press(entry.code, on: options.device, into: &buffer)
            }
        case .hat:
            let x: Int32 = directions & Direction.left != 0 ? -1 : (directions & Direction.right != 0 ? 1 : 0)
            let y: Int32 = directions & Direction.up != 0 ? -1 : (directions & Direction.down != 0 ? 1 : 0)
            output.setAbsolute(EventCode.absHat0x, x, on: options.device, into: &buffer)
            output.setAbsolute(EventCode.absHat0y, y, on: options.device, into: &buffer)
        }
    }

    // MARK: Trackpad, scroll, wheel

    /// The finger's motion since the last sample of this gesture and the time it took (by the
    /// controller's clock where plausible, see `SampleInterval`); nil on landing (no jump) and lift.
    @inline(__always)
    private mutating func touchDelta(_ input: ControllerInput, at time: MonotonicTime) -> (dx: Double, dy: Double, seconds: Double)? {
        guard let touch = input.touch else {
            touchpad.endGesture()
            return nil
        }
        defer {
            touchpad.lastPoint = touch
            touchpad.lastTime = time
            touchpad.lastStamp = input.controllerTime
        }
        guard let last = touchpad.lastPoint else { return nil }
        let interval = SampleInterval.between(touchpad.lastStamp, input.controllerTime, arrival: time - touchpad.lastTime)
        return (touch.x - last.x, touch.y - last.y, max(interval.seconds, 0.001))
    }

    private mutating func updateTrackpad(_ input: ControllerInput, _ options: TrackpadOptions, at time: MonotonicTime) {
        guard let delta = touchDelta(input, at: time), delta.dx != 0 || delta.dy != 0 else { return }
        var gain = options.speed * 1000
        if options.acceleration != 1 {
            let speed = (delta.dx * delta.dx + delta.dy * delta.dy).squareRoot() / delta.seconds
            gain *= min(5, max(0.2, pow(speed, options.acceleration - 1)))
        }
        output.addRelative(EventCode.relX, takeWholeCounts(delta.dx * gain, remainder: &touchpad.remainderX), on: options.device)
        output.addRelative(EventCode.relY, takeWholeCounts(delta.dy * gain, remainder: &touchpad.remainderY), on: options.device)
    }

    @inline(__always)
    private mutating func updateScroll(_ input: ControllerInput, _ options: ScrollOptions, at time: MonotonicTime) {
        guard let delta = touchDelta(input, at: time) else { return }
        let sign = options.natural ? -1.0 : 1.0
        let unitsPerPad = options.detents * 120
        // Finger down scrolls down (REL_WHEEL negative); finger right scrolls right.
        let vertical = takeWholeCounts(-delta.dy * unitsPerPad * sign, remainder: &touchpad.remainderY)
        emitWheel(vertical, horizontal: false, on: options.device)
        if options.horizontal {
            let horizontal = takeWholeCounts(delta.dx * unitsPerPad * sign, remainder: &touchpad.remainderX)
            emitWheel(horizontal, horizontal: true, on: options.device)
        }
    }

    private mutating func updateWheel(_ touch: TouchPoint?, _ options: WheelOptions) {
        guard let touch else {
            touchpad.endGesture()
            return
        }
        let position = PadPosition(touch)
        guard position.radius >= options.deadzone else {
            touchpad.lastAngle = nil
            return
        }
        let angle = position.angle
        defer { touchpad.lastAngle = angle }
        guard let last = touchpad.lastAngle else { return }
        // Clockwise (positive with y down) scrolls down / right.
        let turns = wrappedAngle(from: last, to: angle) / (2 * Double.pi)
        var units = turns * options.detents * 120
        if options.reverse { units = -units }
        if options.horizontal {
            emitWheel(takeWholeCounts(units, remainder: &touchpad.remainderX), horizontal: true, on: options.device)
        } else {
            emitWheel(takeWholeCounts(-units, remainder: &touchpad.remainderY), horizontal: false, on: options.device)
        }
    }

    /// Hi-res units on `device`, plus a whole detent on the low-res axis each time 120 of them add up.
    @inline(__always)
    private mutating func emitWheel(_ units: Int32, horizontal: Bool, on device: OutputDeviceKind) {
        guard units != 0 else { return }
        if horizontal {
            output.addRelative(EventCode.relHwheelHiRes, units, on: device)
            touchpad.detentX &+= units
            let detents = touchpad.detentX / 120
            touchpad.detentX -= detents * 120
            output.addRelative(EventCode.relHwheel, detents, on: device)
        } else {
            output.addRelative(EventCode.relWheelHiRes, units, on: device)
            touchpad.detentY &+= units
            let detents = touchpad.detentY / 120
            touchpad.detentY -= detents * 120
            output.addRelative(EventCode.relWheel, detents, on: device)
        }
    }
}
