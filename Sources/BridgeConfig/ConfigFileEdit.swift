import Descriptors

/// How an edit of a config's text reaches its file, for every kind of edit (`ConfigEdit`,
/// `ConfigProfileEdit`): read, edited, checked by the edit, then written in its place
/// (`FileReplacement`: a reader sees the old file or the new one), and only over the file the
/// edit was made against.
enum ConfigFileEdit {
    /// `edit` made to the file at `path`: untouched unless `edit` gives a text, and unless the file
    /// is still what the edit was made against: the file as `revision` (`ConfigEdit.revision(of:)`)
    /// names it when one is given, and the file as read here, compared again as the new one takes
    /// its place (`FileReplacement.write(_:to:replacing:)`). The new text on success.
    static func apply(
        toFileAt path: String, revision: String?, _ edit: (String) -> Result<String, ConfigEdit.Failure>
    ) -> Result<String, ConfigEdit.Failure> {
        let bytes: [UInt8]
        do {
            bytes = try ConfigFile.read(path)
        } catch {
            return .failure(.file(error.description))
        }
        let changed = ConfigEdit.Failure.changed(
            "not saved: \(path) changed since it was loaded, or another program is writing it; reload to see it, then make the change again")
        if let revision, revision != ConfigEdit.revision(of: bytes) { return .failure(changed) }
        let result = edit(String(decoding: bytes, as: UTF8.self))
        guard case .success(let text) = result else { return result }
        do {
            let replaced = try FileReplacement.write(Array(text.utf8), to: path, replacing: bytes)
            guard replaced else { return .failure(changed) }
        } catch {
            return .failure(.file(error.description))
        }
        return result
    }
}
