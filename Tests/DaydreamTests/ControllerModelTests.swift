import Foundation
import Testing
import Daydream
import DaydreamProtocol
import Timebase

@MainActor
@Suite("DDController touchpad, motion, counters, notifications")
struct ControllerModelTests {
    let scheduler = ManualScheduler()

    @Test func touchpadReportsChangesAndLift() {
        let controller = DDController(address: "C0:DD:EE:00:00:02", scheduler: scheduler)
        let log = Recorder()
        controller.touchpad.pointChangedHandler = { pad, point in log.log.append("\(pad.isTouching) \(point.x) \(point.y)") }
        controller.receive(DaydreamPacket(touchX: 255, touchY: 0), at: .zero)
        controller.receive(DaydreamPacket(touchX: 255, touchY: 0), at: .zero)
        controller.receive(DaydreamPacket(), at: .zero)
        #expect(log.log == ["true 1.0 0.0", "false 0.0 0.0"])
        #expect(!controller.touchpad.isTouching)
    }

    @Test func motionIsScaled() throws {
        let controller = DDController(address: "C0:DD:EE:00:00:03", scheduler: scheduler)
        var calls = 0
        controller.motion.valueChangedHandler = { _ in calls += 1 }
        let packet = try DaydreamPacket(#require(Hex.decode("480BFE87EB00E801841000B00000000191FBA008")))
        controller.receive(packet, at: .zero)
        #expect(calls == 1)
        #expect(controller.motion.rotationRate == packet.rotationRate)
        #expect(controller.motion.acceleration == packet.accelerationSI)
        #expect(controller.motion.orientation == packet.quaternion)
    }

    @Test func sequenceGapsAreCountedAcrossTheWrap() {
        let controller = DDController(address: "C0:DD:EE:00:00:04", scheduler: scheduler)
        for sequence: UInt8 in [29, 30, 31, 0, 3, 4, 4, 10] {
            controller.receive(DaydreamPacket(sequence: sequence), at: .zero)
        }
        // 0 -> 3 loses 1 and 2; 4 repeated loses nothing; 4 -> 10 loses 5...9.
        #expect(controller.statistics.lost == 7)
        #expect(controller.statistics.received == 8)
    }

    @Test func malformedNotificationsAreCountedAndDropped() {
        let controller = DDController(address: "C0:DD:EE:00:00:05", scheduler: scheduler)
        var packets = 0
        controller.packetHandler = { _, _, _ in packets += 1 }
        for length in [0, 19, 21] {
            [UInt8](repeating: 0xFF, count: length).withUnsafeBytes { controller.receive($0, at: .zero) }
        }
        DaydreamPacket(buttons: .app).bytes.withUnsafeBytes { controller.receive($0, at: .zero) }
        #expect(controller.statistics.malformed == 3)
        #expect(packets == 1)
        #expect(controller.appButton.isPressed)
    }

    @Test func notificationsCarryTheController() {
        let controller = DDController(address: "C0:DD:EE:00:00:06", scheduler: scheduler)
        let log = Recorder()
        let center = NotificationCenter.default
        var tokens: [any NSObjectProtocol] = []
        for name in [Notification.Name.DDControllerDidConnect, .DDControllerDidDisconnect, .DDControllerDidUpdateBatteryLevel] {
            tokens.append(center.addObserver(forName: name, object: controller, queue: nil) { note in
                let name = note.name.rawValue
                MainActor.assumeIsolated { log.log.append(name) }
            })
        }
        defer { tokens.forEach(center.removeObserver) }
        var reads = 0
        controller.batteryLevelReader = { controller in
            reads += 1
            controller.setBatteryLevel(percent: 87)
        }
        controller.markConnected()
        controller.updateBatteryLevel()
        controller.markDisconnected()
        controller.markDisconnected()
        #expect(log.log == ["DDControllerDidConnect", "DDControllerDidUpdateBatteryLevel", "DDControllerDidDisconnect"])
        #expect(reads == 1)
        #expect(controller.batteryLevel == 0.87)
    }
}
