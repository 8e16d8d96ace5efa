import BlueZ
import DBus
import DaydreamCore
import EventLoop

/// `daydream-bridge forget ADDRESS`: removes a device and its pairing from BlueZ.
enum ForgetCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "forget", operands: "ADDRESS",
        abstract: "Remove a controller and its pairing from BlueZ.",
        options: [CommandOption.controlSocket],
        discussion: """
        Calls BlueZ's RemoveDevice for ADDRESS: the pairing keys go, and the
        controller must be paired again ('daydream-bridge pair') to be used.
        The cure for a controller that refuses its old pairing. When a bridge
        is running (its control socket answers), the bridge forgets it, as its
        page and D-Bus do; else this asks BlueZ itself.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.count == 1 else { throw UsageError("forget needs one ADDRESS") }
        let address = try BlueZCommandContext.address(options.positionals[0])
        let context = try BlueZCommandContext()
        if let status = forgetThroughBridge(address, paths: options.controlSocketPaths, context: context) { return status }
        let client = try context.readyClient()
        guard let device = client.cache.device(address: address) else {
            printError("Error: BlueZ does not know \(address); 'daydream-bridge list' shows the known controllers")
            return ExitCode.failure
        }
        var outcome: Result<Void, DBusError>?
        client.removeDevice(device) { outcome = $0 }
        context.run(until: { outcome != nil }, timeout: .seconds(30))
        switch outcome {
        case .success:
            printOut("Forgot \(address).")
            return ExitCode.success
        case .failure(let error):
            printError("Error: removing \(address) failed: \(error)")
            return ExitCode.failure
        case nil:
            printError("Error: BlueZ did not answer RemoveDevice in time")
            return ExitCode.failure
        }
    }
}
