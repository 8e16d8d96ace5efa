import Foundation
import Testing
import Daydream
import Timebase

/// `DDController.observeEvents`: the Foundation-free hook the daemon uses, and that the library's
/// notifications are posted from.
@MainActor
@Suite("DDController events without Foundation")
struct ControllerEventTests {
    let scheduler = ManualScheduler()

    @Test func observersHearEveryControllerAfterItsOwnHandler() {
        let first = DDController(address: "C0:DD:EE:00:00:11", scheduler: scheduler)
        let second = DDController(address: "C0:DD:EE:00:00:12", scheduler: scheduler)
        let log = Recorder()
        first.connectionChangedHandler = { _, connected in log.log.append("handler \(connected)") }
        let observation = DDController.observeEvents { controller, event in
            guard controller === first || controller === second else { return }
            log.log.append("\(controller.address) \(event)")
        }
        defer { observation.cancel() }
        first.markConnected()
        second.setBatteryLevel(percent: 40)
        first.markDisconnected()
        #expect(log.log == [
            "handler true", "C0:DD:EE:00:00:11 didConnect", "C0:DD:EE:00:00:12 didUpdateBatteryLevel",
            "handler false", "C0:DD:EE:00:00:11 didDisconnect",
        ])
    }

    @Test func observersRunInTheOrderAddedUntilCancelledOrReleased() {
        let controller = DDController(address: "C0:DD:EE:00:00:13", scheduler: scheduler)
        let log = Recorder()
        let one = DDController.observeEvents { changed, _ in if changed === controller { log.log.append("one") } }
        var two: DDControllerEventObservation? = DDController.observeEvents { changed, _ in
            if changed === controller { log.log.append("two") }
        }
        controller.markConnected()
        one.cancel()
        one.cancel()
        controller.markDisconnected()
        two = nil
        controller.markConnected()
        #expect(log.log == ["one", "two", "two"])
        #expect(two == nil)
    }

    @Test func observersAddedOffTheMainActorHearEvents() async {
        let controller = DDController(address: "C0:DD:EE:00:00:14", scheduler: scheduler)
        let log = Recorder()
        let observation = await Task.detached {
            DDController.observeEvents { changed, event in
                guard changed === controller else { return }
                log.log.append("\(event)")
            }
        }.value
        controller.setBatteryLevel(percent: 5)
        observation.cancel()
        #expect(log.log == ["didUpdateBatteryLevel"])
    }

    @Test func notificationsArePostedWithTheEvents() {
        let controller = DDController(address: "C0:DD:EE:00:00:15", scheduler: scheduler)
        let log = Recorder()
        let token = NotificationCenter.default.addObserver(forName: .DDControllerDidConnect, object: controller, queue: nil) { _ in
            MainActor.assumeIsolated { log.log.append("notification") }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        let observation = DDController.observeEvents { changed, _ in if changed === controller { log.log.append("observer") } }
        defer { observation.cancel() }
        controller.markConnected()
        // The library's poster was added first (reading the name started it), so it posts first.
        #expect(log.log == ["notification", "observer"])
    }
}
