import Testing
import Daydream
import DaydreamProtocol
import Timebase

/// Handler semantics of the controller model, on a clock the test moves by hand.
@MainActor
@Suite("DDController buttons")
struct ButtonHandlerTests {
    let scheduler = ManualScheduler()
    let controller: DDController
    let events: Recorder

    init() {
        controller = DDController(address: "C0:DD:EE:00:00:01", scheduler: scheduler)
        events = Recorder()
        controller.markConnected()
        let events = self.events
        let scheduler = self.scheduler
        for button in controller.buttons {
            button.valueChangedHandler = { button, pressed in events.log.append("value \(button.kind.rawValue) \(pressed)") }
            button.pressedChangedHandler = { button, pressed in events.log.append("pressed \(button.kind.rawValue) \(pressed)") }
            button.longPressHandler = { button, _ in
                events.log.append("long \(button.kind.rawValue) at \(scheduler.now.nanoseconds / 1_000_000)ms")
            }
        }
    }

    /// Sends a packet with `buttons` down at `milliseconds` of virtual time.
    func send(_ buttons: DaydreamButtons, at milliseconds: Int64, sequence: UInt8 = 0) {
        scheduler.advance(to: .milliseconds(milliseconds))
        controller.receive(DaydreamPacket(sequence: sequence, buttons: buttons), at: .milliseconds(milliseconds))
    }

    @Test func valueIsCalledOnEveryPacketPressedOnlyOnChange() {
        send(.home, at: 0)
        send(.home, at: 16)
        send([], at: 32)
        send([], at: 48)
        let home = events.log.filter { $0.contains("home") }
        #expect(home == [
            "value home true", "pressed home true",
            "value home true",
            "value home false", "pressed home false",
            "value home false",
        ])
        #expect(events.log.filter { $0.hasPrefix("pressed") && !$0.contains("home") }.isEmpty)
    }

    @Test func longPressFiresAtExactlyTheThreshold() {
        send(.app, at: 0)
        send(.app, at: 999)
        #expect(!events.log.contains { $0.hasPrefix("long") })
        scheduler.advance(to: .milliseconds(1000))
        #expect(events.log.filter { $0.hasPrefix("long") } == ["long app at 1000ms"])
    }

    @Test func releaseAt999msGivesNoLongPress() {
        send(.app, at: 0)
        send([], at: 999)
        scheduler.advance(to: .milliseconds(5000))
        #expect(!events.log.contains { $0.hasPrefix("long") })
    }

    @Test func aReleaseHandledBeforeTheDueTimerStillEndsALongPress() {
        // A busy loop reads the release packet before it runs the timer that fell due.
        send(.app, at: 0)
        controller.receive(DaydreamPacket(sequence: 1, buttons: []), at: .milliseconds(1200))
        #expect(events.log.filter { $0.contains("app") && !$0.hasPrefix("value app true") && !$0.hasPrefix("pressed app true") }
                == ["long app at 0ms", "value app false", "pressed app false"])
        scheduler.advance(to: .milliseconds(5000))
        #expect(events.log.filter { $0.hasPrefix("long") }.count == 1)
    }

    @Test func longPressFiresOncePerPress() {
        send(.click, at: 0)
        for ms in stride(from: 16, through: 3000, by: 16) { send(.click, at: Int64(ms)) }
        scheduler.advance(to: .milliseconds(4000))
        #expect(events.log.filter { $0.hasPrefix("long") }.count == 1)
        send([], at: 4016)
        send(.click, at: 4032)
        scheduler.advance(to: .milliseconds(5032))
        #expect(events.log.filter { $0.hasPrefix("long") } == ["long click at 1000ms", "long click at 5032ms"])
    }

    @Test func heldButtonWithNoFurtherPacketsStillLongPresses() {
        send(.volumeUp, at: 100)
        scheduler.advance(to: .milliseconds(1100))
        #expect(events.log.last == "long volume-up at 1100ms")
    }

    @Test func thresholdIsConfigurable() {
        controller.longPressDuration = .milliseconds(250)
        send(.home, at: 0)
        scheduler.advance(to: .milliseconds(249))
        #expect(!events.log.contains { $0.hasPrefix("long") })
        scheduler.advance(to: .milliseconds(250))
        #expect(events.log.last == "long home at 250ms")
    }

    @Test func disconnectReleasesHeldButtonsAndCancelsTheLongPress() {
        send([.home, .volumeDown], at: 0)
        events.log.removeAll()
        controller.markDisconnected()
        #expect(Set(events.log) == ["value home false", "pressed home false", "value volume-down false", "pressed volume-down false"])
        #expect(!controller.homeButton.isPressed && !controller.volumeDownButton.isPressed)
        scheduler.advance(to: .milliseconds(3000))
        #expect(!events.log.contains { $0.hasPrefix("long") })
    }

    @Test func eachButtonMapsToItsBit() {
        let expected: [(DaydreamButtons, DDControllerButton)] = [
            (.click, controller.clickButton), (.home, controller.homeButton), (.app, controller.appButton),
            (.volumeDown, controller.volumeDownButton), (.volumeUp, controller.volumeUpButton),
        ]
        for (bit, button) in expected {
            send(bit, at: 0)
            #expect(controller.buttons.filter(\.isPressed).map(\.kind) == [button.kind])
            #expect(button.value == 1)
            send([], at: 0)
        }
        #expect(controller.touchpad.button === controller.clickButton)
    }
}

/// A reference type the handlers append to.
@MainActor
final class Recorder {
    var log: [String] = []
}
