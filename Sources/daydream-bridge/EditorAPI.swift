import Bridge
import BridgeConfig
import DaydreamProtocol
import EventLoop
import LocalHTTP

/// What the editor page asks `daydream-bridge ui` for, after `PageAccess` let the request in:
/// the page's files, `GET /api/config` (the file, its text and its profiles' outline),
/// `GET /api/vocabulary` (what settings may say), `GET /api/events` (the bridge's `watch`
/// stream as events, packets decoded), `/api/controllers...` (`EditorControllersAPI`), `POST /api/setting` (one setting changed where it is
/// written, checked first, and only over the revision the page loaded: `ConfigEdit`); presets
/// and whole profiles in `EditorAPI+Profiles.swift`.
@MainActor
final class EditorAPI {
    let files: PageFiles
    /// The config edited; set when the page makes one from a preset.
    var configPath: String?
    let socketPaths: [String]
    let reactor: Reactor
    private var watchers: [ControlWatchClient] = []
    /// The controllers panel's requests (`/api/controllers...`).
    let controllers: EditorControllersAPI

    init(files: PageFiles, configPath: String?, socketPaths: [String], reactor: Reactor) {
        self.files = files
        self.configPath = configPath
        self.socketPaths = socketPaths
        self.reactor = reactor
        controllers = EditorControllersAPI(socketPaths: socketPaths, reactor: reactor)
    }

    func answer(_ request: HTTPRequest) -> HTTPAnswer {
        if let answer = controllers.answer(request) { return answer }
        switch (request.method, request.path) {
        case ("GET", "/api/config"): return .response(config())
        case ("GET", "/api/vocabulary"): return .response(.json(200, EditorJSON.vocabulary))
        case ("GET", "/api/events"): return .eventStream { [weak self] stream in self?.watch(into: stream) }
        case ("POST", "/api/setting"): return .response(setting(request.formFields))
        case ("GET", "/api/presets"): return .response(presets())
        case ("POST", "/api/create"): return .response(create(request.formFields))
        case ("POST", "/api/profile"): return .response(profile(request.formFields))
        case ("GET", _), ("HEAD", _): return .response(files.response(for: request.path))
        default: return .response(.text(405, "\(request.method) is not allowed here"))
        }
    }

    /// `{"path", "text", "revision", "outline"}` (the outline null and `syntax` the error when the text is
    /// not TOML), or 404 without a config file.
    private func config() -> HTTPResponse {
        guard let configPath else { return noFile }
        do {
            let bytes = try ConfigFile.read(configPath)
            let text = String(decoding: bytes, as: UTF8.self)
            let members: [(key: String, value: JSONValue)] = [
                ("path", .string(configPath)), ("text", .string(text)), ("revision", .string(ConfigEdit.revision(of: bytes))),
            ]
            return .json(200, .object(members + EditorJSON.outlineMembers(text)))
        } catch {
            return .text(404, error.description)
        }
    }

    var noFile: HTTPResponse {
        .text(404, "no config file to edit: make one from a preset, give one with --config FILE, or copy an example to ~/.config/daydream-bridge/config.toml")
    }

    /// Form fields `profile`, `key`, `value` (TOML; empty removes the key) and `revision` (the
    /// file's, as `GET /api/config` gave it): the new text and revision, or 422 with the
    /// diagnostics (`line`, `column`, `message`), or 409 when the file changed since that
    /// revision; the file untouched unless 200.
    private func setting(_ fields: [String: String]) -> HTTPResponse {
        guard let configPath else { return noFile }
        guard let profile = fields["profile"], let key = fields["key"], let revision = fields["revision"], !profile.isEmpty, !key.isEmpty else {
            return .text(400, "a setting needs the form fields profile, key, value and revision")
        }
        let value = fields["value"].flatMap { $0.isEmpty ? nil : $0 }
        return edited(ConfigEdit(profile: profile, key: key, value: value).apply(toFileAt: configPath, revision: revision))
    }

    /// An edit's outcome as the page reads it: the new text, revision and outline, or 422 with
    /// the diagnostics, 409 for an edit refused or made over a file that changed, 400 for a value
    /// of more than one line.
    func edited(_ result: Result<String, ConfigEdit.Failure>) -> HTTPResponse {
        switch result {
        case .success(let text):
            let revision = ConfigEdit.revision(of: Array(text.utf8))
            return .json(200, .object([("text", .string(text)), ("revision", .string(revision))] + EditorJSON.outlineMembers(text)))
        case .failure(.invalid(let diagnostics)):
            return .json(422, EditorJSON.diagnostics(diagnostics))
        case .failure(.unparsable(let diagnostic)):
            return .json(422, EditorJSON.diagnostics([diagnostic]))
        case .failure(.notEditable(let reason)):
            return .text(409, reason)
        case .failure(.changed(let reason)):
            return .text(409, reason)
        case .failure(.notOneLine(let reason)):
            return .text(400, reason)
        case .failure(.file(let reason)):
            return .text(500, reason)
        }
    }

    /// The bridge's `watch` lines as events: packets decoded as `state` events
    /// (`{"address", "packet"}`, the packet as `decode` prints it), the rest as `watch` events;
    /// a `bridge` event says whether one runs.
    private func watch(into stream: EventStream) {
        let client = ControlWatchClient(paths: socketPaths, reactor: reactor) { line in
            if case .packet(let bytes) = line.event, let packet = try? DaydreamPacket(bytes) {
                let state: JSONValue = ["address": .string(line.address), "packet": .encoded(packet.jsonLine)]
                stream.send(state.text, event: "state")
            } else {
                stream.send(Self.text(of: line), event: "watch")
            }
        } ended: { reason in
            stream.send(reason ?? "stopped", event: "bridge")
            stream.close()
        }
        guard let client else {
            stream.send("none", event: "bridge")
            stream.close()
            return
        }
        stream.send(client.path, event: "bridge")
        watchers.append(client)
        stream.onClose = { [weak self, weak client] in
            client?.stop()
            self?.watchers.removeAll { $0 === client }
        }
    }

    /// A watch line as the page reads it: `ADDRESS SECONDS EVENT`.
    static func text(of line: WatchLine) -> String {
        let event: String
        switch line.event {
        case .packet(let bytes): event = Hex.encode(bytes)
        case .connected: event = "connected"
        case .disconnected: event = "disconnected"
        case .battery(let percent): event = "battery \(percent)"
        case .profile(let name): event = "profile \(name)"
        case .output(let text): event = "event \(text)"
        case .gyroBias(let degrees): event = "gyro-bias \(degrees.x) \(degrees.y) \(degrees.z)"
        case .config(let outcome): event = WatchLine.configText(outcome)
        }
        return "\(line.address) \(line.time.seconds) \(event)"
    }
}
