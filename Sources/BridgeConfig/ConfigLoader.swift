import Mapping

/// A configuration and where it came from.
public struct LoadedConfig: Sendable, Equatable {
    /// The decoded configuration.
    public var configuration: MappingConfiguration
    /// The file it was read from, or the built-in default.
    public var source: ConfigSource
    /// `[dsu]`: the DSU server's settings, nil (off) without the table.
    public var dsu: DSUConfiguration?
    /// `[opentrack]`: the head tracker output's settings, nil (off) without the table.
    public var openTrack: OpenTrackConfiguration? = nil
}

/// Why a config could not be loaded: the file could not be read, or it is not valid.
public enum ConfigLoadError: Error, Sendable, Equatable {
    /// Reading the file failed (missing, unreadable, a directory, too big).
    case unreadable(ConfigFile.ReadError)
    /// The text has errors; each names its line and column.
    case invalid(source: ConfigSource, errors: ConfigErrors)

    /// Every problem as a line for the log or the terminal:
    /// `FILE:LINE:COLUMN: error: MESSAGE`, or `FILE: error: cannot read ...`.
    public var lines: [String] {
        switch self {
        case .unreadable(let error):
            ["\(error.path): error: \(error)"]
        case .invalid(let source, let errors):
            errors.formatted(file: source.description)
        }
    }
}

/// Reads and decodes a config from a file or the built-in default.
public enum ConfigLoader {
    /// Loads the config at `source`.
    public static func load(_ source: ConfigSource) throws(ConfigLoadError) -> LoadedConfig {
        let bytes: [UInt8]
        switch source {
        case .file(let path):
            do {
                bytes = try ConfigFile.read(path)
            } catch {
                throw .unreadable(error)
            }
        case .builtIn:
            bytes = Array(DefaultConfig.text.utf8)
        }
        return try load(bytes, from: source)
    }

    /// Decodes `bytes` read from `source`.
    public static func load(_ bytes: [UInt8], from source: ConfigSource) throws(ConfigLoadError) -> LoadedConfig {
        do {
            let decoded = try ConfigDecoder.decodeAll(bytes)
            return LoadedConfig(configuration: decoded.mapping, source: source, dsu: decoded.dsu, openTrack: decoded.openTrack)
        } catch {
            throw .invalid(source: source, errors: error)
        }
    }
}
