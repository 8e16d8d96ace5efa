import Glibc
import TestSupport

extension RunCommandTests {
    /// `makeDirectory()` with `config` as its config.toml, open (0755) to every user: a desktop
    /// session's user (`nobody` under root) runs the daemon there.
    static func makeDirectory(config: String) throws -> TemporaryDirectory {
        let scratch = try makeDirectory()
        _ = chmod(scratch.path, 0o755)
        try config.save(toFile: scratch.path + "/config.toml")
        return scratch
    }
}
