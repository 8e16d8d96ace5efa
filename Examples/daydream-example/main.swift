// The library's example: the iOS Daydream library's README, on Linux.
// Run it with a paired (or pairable) controller nearby; press home to wake it.
import Daydream
import Foundation

/// Prints a line at once, even when standard output is a file or a pipe.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let observers = [
    NotificationCenter.default.addObserver(forName: .DDControllerDidConnect, object: nil, queue: nil) { note in
        guard let controller = note.object as? DDController else { return }
        MainActor.assumeIsolated {
            say("connected: \(controller.address)")
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
            let percent = Int((controller.batteryLevel ?? 0) * 100)
            say("battery: \(percent)% (firmware \(controller.firmwareVersion ?? "unknown"))")
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
