// The library's example: the iOS Daydream library's README, on Linux.
// Run it with a paired controller nearby ('daydream-bridge pair' first); press home to wake it.
import Daydream
import Foundation

/// Prints a line at once, even when standard output is a file or a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The battery level each connected controller last printed, so a reading is printed once:
/// the library may report one GATT read more than once (the read's reply and BlueZ's
/// `Value` change), and the link reads the level itself on connect as well.
@MainActor
final class BatteryLines {
    private var printed: [ObjectIdentifier: Int] = [:]

    /// Forgets what `controller` printed: its next reading is printed again.
    func reset(_ controller: DDController) {
        printed[ObjectIdentifier(controller)] = nil
    }

    /// The battery line for `controller`, or nil when it would repeat the last one.
    func line(for controller: DDController) -> String? {
        guard let level = controller.batteryLevel else { return nil }
        let percent = Int((level * 100).rounded())
        guard printed.updateValue(percent, forKey: ObjectIdentifier(controller)) != percent else { return nil }
        return "battery: \(percent)% (firmware \(controller.firmwareVersion ?? "unknown"))"
    }
}

let batteryLines = BatteryLines()

let observers = [
    NotificationCenter.default.addObserver(forName: .DDControllerDidConnect, object: nil, queue: nil) { note in
        guard let controller = note.object as? DDController else { return }
        MainActor.assumeIsolated {
            say("connected: \(controller.address)")
            batteryLines.reset(controller)
            controller.touchpad.pointChangedHandler = { touchpad, point in
                guard touchpad.isTouching else { return say("touch: lifted") }
                say("touch: \(String(format: "%.3f %.3f", point.x, point.y))")
            }
            for button in controller.buttons {
                button.pressedChangedHandler = { button, pressed in
                    say("\(button.kind.rawValue): \(pressed ? "down" : "up")")
                }
                button.longPressHandler = { button, _ in say("\(button.kind.rawValue): long press") }
            }
            controller.updateBatteryLevel()
        }
    },
    NotificationCenter.default.addObserver(forName: .DDControllerDidUpdateBatteryLevel, object: nil, queue: nil) { note in
        guard let controller = note.object as? DDController else { return }
        MainActor.assumeIsolated {
            if let line = batteryLines.line(for: controller) { say(line) }
        }
    },
    NotificationCenter.default.addObserver(forName: .DDControllerDidDisconnect, object: nil, queue: nil) { note in
        guard let controller = note.object as? DDController else { return }
        MainActor.assumeIsolated { say("disconnected: \(controller.address)") }
    },
]

say("looking for Daydream controllers (press home on the controller to wake it)")
DDController.startDaydreamControllerDiscovery()
dispatchMain()
