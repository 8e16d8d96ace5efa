import Foundation
import DaydreamProtocol
import Recording
import Timebase

/// Builds recordings of scripted controller sessions by encoding packets with `DaydreamPacket`:
/// the scenario recordings under `Tests/Recordings` (see `ScenarioRecordingTests`).
struct ScenarioBuilder {
    /// Packets are sent this often while something is going on (50 Hz).
    static let period = TimeSpan.milliseconds(20)

    private(set) var entries: [RecordingEntry] = []
    var time = TimeSpan.zero
    var sequence: UInt8 = 0
    var buttons: DaydreamButtons = []
    /// Touch counts, 0...255; nil when no finger.
    var touch: (x: UInt8, y: UInt8)?
    var orientation = RawVector.zero
    var gyro = RawVector.zero
    /// Gravity along +y, as a controller lying flat reports it.
    var acceleration = RawVector(0, 520, 0)
    /// When a packet the controller stamped at a time is read: at that time unless changed.
    var arrival: @Sendable (TimeSpan) -> TimeSpan = { $0 }

    /// Sends one packet with the current state, stamped with the current time (whole
    /// milliseconds, wrapping at 512) and read at `arrival` of it.
    mutating func send() {
        let packet = DaydreamPacket(
            time: UInt16(time.nanoseconds / 1_000_000 % 512), sequence: sequence % 32,
            orientation: orientation, acceleration: acceleration, gyro: gyro,
            touchX: UInt16(touch?.x ?? 0), touchY: UInt16(touch?.y ?? 0), buttons: buttons, status: 0
        )
        sequence = (sequence + 1) % 32
        entries.append(RecordingEntry(time: arrival(time), event: .packet(packet)))
    }

    /// Sends packets every `period` for `milliseconds`, calling `change` (with the fraction done, 0..<1) before each.
    mutating func stream(
        for milliseconds: Int64, every period: TimeSpan = Self.period,
        _ change: (inout ScenarioBuilder, Double) -> Void = { _, _ in }
    ) {
        let steps = Int(milliseconds * 1_000_000 / period.nanoseconds)
        for step in 0..<steps {
            change(&self, Double(step) / Double(steps))
            send()
            time = time + period
        }
    }

    /// Records a non-packet event now.
    mutating func note(_ event: RecordingEvent) {
        entries.append(RecordingEntry(time: time, event: event))
    }

    /// Moves time on without sending.
    mutating func wait(_ milliseconds: Int64) {
        time = time + .milliseconds(milliseconds)
    }

    func recording(_ description: String) -> Recording {
        Recording(info: RecordingInfo(
            address: "C0:DD:EE:00:00:01", name: "Daydream controller", manufacturer: "Google", firmware: "scenario",
            battery: 90, source: "scenario: \(description)"
        ), entries: entries)
    }
}

extension TimeSpan {
    static func + (lhs: TimeSpan, rhs: TimeSpan) -> TimeSpan { TimeSpan(nanoseconds: lhs.nanoseconds + rhs.nanoseconds) }
}

/// The scripted sessions, by file name.
enum Scenarios {
    static let all: [(name: String, recording: Recording)] = [
        ("buttons", buttons), ("touch", touch), ("disconnect", disconnect), ("motion", motion),
        ("touch-jitter", swipe(arrival: bunchedArrival)), ("motion-jitter", turn(arrival: bunchedArrival)),
        ("editor-tour", editorTour), ("head-track", headTrack),
    ]

    /// Recordings only the editor page's browser tests play (not replayed through every profile).
    static let forThePage: [(name: String, recording: Recording)] = [("gyro-turn", gyroTurn)]

    /// For the gyro panel's browser test (`Tests/browser/gyro_panel.py`): at rest, a smooth turn of
    /// 90 degrees to the right in 1 s (peaking at 180 deg/s), at rest 2 s, the same turn back to the
    /// left, at rest. The rate is 90 (1 - cos 2 pi t) deg/s, whose 50 samples a turn sum to 90
    /// degrees exactly before the gyro's counts (2048/4095 deg/s) round them (within 0.25).
    static var gyroTurn: Recording {
        let degreesPerCount = 2048.0 / 4095.0
        var s = ScenarioBuilder()
        s.stream(for: 1500)
        for direction in [-1.0, 1.0] {
            s.stream(for: 1000) { s, done in
                let rate = 90 * (1 - cos(2 * Double.pi * done))
                s.gyro = RawVector(0, Int16((direction * rate / degreesPerCount).rounded()), 0)
            }
            s.gyro = .zero
            s.stream(for: 2000)
        }
        return s.recording("at rest; turns right 90 degrees in 1 s; at rest 2 s; turns left 90 degrees in 1 s; at rest")
    }

    /// For trying the editor page (`ui --replay`) and its browser test: click held a second, a
    /// finger circling the pad while the controller turns, app held a second, each apart.
    static var editorTour: Recording {
        var s = ScenarioBuilder()
        s.stream(for: 500)
        s.buttons = .click
        s.stream(for: 1000)
        s.buttons = []
        s.stream(for: 500)
        s.stream(for: 1000) { s, done in
            let angle = done * 2 * Double.pi
            s.touch = (UInt8(128 + 90 * cos(angle)), UInt8(128 + 90 * sin(angle)))
            s.orientation = RawVector(0, Int16(400 * sin(angle)), 0)
            s.gyro = RawVector(0, Int16(200 * cos(angle)), 0)
        }
        s.touch = nil
        s.gyro = .zero
        s.stream(for: 500)
        s.buttons = .app
        s.stream(for: 1000)
        s.buttons = []
        s.stream(for: 500)
        return s.recording("click held 1 s; a finger circles the pad as the controller turns; app held 1 s")
    }

    /// Each button pressed briefly, then home held past the 1 s hold time, then a home+app chord
    /// (app 20 ms after home, within the chord window).
    static var buttons: Recording {
        var s = ScenarioBuilder()
        s.stream(for: 100)
        s.buttons = .click
        s.stream(for: 200)
        s.buttons = []
        s.stream(for: 100)
        s.buttons = .app
        s.stream(for: 100)
        s.buttons = []
        s.stream(for: 100)
        s.buttons = .volumeUp
        s.stream(for: 100)
        s.buttons = []
        s.stream(for: 100)
        s.buttons = .volumeDown
        s.stream(for: 100)
        s.buttons = []
        s.stream(for: 100)
        s.buttons = .home
        s.stream(for: 200)
        s.buttons = []
        s.stream(for: 100)
        s.buttons = .home
        s.stream(for: 1400)
        s.buttons = []
        s.stream(for: 200)
        s.buttons = .app
        s.stream(for: 1400)
        s.buttons = []
        s.stream(for: 200)
        s.buttons = .home
        s.stream(for: 20)
        s.buttons = [.home, .app]
        s.stream(for: 200)
        s.buttons = .home
        s.stream(for: 40)
        s.buttons = []
        s.stream(for: 200)
        return s.recording("each button tapped; home and app held past 1 s; a home+app chord")
    }

    /// A finger lands in the centre, slides right, circles the rim once clockwise, lifts; then a
    /// swipe down, a click at the top edge and a click in the centre.
    static var touch: Recording {
        var s = ScenarioBuilder()
        s.stream(for: 100)
        s.touch = (128, 128)
        s.stream(for: 100)
        s.stream(for: 300) { s, done in s.touch = (UInt8(128 + 100 * done), 128) }
        s.stream(for: 1000) { s, done in
            let angle = done * 2 * Double.pi
            s.touch = (UInt8(128 + 100 * cos(angle)), UInt8(128 + 100 * sin(angle)))
        }
        s.touch = nil
        s.stream(for: 200)
        s.touch = (128, 60)
        s.stream(for: 400) { s, done in s.touch = (128, UInt8(60 + 140 * done)) }
        s.touch = nil
        s.stream(for: 200)
        s.touch = (128, 20)
        s.stream(for: 100)
        s.buttons = .click
        s.stream(for: 100)
        s.buttons = []
        s.stream(for: 100)
        s.touch = (128, 128)
        s.stream(for: 60)
        s.buttons = .click
        s.stream(for: 100)
        s.buttons = []
        s.stream(for: 60)
        s.touch = nil
        s.stream(for: 100)
        return s.recording("a finger slides right, circles the rim, swipes down; clicks at the top and the centre")
    }

    /// Buttons and a finger held when the link drops; after it comes back the click is still held
    /// (and must stay released until let go), then everything is let go.
    static var disconnect: Recording {
        var s = ScenarioBuilder()
        s.stream(for: 100)
        s.buttons = [.click, .volumeUp]
        s.touch = (128, 30)
        s.stream(for: 400)
        s.note(.disconnected)
        s.wait(1000)
        s.note(.connected)
        s.note(.battery(89))
        s.buttons = .click
        s.stream(for: 200)
        s.buttons = []
        s.touch = nil
        s.stream(for: 200)
        s.buttons = .click
        s.stream(for: 100)
        s.buttons = []
        s.stream(for: 100)
        return s.recording("click, volume-up and a finger held when the link drops; held again after it returns")
    }

    /// Turning right then left, tipping up then down, rolling right and back: air mouse and tilt.
    static var motion: Recording {
        var s = ScenarioBuilder()
        s.stream(for: 100)
        s.buttons = .home
        s.stream(for: 1100)
        s.gyro = RawVector(0, -120, 0)
        s.stream(for: 300)
        s.gyro = RawVector(0, 120, 0)
        s.stream(for: 300)
        s.gyro = RawVector(120, 0, 0)
        s.stream(for: 300)
        s.gyro = RawVector(-120, 0, 0)
        s.stream(for: 300)
        s.gyro = .zero
        s.buttons = []
        s.stream(for: 100)
        s.stream(for: 600) { s, done in
            let roll = Int16(300 * sin(done * Double.pi))
            s.orientation = RawVector(0, 0, roll)
            s.gyro = RawVector(0, 0, Int16(60 * cos(done * Double.pi)))
        }
        s.orientation = .zero
        s.gyro = .zero
        s.stream(for: 100)
        return s.recording("home held (air mouse while held), turning and tipping; rolling right and back (tilt)")
    }

    /// For `[opentrack]` (`RunOpenTrackTests`), 50 Hz, a packet index each 20 ms: still
    /// (0..<10); turned 60 degrees right (683 orientation counts, 4095 a turn) by 30, held to 45;
    /// back by 65, held to 75; tipped 30 degrees up (341 counts) by 95, held to 110; back by 130,
    /// held to 140; turned 60 right again by 160, held to 170; app pressed 170..<175 (a
    /// `"recenter"` there), held to 185; turned back straight by 205, held to 220.
    static var headTrack: Recording {
        var s = ScenarioBuilder()
        let eased = { (done: Double) in (1 - cos(done * Double.pi)) / 2 }
        func move(_ s: inout ScenarioBuilder, from: RawVector, to: RawVector, milliseconds: Int64) {
            s.stream(for: milliseconds) { s, done in
                let f = eased(done)
                s.orientation = RawVector(
                    Int16((Double(from.x) + Double(to.x - from.x) * f).rounded()),
                    Int16((Double(from.y) + Double(to.y - from.y) * f).rounded()), 0)
            }
            s.orientation = to
        }
        let right = RawVector(0, -683, 0)
        let up = RawVector(341, 0, 0)
        s.stream(for: 200)
        move(&s, from: .zero, to: right, milliseconds: 400)
        s.stream(for: 300)
        move(&s, from: right, to: .zero, milliseconds: 400)
        s.stream(for: 200)
        move(&s, from: .zero, to: up, milliseconds: 400)
        s.stream(for: 300)
        move(&s, from: up, to: .zero, milliseconds: 400)
        s.stream(for: 200)
        move(&s, from: .zero, to: right, milliseconds: 400)
        s.stream(for: 200)
        s.buttons = .app
        s.stream(for: 100)
        s.buttons = []
        s.stream(for: 200)
        move(&s, from: right, to: .zero, milliseconds: 400)
        s.stream(for: 300)
        return s.recording("turned 60 degrees right and back, tipped 30 degrees up and back, turned right, app, back (head tracking)")
    }

    /// How often the controller samples in `swipe`: 80 Hz, the stamps 12 and 13 ms apart in turn.
    static let swipePeriod = TimeSpan(nanoseconds: 12_500_000)

    /// A finger swiping right and a little down across the pad, slowly, then fast, then
    /// slowly again (so an accelerating trackpad's gain changes), sampled at 80 Hz; the
    /// packets read at `arrival` of their stamps.
    static func swipe(arrival: @escaping @Sendable (TimeSpan) -> TimeSpan) -> Recording {
        var s = ScenarioBuilder()
        s.arrival = arrival
        s.stream(for: 100, every: swipePeriod)
        s.touch = (40, 100)
        s.stream(for: 900, every: swipePeriod) { s, done in
            let eased = (1 - cos(done * Double.pi)) / 2
            s.touch = (UInt8(40 + 175 * eased), UInt8(100 + 60 * eased))
        }
        s.touch = nil
        s.stream(for: 100, every: swipePeriod)
        return s.recording("a finger swipes right, slow, fast, slow; read bunched, as Bluetooth delivers")
    }

    /// The controller turned left, slowly, then fast, then slowly again, then tipped up,
    /// sampled at 80 Hz; the packets read at `arrival` of their stamps.
    static func turn(arrival: @escaping @Sendable (TimeSpan) -> TimeSpan) -> Recording {
        var s = ScenarioBuilder()
        s.arrival = arrival
        s.stream(for: 100, every: swipePeriod)
        s.stream(for: 700, every: swipePeriod) { s, done in
            s.gyro = RawVector(0, Int16(40 + 300 * sin(done * Double.pi)), 0)
        }
        s.stream(for: 200, every: swipePeriod) { s, _ in s.gyro = RawVector(150, 0, 0) }
        s.gyro = .zero
        s.stream(for: 100, every: swipePeriod)
        return s.recording("the controller turns left, slow, fast, slow, then tips up; read bunched, as Bluetooth delivers")
    }

    /// When Bluetooth delivers a packet the controller stamped at `time`: at the next
    /// connection event (every 30 ms, so two or three at once), 0.5 ms apart within it;
    /// and those stamped from 520 to 620 ms only after a stall, at 630 ms, 0.05 ms apart.
    @Sendable static func bunchedArrival(_ time: TimeSpan) -> TimeSpan {
        let interval: Int64 = 30_000_000
        let stamped = time.nanoseconds
        if stamped >= 520_000_000, stamped < 620_000_000 {
            return TimeSpan(nanoseconds: 630_000_000 + (stamped - 520_000_000) / 250)
        }
        let event = (stamped + interval - 1) / interval * interval
        return TimeSpan(nanoseconds: event + (stamped - (event - interval)) / 25)
    }
}
