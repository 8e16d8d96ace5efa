import Descriptors

extension ConfigPreset {
    /// Why a config was not made from a preset.
    public enum CreationFailure: Error, Sendable, Equatable {
        /// A file is at the path already: it is never overwritten. The message says so.
        case exists(String)
        /// The directory or the file could not be made: the system's reason.
        case file(String)
    }

    /// Makes the config file at `path` from this preset, with the directories above it that are
    /// missing (0700, as the XDG base directory spec asks): never over a file already there.
    public func create(at path: String) throws(CreationFailure) {
        if let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            do {
                try FileReplacement.makeDirectories(String(path[..<slash]))
            } catch {
                throw .file(error.description)
            }
        }
        let created: Bool
        do {
            created = try FileReplacement.create(Array(text.utf8), at: path)
        } catch {
            throw .file(error.description)
        }
        guard created else {
            throw .exists("\(path) exists already, and a preset never replaces a config: reload the page to edit it")
        }
    }
}
