import BlueZ
import Bridge
import DaydreamCore
import DaydreamProtocol
import EventLoop

/// `daydream-bridge list`: the Daydream controllers BlueZ knows.
enum ListCommand: Subcommand {
    static let declaration = CommandDeclaration(
        name: "list",
        abstract: "List the Daydream controllers BlueZ knows: connected, paired, battery, firmware, profile.",
        options: [CommandOption.controlSocket],
        discussion: """
        One line per controller: address, name, whether it is connected and
        paired, for a connected controller its battery level and firmware
        version (read from the controller), and the profile the running bridge
        gives it ('-' when no bridge is running or it has not seen the
        controller). Nothing is changed.
        """)

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try scan(arguments)
        guard options.positionals.isEmpty else { throw UsageError("list takes no arguments") }
        let context = try BlueZCommandContext()
        let client = try context.readyClient()
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
        let profiles = runningProfiles(paths: options.controlSocketPaths)
        let header = ["ADDRESS", "NAME", "CONNECTED", "PAIRED", "BATTERY", "FIRMWARE", "PROFILE"]
        var rows = [header]
        for device in controllers {
            rows.append([
                device.address, device.name ?? "(no name)", device.isConnected ? "yes" : "no", device.isPaired ? "yes" : "no",
                readings[device.address + "battery"] ?? pluginBattery(client, device) ?? "-",
                readings[device.address + "firmware"] ?? "-",
                profiles[device.address.uppercased()] ?? "-",
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.paddedOrCut(to: widths[index])
            }
            printOut(cells.joined(separator: "  "))
        }
        return ExitCode.success
    }
}

/// Each controller's profile in the running bridge, by upper-case address, from its control
/// socket's `status` (lines `ADDRESS: PROFILE, LINK`); empty when no bridge answers.
@MainActor
private func runningProfiles(paths: [String]) -> [String: String] {
    guard let reply = try? ControlClient.send(.status, paths: paths), reply.succeeded else { return [:] }
    var profiles: [String: String] = [:]
    for line in reply.details {
        guard let colon = line.firstRange(of: ": ") else { continue }
        let profile = line[colon.upperBound...].prefix { $0 != "," }
        profiles[line[..<colon.lowerBound].uppercased()] = String(profile)
    }
    return profiles
}

/// The level BlueZ's battery plugin shows (`Battery1.Percentage`) when it claims the Battery Service.
@MainActor
private func pluginBattery(_ client: BlueZClient, _ device: DeviceInfo) -> String? {
    client.cache.properties(device.path, BlueZNames.battery)?["Percentage"]?.integer.map { "\($0)%" }
}
