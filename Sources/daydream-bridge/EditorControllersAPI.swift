import Bridge
import EventLoop
import LocalHTTP

/// The page's controllers panel, answered through the running bridge's control socket, so the
/// page does what the CLI and D-Bus do (it never calls BlueZ itself). `GET /api/controllers`:
/// the bridge's controllers (`ControllerLine`'s fields), its profiles and the profile new ones
/// start in, or `{"bridge": false, "advice"}` when none runs. Changes are `POST`s with form
/// fields: `/api/controllers/profile` (`profile`, `address`) and `/api/controllers/recenter`
/// (`address`) answer `{"lines"}` (409 with the bridge's reason); `/api/controllers/calibrate`
/// (`address`), `/api/controllers/pair` (`address` or none) and `/api/controllers/forget`
/// (`address`) stream the bridge's reply as `line` events (`ok` or `error: ...` first), then an
/// `end` event; the page leaving stops what only it waited for (a search for a controller).
@MainActor
final class EditorControllersAPI {
    /// What the panel says when no bridge answers.
    static let noBridge = "No bridge is running: start it with 'systemctl --user start daydream-bridge' "
        + "(or 'make run' in the source tree); this panel then shows its controllers."

    let socketPaths: [String]
    let reactor: Reactor
    private var relays: [ControlStreamClient] = []
    /// Answers requests in this process when the bridge runs on this loop (`ui --replay`): a
    /// blocking request to its socket would wait for the loop it blocks.
    var answerHere: (@MainActor (ControlRequest) -> ControlReply)?

    init(socketPaths: [String], reactor: Reactor) {
        self.socketPaths = socketPaths
        self.reactor = reactor
    }

    /// The answer to a request under `/api/controllers`; nil for any other path.
    func answer(_ request: HTTPRequest) -> HTTPAnswer? {
        guard request.path == "/api/controllers" || request.path.hasPrefix("/api/controllers/") else { return nil }
        if request.path == "/api/controllers" {
            return .response(request.method == "GET" ? list() : .text(405, "\(request.method) is not allowed here"))
        }
        let action = String(request.path.dropFirst("/api/controllers/".count))
        guard Self.actions.contains(action) else { return .response(.text(404, "no such request: \(request.path)")) }
        guard request.method == "POST" else { return .response(.text(405, "\(request.method) is not allowed here")) }
        let command: ControlRequest
        do {
            command = try Self.command(action, request.formFields)
        } catch {
            return .response(.text(400, error.message))
        }
        return command.streamsReply ? streamed(command) : .response(whole(command))
    }

    /// The changes the panel asks for, by the last part of their path.
    static let actions: Set<String> = ["profile", "recenter", "calibrate", "pair", "forget"]

    /// The control socket's request for `action` with the form's fields.
    private static func command(_ action: String, _ fields: [String: String]) throws(BadField) -> ControlRequest {
        switch action {
        case "profile": return .profile(name: try word("profile", fields), address: try word("address", fields))
        case "recenter": return .recenter(address: try word("address", fields))
        case "calibrate": return .calibrate(address: try word("address", fields))
        case "forget": return .forget(address: try word("address", fields))
        default:
            guard let address = fields["address"], !address.isEmpty else { return .pair(address: nil) }
            return .pair(address: try word(address))
        }
    }

    /// A form field that cannot go into a request line.
    private struct BadField: Error {
        let message: String
    }

    /// A form field that goes into a request line: present, one word.
    private static func word(_ name: String, _ fields: [String: String]) throws(BadField) -> String {
        guard let value = fields[name], !value.isEmpty else { throw BadField(message: "the form field \(name) is missing") }
        return try word(value)
    }

    private static func word(_ value: String) throws(BadField) -> String {
        guard value.utf8.count <= 128, !value.contains(where: { $0.isWhitespace || $0.isNewline }) else {
            throw BadField(message: "'\(value.prefix(40))' cannot be sent to the bridge: one word, no spaces")
        }
        return value
    }

    /// `{"bridge": true, "controllers", "profiles", "activeProfile"}`, or `{"bridge": false, "advice"}`.
    private func list() -> HTTPResponse {
        do {
            let controllers = try send(.controllers)
            let profiles = try send(.profiles)
            let active = try send(.activeProfile)
            let records = controllers.details.compactMap(ControllerLine.init(text:)).map(Self.json)
            return .json(200, .object([
                ("bridge", .bool(true)), ("controllers", .array(records)),
                ("profiles", .array(profiles.details.map { .string($0) })),
                ("activeProfile", .string(active.details.first ?? "")),
            ]))
        } catch .noDaemon {
            return .json(200, .object([("bridge", .bool(false)), ("advice", .string(Self.noBridge))]))
        } catch {
            return .json(200, .object([("bridge", .bool(false)), ("advice", .string(error.description))]))
        }
    }

    static func json(_ line: ControllerLine) -> JSONValue {
        .object([
            ("address", .string(line.address)), ("name", .optional(line.name.map { .string($0) })),
            ("connected", .bool(line.isConnected)), ("battery", .optional(line.batteryPercent.map { .integer(Int64($0)) })),
            ("firmware", .optional(line.firmware.map { .string($0) })), ("profile", .string(line.profile)),
        ])
    }

    /// The bridge's reply to a request answered whole: from this process's own bridge, else
    /// through the control socket (blocking, `ControlClient.replyTimeout` at most).
    private func send(_ request: ControlRequest) throws(ControlClientError) -> ControlReply {
        if let answerHere { return answerHere(request) }
        return try ControlClient.send(request, paths: socketPaths)
    }

    /// A request answered whole: `{"lines"}`, 409 with the bridge's reason, 503 without a bridge.
    private func whole(_ request: ControlRequest) -> HTTPResponse {
        do {
            let reply = try send(request)
            guard reply.succeeded else { return .text(409, reply.message) }
            return .json(200, .object([("lines", .array(reply.details.map { .string($0) }))]))
        } catch .noDaemon {
            return .text(503, Self.noBridge)
        } catch {
            return .text(502, error.description)
        }
    }

    /// A request whose reply streams, passed on line by line as `line` events, then `end`.
    private func streamed(_ request: ControlRequest) -> HTTPAnswer {
        return .eventStream { [weak self] stream in
            guard let self else { return stream.close() }
            let client = ControlStreamClient(request, paths: socketPaths, reactor: reactor) { line in
                stream.send(line, event: "line")
            } ended: { reason in
                stream.send(reason ?? "", event: "end")
                stream.close()
            }
            guard let client else {
                stream.send("error: " + Self.noBridge, event: "line")
                stream.send("", event: "end")
                return stream.close()
            }
            relays.append(client)
            stream.onClose = { [weak self, weak client] in
                client?.stop()
                self?.relays.removeAll { $0 === client }
            }
        }
    }
}
