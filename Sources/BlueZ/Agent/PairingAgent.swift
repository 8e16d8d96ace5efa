import DBus
import DaydreamProtocol
import EventLoop

/// An `org.bluez.Agent1` with the NoInputNoOutput capability that accepts
/// "Just Works" pairing only for devices it was told to allow, and only when
/// the cache says they are Daydream controllers. `AuthorizeService` is granted
/// only for a Daydream controller's own services (`DaydreamGATT.serviceLayout`):
/// never for HID or anything else. Every other request, from any device, is
/// refused with `org.bluez.Error.Rejected`: no other device can pair through it.
/// Only bluetoothd (the connection that owns `org.bluez`) may call it: a call from any
/// other connection gets `org.freedesktop.DBus.Error.AccessDenied`.
@MainActor
public final class PairingAgent {
    /// Where the agent is exported.
    public static let path = "/org/daydream_bridge/agent"
    /// The capability it registers with.
    public static let capability = "NoInputNoOutput"

    private let client: BlueZClient
    private var allowed: Set<String> = []
    /// Whether BlueZ accepted the registration (reset when bluetoothd goes away).
    public private(set) var isRegistered = false
    /// Whether the agent should be registered: false once `unregister` was called, so a
    /// registration that completes after that is taken back.
    private var wantsRegistration = false
    /// Every decision, `Method ADDRESS accepted|rejected`, for logs and tests.
    public private(set) var decisions: [String] = []

    /// Exports the agent on the client's connection; `register` makes BlueZ use it.
    public init(client: BlueZClient) {
        self.client = client
        client.connection.export(path: PairingAgent.path) { [weak self] message in
            guard let self else { return .failure(Self.rejection("agent gone")) }
            return handle(message)
        }
    }

    isolated deinit {
        client.connection.unexport(path: PairingAgent.path)
    }

    /// Allows Just Works pairing for the device with `address` (upper case) until `disallow`.
    public func allow(address: String) { allowed.insert(address.uppercased()) }

    /// Stops allowing the device with `address`.
    public func disallow(address: String) { allowed.remove(address.uppercased()) }

    /// `RegisterAgent(path, "NoInputNoOutput")`, then `RequestDefaultAgent` when `asDefault`.
    public func register(asDefault: Bool = false, completion: @escaping @MainActor (Result<Void, DBusError>) -> Void) {
        wantsRegistration = true
        client.registerAgent(path: PairingAgent.path, capability: PairingAgent.capability) { [weak self] result in
            guard let self else { return }
            if case .failure(let error) = result, error.name != "org.bluez.Error.AlreadyExists" {
                completion(.failure(error))
                return
            }
            isRegistered = true
            guard wantsRegistration else {
                unregister()  // nobody wants it any more: pairing ended while BlueZ answered
                return completion(.success(()))
            }
            guard asDefault else { return completion(.success(())) }
            client.requestDefaultAgent(path: PairingAgent.path, completion: completion)
        }
    }

    /// Marks the agent unregistered (bluetoothd went away and forgot it).
    public func serviceVanished() { isRegistered = false }

    /// `UnregisterAgent` (at once, or when a registration under way completes).
    public func unregister() {
        wantsRegistration = false
        guard isRegistered else { return }
        isRegistered = false
        client.unregisterAgent(path: PairingAgent.path) { _ in }
    }

    private static func rejection(_ reason: String) -> DBusError {
        DBusError(name: BlueZNames.rejected, message: reason)
    }

    private func handle(_ message: Message) -> Result<[DBusValue], DBusError>? {
        guard let sender = message.sender, sender == client.serviceOwner else {
            let method = message.member ?? "?"
            decisions.append("\(method) from \(message.sender ?? "?") refused")
            Log.warning("agent: refused \(method) from \(message.sender ?? "an unknown sender"), "
                        + "which is not \(BlueZNames.service) (\(client.serviceOwner ?? "no owner"))")
            return .failure(DBusError(name: "org.freedesktop.DBus.Error.AccessDenied",
                                      message: "only \(BlueZNames.service) may call this agent"))
        }
        guard message.interface == BlueZNames.agent, let method = message.member else {
            return .failure(DBusError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "not an Agent1 method"))
        }
        let arguments = message.arguments()
        switch method {
        case "Release", "Cancel":
            return .success([])
        case "RequestConfirmation", "RequestAuthorization":
            return decide(method, device: arguments.first?.string)
        case "AuthorizeService":
            return authorizeService(device: arguments.first?.string, uuid: arguments.dropFirst().first?.string)
        case "DisplayPasskey", "DisplayPinCode":
            // NoInputNoOutput: nothing to display; only a device we pair may ask.
            return decide(method, device: arguments.first?.string)
        default:
            // RequestPinCode, RequestPasskey and anything newer: we have no input.
            decisions.append("\(method) \(arguments.first?.string ?? "?") rejected")
            Log.warning("agent: refused \(method) (no PIN or passkey entry here)")
            return .failure(Self.rejection("\(method) is not supported by this agent"))
        }
    }

    /// Only a service the controller has. bluetoothd asks when a device it does not trust opens
    /// a connection to a profile (classic HID 0x1124, audio, network, a registered profile).
    private func authorizeService(device path: String?, uuid: String?) -> Result<[DBusValue], DBusError> {
        let service = uuid?.lowercased() ?? "?"
        guard ControllerFamily.allServices.contains(service) else {
            let address = path.flatMap { client.cache.device(at: $0)?.address.uppercased() } ?? path ?? "?"
            decisions.append("AuthorizeService \(address) \(DaydreamGATT.shortName(service)) rejected")
            Log.warning("agent: refused AuthorizeService for \(address): service \(DaydreamGATT.shortName(service)) "
                        + "is not one of a Daydream controller's")
            return .failure(Self.rejection("not a service of a Daydream controller"))
        }
        return decide("AuthorizeService", device: path)
    }

    private func decide(_ method: String, device path: String?) -> Result<[DBusValue], DBusError> {
        guard let path, let device = client.cache.device(at: path) else {
            decisions.append("\(method) \(path ?? "?") rejected")
            Log.warning("agent: refused \(method) for unknown device \(path ?? "?")")
            return .failure(Self.rejection("unknown device"))
        }
        let address = device.address.uppercased()
        guard allowed.contains(address), device.isDaydreamController else {
            decisions.append("\(method) \(address) rejected")
            Log.warning("agent: refused \(method) for \(address) (\(device.name ?? "no name")): "
                        + "this agent only pairs a Daydream controller it was asked to pair")
            return .failure(Self.rejection("this agent was not asked to pair this device"))
        }
        decisions.append("\(method) \(address) accepted")
        Log.info("agent: accepted \(method) for Daydream controller \(address)")
        return .success([])
    }
}
