import BridgeConfig
import LocalHTTP

/// The editor page's presets and whole-profile changes: `GET /api/presets` (the presets, and where
/// a new config would be made when there is none), `POST /api/create` (a new config from a
/// preset, never over a file), `POST /api/profile` (a profile added from a preset, copied, renamed
/// or removed: `ConfigProfileEdit`, checked first, over the revision the page loaded).
extension EditorAPI {
    /// `{"presets": [{"name", "title", "summary", "profile"}], "create": PATH or null}`: `create` is
    /// where `POST /api/create` would make the config, given only when no file is there.
    func presets() -> HTTPResponse {
        let presets = ConfigPreset.all.map { preset -> JSONValue in
            [
                "name": .string(preset.name), "title": .string(preset.title), "summary": .string(preset.summary),
                "profile": .optional(preset.profile.map(JSONValue.string)),
            ]
        }
        let target = newConfigPath.flatMap { ConfigFile.exists($0) ? nil : $0 }
        return .json(200, ["presets": .array(presets), "create": .optional(target.map(JSONValue.string))])
    }

    /// Where a new config goes: the file given with `--config`, else the user's
    /// (`ConfigLookup.userPath`: `$XDG_CONFIG_HOME/daydream-bridge/config.toml`, else under `~/.config`).
    var newConfigPath: String? {
        configPath ?? ConfigLookup.userPath(environment: ConfigLookup.processEnvironment())
    }

    /// Form field `preset`: 201 with the new config as `GET /api/config` gives it, 409 when a file
    /// is there already (untouched), 400 for a preset there is not.
    func create(_ fields: [String: String]) -> HTTPResponse {
        guard let name = fields["preset"], let preset = ConfigPreset.named(name) else {
            return .text(400, "no such preset; the presets: \(ConfigPreset.all.map(\.name).joined(separator: ", "))")
        }
        guard let path = newConfigPath else {
            return .text(500, "neither XDG_CONFIG_HOME nor HOME names a directory to put the config in: give one with --config FILE")
        }
        do {
            try preset.create(at: path)
        } catch {
            switch error {
            case .exists(let reason): return .text(409, reason)
            case .file(let reason): return .text(500, reason)
            }
        }
        configPath = path
        let text = preset.text
        let members: [(key: String, value: JSONValue)] = [
            ("path", .string(path)), ("text", .string(text)), ("revision", .string(ConfigEdit.revision(of: Array(text.utf8)))),
        ]
        return .json(201, .object(members + EditorJSON.outlineMembers(text)))
    }

    /// Form fields `action` (`add`, `copy`, `rename`, `remove`), `profile` (the one copied,
    /// renamed or removed), `name` (the new one's), `preset` (for `add`) and `revision`: answered
    /// as `POST /api/setting` is.
    func profile(_ fields: [String: String]) -> HTTPResponse {
        guard let configPath else { return noFile }
        guard let revision = fields["revision"] else { return .text(400, "a profile change needs the form field revision") }
        let profile = fields["profile"] ?? "", name = fields["name"] ?? ""
        let edit: ConfigProfileEdit
        switch fields["action"] {
        case "add":
            guard let preset = fields["preset"].flatMap(ConfigPreset.named) else { return .text(400, "add needs a preset the page offers") }
            edit = .add(name: name, preset: preset)
        case "copy": edit = .copy(profile: profile, name: name)
        case "rename": edit = .rename(profile: profile, name: name)
        case "remove": edit = .remove(profile: profile)
        default: return .text(400, "action must be add, copy, rename or remove")
        }
        return edited(edit.apply(toFileAt: configPath, revision: revision))
    }
}
