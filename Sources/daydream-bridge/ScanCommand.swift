import BlueZ
import Bridge
import DaydreamCore
import EventLoop

/// `daydream-bridge scan`: the controllers in range (every family), live.
enum ScanCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let timeout = CommandOption.value("--timeout", named: "SECONDS", help: "Stop after this long (default: until Ctrl-C).")
    }

    static let declaration = CommandDeclaration(
        name: "scan",
        abstract: "List controllers in range, live (address, name, signal, paired).",
        options: [Option.timeout],
        discussion: """
        Powers the adapter on if needed and discovers Bluetooth LE devices that
        advertise the Daydream service (FE55). Prints a line when a controller
        is first seen and again when its signal strength changes by 5 dB or more:
        address, name, RSSI, and whether it is paired. Press the controller's
        home button to make it advertise. Exits 1 when it found nothing because
        BlueZ, the adapter or its power was missing the whole time (the last
        such problem is said again at the end).
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.isEmpty else { throw UsageError("scan takes no arguments") }
        let timeout = try BlueZCommandContext.timeout(options.value(Option.timeout), default: nil)
        let context = try BlueZCommandContext()
        let manager = DaydreamControllerManager(
            reactor: context.reactor, connection: try context.connect(), options: .init(policy: .none), log: Logger.plainSink)
        var problem: DaydreamControllerManager.Problem?
        manager.announceProblem = { announced in
            problem = announced
            Logger.plainSink.warning(announced.advice)
        }
        var shown: [String: DeviceInfo] = [:]
        manager.controllerSighted = { device in
            if let previous = shown[device.address], previous.isPaired == device.isPaired,
               abs((previous.rssi ?? 0) - (device.rssi ?? 0)) < 5, previous.name == device.name {
                return
            }
            shown[device.address] = device
            printOut(describe(device))
        }
        printOut("Scanning for Daydream controllers (press a controller's home button; Ctrl-C ends)...")
        manager.start()
        manager.startDiscovery()
        // Whether the adapter ever discovered: when it never did, finding nothing says nothing.
        var discovered = false
        context.run(until: {
            discovered = discovered || manager.isDiscovering
            return false
        }, timeout: timeout)
        manager.stop()
        // Let StopDiscovery reach bluetoothd before the connection closes.
        context.reactor.runOnce(timeout: .milliseconds(100))
        guard shown.isEmpty else { return ExitCode.success }
        if !discovered, let problem {
            let waiting = " (waiting for it)"
            let advice = problem.advice.hasSuffix(waiting) ? String(problem.advice.dropLast(waiting.count)) : problem.advice
            printError("No Daydream controller found: \(advice)")
            return ExitCode.failure
        }
        printOut("No Daydream controller found.")
        return ExitCode.success
    }
}
