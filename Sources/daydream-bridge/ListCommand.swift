import BlueZ
import Bridge
import DaydreamCore
import DaydreamProtocol
import EventLoop

/// `daydream-bridge list`: the Daydream controllers BlueZ knows.
enum ListCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "list",
        abstract: "List the controllers BlueZ knows: connected, paired, battery, firmware, profile.",
        options: [CommandOption.controlSocket],
        discussion: """
        One line per controller: address, name, whether it is connected ('lent'
        while the running bridge lends it to another program) and paired, for a
        connected controller its battery level and firmware version (read from
        the controller), and the profile the running bridge gives it ('-' when
        no bridge is running or it has not seen the controller). When BlueZ
        cannot be reached, the controllers the running bridge knows are listed
        from it, with a line on standard error saying why ('-' where only BlueZ
        could tell). Nothing is changed.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.isEmpty else { throw UsageError("list takes no arguments") }
        let bridge = runningControllers(paths: options.controlSocketPaths)
        let context = try BlueZCommandContext()
        let client: BlueZClient
        do {
            client = try context.readyClient()
        } catch {
            guard !bridge.isEmpty else { throw error }
            printError("\(error); these are the controllers the running bridge knows:")
            printTable(bridge.map { line in
                [line.address, line.name ?? "(no name)", line.isLent ? "lent" : line.isConnected ? "yes" : "no", "-",
                 line.batteryPercent.map { "\($0)%" } ?? "-", line.firmware ?? "-", line.profile]
            })
            return ExitCode.success
        }
        let controllers = client.cache.devices.filter(\.isDaydreamController)
        guard !controllers.isEmpty else {
            printOut("No Daydream controller known to BlueZ; pair one with 'daydream-bridge pair'.")
            return ExitCode.success
        }
        // Battery and firmware come from the controller itself, when connected.
        var readings: [String: String] = [:]
        var outstanding = 0
        for device in controllers where device.isConnected && device.servicesResolved {
            for characteristic in client.cache.characteristics(of: device.path)
            where [DaydreamGATT.batteryLevelUUID, DaydreamGATT.firmwareRevisionUUID].contains(characteristic.uuid) {
                outstanding += 1
                client.readValue(characteristic: characteristic.path) { result in
                    outstanding -= 1
                    guard case .success(let value) = result else { return }
                    if characteristic.uuid == DaydreamGATT.batteryLevelUUID {
                        readings[device.address + "battery"] = value.first.map { "\($0)%" }
                    } else {
                        readings[device.address + "firmware"] = String(decoding: value.prefix { $0 != 0 }, as: UTF8.self)
                    }
                }
            }
        }
        context.run(until: { outstanding == 0 }, timeout: .seconds(10))
        let known = Dictionary(bridge.map { ($0.address.uppercased(), $0) }, uniquingKeysWith: { first, _ in first })
        printTable(controllers.map { device in
            let seen = known[device.address.uppercased()]
            return [
                device.address, device.name ?? "(no name)", device.isConnected ? (seen?.isLent == true ? "lent" : "yes") : "no",
                device.isPaired ? "yes" : "no",
                readings[device.address + "battery"] ?? pluginBattery(client, device) ?? seen?.batteryPercent.map { "\($0)%" } ?? "-",
                readings[device.address + "firmware"] ?? seen?.firmware ?? "-",
                seen?.profile ?? "-",
            ]
        })
        return ExitCode.success
    }

    /// The rows under the header, in columns.
    private static func printTable(_ rows: [[String]]) {
        let header = ["ADDRESS", "NAME", "CONNECTED", "PAIRED", "BATTERY", "FIRMWARE", "PROFILE"]
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        for row in all {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.paddedOrCut(to: widths[index])
            }
            printOut(cells.joined(separator: "  "))
        }
    }
}

/// The controllers the running bridge has seen, from its control socket's `controllers`; none
/// when no bridge answers.
@MainActor
private func runningControllers(paths: [String]) -> [ControllerLine] {
    guard let reply = try? ControlClient.send(.controllers, paths: paths), reply.succeeded else { return [] }
    return reply.details.compactMap { ControllerLine(text: $0) }
}

/// The level BlueZ's battery plugin shows (`Battery1.Percentage`) when it claims the Battery Service.
@MainActor
private func pluginBattery(_ client: BlueZClient, _ device: DeviceInfo) -> String? {
    client.cache.properties(device.path, BlueZNames.battery)?["Percentage"]?.integer.map { "\($0)%" }
}
