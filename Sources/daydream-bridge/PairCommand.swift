import BlueZ
import Bridge
import DaydreamCore
import EventLoop
import Timebase

/// `daydream-bridge pair [ADDRESS]`: bonds a controller with BlueZ.
enum PairCommand: Subcommand {
    /// The options, declared once for the scanner, the usage line and the help.
    enum Option {
        static let timeout = CommandOption.value("--timeout", named: "SECONDS", help: "How long to look for the controller (default 60).")
        static let defaultAgent = CommandOption.flag(
            "--default-agent", help: "Also make the agent BlueZ's default agent for this run (without a running bridge).")
    }

    static let declaration = CommandDeclaration(
        name: "pair", operands: "[ADDRESS]",
        abstract: "Pair a controller (the one unpaired controller in range, or ADDRESS).",
        options: [Option.timeout, Option.defaultAgent, CommandOption.controlSocket],
        discussion: """
        Hold the controller's home button until its light blinks, then run this.
        Without ADDRESS, pairs the unpaired Daydream controller discovery finds;
        when several are in range, lists them and pairs none: run it again with
        the ADDRESS of yours. First it connects the device without pairing and
        checks its services: a device whose services are not a Daydream
        controller's (a keyboard's or mouse's HID service among them), or without
        the Daydream input characteristic, is blocked and removed from BlueZ,
        never paired. Then it pairs "Just Works" (no PIN): for this run,
        daydream-bridge registers a BlueZ agent that accepts only the controller
        being paired, once its services passed, and refuses every other device.
        A controller that passes is marked trusted and connected, and its battery
        and firmware are shown. When a bridge is running (its control socket
        answers), the bridge pairs it, as its page and D-Bus do, with the same
        checks and agent, and connects it at once (its search lasts at most
        60 s); else this pairs through BlueZ itself, which works before any
        bridge is started.
        """,
        notes: """
        When the controller refuses an old pairing (it was reset, or paired with
        a phone since), run 'daydream-bridge forget ADDRESS' and pair again.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.count <= 1 else { throw UsageError("pair takes at most one ADDRESS") }
        let wanted = try options.positionals.first.map(BlueZCommandContext.address)
        let timeout = try BlueZCommandContext.timeout(options.value(Option.timeout), default: 60) ?? .seconds(60)
        let context = try BlueZCommandContext()
        if let status = pairThroughBridge(wanted, timeout: timeout, paths: options.controlSocketPaths, context: context) {
            return status
        }
        // Only the controller being paired: the others paired before stay as they are.
        var settings = DaydreamControllerManager.Options(policy: .requestedOnly)
        settings.requestsDefaultAgent = options.flag(Option.defaultAgent)
        settings.makesControllerModels = false  // only the feed's link state is shown
        let manager = DaydreamControllerManager(
            reactor: context.reactor, connection: try context.connect(), options: settings, log: Logger.plainSink)
        manager.announceProblemsWithAdvice()
        try context.waitForBlueZ(manager.client, timeout: timeout)
        manager.start()
        printOut(lookingLine(wanted))
        var outcome: Result<ControllerFeed, PairingError>?
        let request = manager.pairNextController(address: wanted) { outcome = $0 }
        context.run(until: { outcome != nil || request.pairingAddress != nil }, timeout: timeout)
        if let address = request.pairingAddress {
            printOut("Pairing \(address)...")
            context.run(until: { outcome != nil }, timeout: .seconds(90))
        }
        guard outcome != nil else {
            request.cancel()
            manager.stop()
            if context.interrupted {
                printError("Interrupted.")
            } else {
                printError(timeoutError(wanted, pairing: request.pairingAddress != nil))
            }
            return ExitCode.failure
        }
        switch outcome {
        case .success(let feed):
            printOut("Paired and trusted \(feed.address).")
            // A running bridge holds the input notifications: it has the controller, and this waits no longer.
            let connected = context.run(until: { feed.isConnected && feed.deviceInformation.firmwareVersion != nil
                && feed.batteryPercent != nil || feed.inputHeldByAnotherProgram }, timeout: .seconds(30))
            if feed.inputHeldByAnotherProgram && !feed.isConnected {
                printOut("Connected; another program reads its input (a running 'daydream-bridge run').")
            } else if connected || feed.isConnected {
                let battery = feed.batteryPercent.map { "\($0)%" } ?? "unknown"
                printOut("Connected: firmware \(feed.deviceInformation.firmwareVersion ?? "unknown"), battery \(battery).")
            } else {
                printOut("Not connected yet; 'daydream-bridge run' connects when the controller wakes.")
            }
            manager.stop()
            context.reactor.runOnce(timeout: .milliseconds(100))
            return ExitCode.success
        case .failure(let error) where !error.candidates.isEmpty:
            manager.stop()
            printOut("Several unpaired Daydream controllers are in range:")
            for device in error.candidates { printOut("  " + describe(device)) }
            printError(severalError)
            return ExitCode.failure
        case .failure(let error):
            manager.stop()
            printError("Error: \(error.advice)")
            return ExitCode.failure
        case nil:
            manager.stop()
            return ExitCode.failure
        }
    }
}
