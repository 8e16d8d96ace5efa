import DaydreamProtocol
import Timebase

/// Turns one controller's packets into the DSU data a slot sends, in the axis convention DSU
/// clients read.
///
/// The Daydream controller's axes: x to the right, y out of the face (up when it lies flat),
/// z toward the user (out of its tail); at rest it reads +1 g on y. DSU clients read a
/// DualShock 4's convention: Dolphin takes "up" as -y, "left" as +x and "forward" as +z, and
/// the pitch, yaw and roll rates as "pitch up", "yaw right" and "roll right"; Cemu feeds its
/// motion filter (x, -y, -z); evdevhook2 negates the three accelerometer axes of a pad in the
/// kernel's (that same right-handed) frame. So acceleration goes out negated, in g (at rest,
/// flat: y = -1), and the rates in degrees per second as pitch = +x (nose up), yaw = -y (a
/// right-handed turn about "up" is to the left), roll = -z (likewise about "back"). The mapping
/// engine's air mouse reads the rates the same way (+x moves the pointer up, +y to the left).
///
/// Buttons: click -> A (cross) and the touch button, app -> B (circle), home -> the PS button,
/// volume up -> R1, volume down -> L1. The touchpad is touch 1, scaled from 0...255 to the
/// DualShock 4's 0...1919 x 0...941 (left to right, top to bottom), with a new id per touch.
public struct ControllerPadMapper: Sendable {
    /// The touch range clients expect (a DualShock 4's touchpad): x 0...1919, y 0...941.
    public static let touchMaximum = (x: 1919, y: 941)
    /// g per acceleration count: 8 g over 4095 counts.
    public static let gPerCount: Double = 8.0 / 4095.0
    /// Degrees per second per gyro count: 2048 over 4095.
    public static let degreesPerSecondPerCount: Double = 2048.0 / 4095.0

    private var pad = DSUPadState()
    private var clock = ControllerClock()
    private var wasTouching = false

    public init() {}

    /// The state to send after `packet`, received at `time`: the packet counter counts packets.
    public mutating func update(with packet: DaydreamPacket, receivedAt time: MonotonicTime) -> DSUPadState {
        pad.isActive = true
        pad.packetCounter &+= 1
        pad.motionTimestamp = clock.microseconds(stamp: packet.stamp, receivedAt: time)

        let buttons = packet.buttons
        pad.buttons2 = []
        if buttons.contains(.click) { pad.buttons2.insert(.a) }
        if buttons.contains(.app) { pad.buttons2.insert(.b) }
        if buttons.contains(.volumeUp) { pad.buttons2.insert(.r1) }
        if buttons.contains(.volumeDown) { pad.buttons2.insert(.l1) }
        if buttons.contains(.trigger) { pad.buttons2.insert(.r2) }
        if buttons.contains(.back) { pad.buttons2.insert(.y) }
        pad.touchButton = buttons.contains(.click)
        pad.home = buttons.contains(.home)

        if packet.isTouching {
            countTouch(packet)
            pad.touch1.isActive = true
            // The Daydream's 0...255 folds to constants; another family's range is its scale's.
            let range = packet.family == .daydream ? 255 : Int((1 / packet.scale.touch).rounded())
            pad.touch1.x = Self.scale(packet.touchX, range: range, to: Self.touchMaximum.x)
            pad.touch1.y = Self.scale(packet.touchY, range: range, to: Self.touchMaximum.y)
        } else {
            pad.touch1.isActive = false
            wasTouching = false
        }

        let acceleration = packet.acceleration
        let daydream = packet.family == .daydream
        let gPerCount = daydream ? Self.gPerCount : packet.scale.acceleration / UnitConversion.standardGravity
        let degreesPerCount = daydream ? Self.degreesPerSecondPerCount : UnitConversion.degrees(radians: packet.scale.gyro)
        // Negated as integers, so a zero stays +0 (no -0 on the wire).
        pad.acceleration = (
            x: Float(Double(-Int(acceleration.x)) * gPerCount),
            y: Float(Double(-Int(acceleration.y)) * gPerCount),
            z: Float(Double(-Int(acceleration.z)) * gPerCount)
        )
        let gyro = packet.gyro
        pad.gyro = (
            pitch: Float(Double(gyro.x) * degreesPerCount),
            yaw: Float(Double(-Int(gyro.y)) * degreesPerCount),
            roll: Float(Double(-Int(gyro.z)) * degreesPerCount)
        )
        return pad
    }

    /// Notes a packet no client is sent, without mapping it: the packet counter and the touch's id
    /// move on as if it had been (a client sees every packet counted, and a new touch as new).
    /// The motion timestamp needs no note: the next `update` counts the time between from the
    /// controller's clock, its wraps from the arrival times.
    @inline(__always)
    public mutating func skip(_ packet: DaydreamPacket) {
        pad.packetCounter &+= 1
        countTouch(packet)
    }

    /// A new id when the finger lands: on a packet that touches after one that did not.
    @inline(__always)
    private mutating func countTouch(_ packet: DaydreamPacket) {
        let touching = packet.isTouching
        if touching && !wasTouching { pad.touch1.id &+= 1 }
        wasTouching = touching
    }

    /// The last state, marked inactive: what a slot whose controller is away sends.
    public var inactive: DSUPadState {
        var state = pad
        state.isActive = false
        return state
    }

    private static func scale(_ count: UInt16, range: Int, to maximum: Int) -> UInt16 {
        UInt16((min(Int(count), range) * maximum + range / 2) / range)
    }
}

/// The controller's sample time (`ControllerStamp`: a Daydream's milliseconds wrapping at 512,
/// a Gear VR sample's microseconds) made a timestamp in microseconds that only grows. Each step
/// is the controller's own time difference, with as many wraps of its clock added as bring it
/// closest to the time between the packets' arrivals (so a gap of seconds, a reconnect
/// included, is counted whole); without a clock, the arrival times'. It starts at the first
/// packet's arrival time, never 0 (Cemu ignores a zero timestamp).
struct ControllerClock: Sendable {
    private var last: (stamp: ControllerStamp?, received: MonotonicTime, microseconds: UInt64)?

    mutating func microseconds(stamp: ControllerStamp?, receivedAt received: MonotonicTime) -> UInt64 {
        guard let last else {
            let start = UInt64(max(received.nanoseconds / 1000, 1))
            self.last = (stamp, received, start)
            return start
        }
        let arrivalMilliseconds = max((received - last.received).nanoseconds / 1_000_000, 0)
        let elapsed: Int64
        if let stamp, let lastStamp = last.stamp, let step = stamp.microseconds(since: lastStamp) {
            let period = stamp.periodMicroseconds
            let wraps = max((arrivalMilliseconds * 1000 - step + period / 2) / period, 0)
            elapsed = step + wraps * period
        } else {
            elapsed = arrivalMilliseconds * 1000
        }
        let now = last.microseconds + UInt64(elapsed)
        self.last = (stamp, received, now)
        return now
    }
}
