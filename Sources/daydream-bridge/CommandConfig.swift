import Bridge
import BridgeConfig

/// The config a command was given with `--config PATH` (or the usual lookup without), or nil
/// after printing its errors, one line each with file:line:column.
func loadCommandConfig(path: String?) -> LoadedConfig? {
    do {
        return try ConfigLoader.load(ConfigurationChoice.source(path: path))
    } catch {
        for line in error.lines { printError(line) }
        return nil
    }
}
