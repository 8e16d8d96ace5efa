#if canImport(Glibc)
import Glibc
#endif

/// One name that a path depends on: a symbolic link met on the way to the file, or the file itself,
/// with the directory that holds it as the kernel finds it (no links left in `directory`).
struct ConfigPathStep: Equatable {
    /// The directory holding the name: absolute, without symbolic links.
    var directory: String
    /// The name in it.
    var name: String
    /// True for a symbolic link on the way (a directory's or the file's own); false for the file.
    var isLink: Bool
}

/// Resolving a path the way the kernel does, component by component, and noting every symbolic
/// link on the way: for `~/.config/daydream-bridge/config.toml` with `daydream-bridge` a link into
/// one's dotfiles, the link in `~/.config`, then `config.toml` in the dotfiles' directory. Each
/// link's directory is where a new link replacing it shows up; the last step's directory is where
/// the file's own changes do. A missing component ends the links: the rest is taken as written.
enum ConfigPathSteps {
    /// The kernel's limit of links followed in one lookup (`MAXSYMLINKS`); past it a link is taken
    /// as a plain name, and watching it fails as opening it would (`ELOOP`).
    static let linkLimit = 40

    /// The steps of `path`, relative to the working directory when not absolute: each link in the
    /// order met, then the file.
    static func of(_ path: String) -> [ConfigPathStep] {
        var pending = components(path)
        var current = path.hasPrefix("/") ? [] : components(workingDirectory())
        var steps: [ConfigPathStep] = []
        var linksFollowed = 0
        while !pending.isEmpty {
            let name = pending.removeFirst()
            if name == "." { continue }
            if name == ".." {
                if !current.isEmpty { current.removeLast() }
                continue
            }
            let directory = "/" + current.joined(separator: "/")
            let full = directory == "/" ? "/" + name : directory + "/" + name
            if linksFollowed < linkLimit, let target = linkTarget(full) {
                linksFollowed += 1
                steps.append(ConfigPathStep(directory: directory, name: name, isLink: true))
                if target.hasPrefix("/") { current = [] }
                pending = components(target) + pending
                continue
            }
            if pending.isEmpty {
                steps.append(ConfigPathStep(directory: directory, name: name, isLink: false))
                return steps
            }
            current.append(name)
        }
        // The path (or a link's target) ended in a directory: its last name stands for the file.
        let name = current.popLast() ?? "."
        steps.append(ConfigPathStep(directory: "/" + current.joined(separator: "/"), name: name, isLink: false))
        return steps
    }

    private static func components(_ path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }

    private static func workingDirectory() -> String {
        var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&bytes, bytes.count) != nil else { return "/" }
        return String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What the symbolic link at `path` holds; nil when `path` is not a link.
    private static func linkTarget(_ path: String) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFLNK else { return nil }
        var bytes = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &bytes, bytes.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: bytes[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
