#if canImport(Glibc)
import Glibc
#endif
import Descriptors

/// A page only the user can read (mode 0600, in a directory of mode 0700) that sends the browser
/// on to the editor's address with its one-time token: `xdg-open` is given the file's path, so
/// nothing in a program's arguments, which every local user can read in `/proc`, grants access.
struct BrowserLaunchFile {
    /// The file's path.
    let path: String
    private let directory: String

    /// Writes the page for `url` in a new directory under `$XDG_RUNTIME_DIR` (else `/tmp`);
    /// the system's reason when it cannot.
    init(url: String) throws(LaunchFileError) {
        var template = Array((EditorReplay.runtimeDirectory() + "/daydream-bridge-ui-open.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else { throw LaunchFileError("cannot make a directory for the browser's page") }
        directory = String(cString: made)
        path = directory + "/open.html"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let failure = LaunchFileError("cannot write \(path)")
            rmdir(directory)
            throw failure
        }
        defer { close(descriptor) }
        let page = Array("""
            <!DOCTYPE html>
            <meta http-equiv="refresh" content="0; url=\(url)">
            <title>daydream-bridge</title>
            <a href="\(url)">Open the editor</a>

            """.utf8)
        var written = 0
        while written < page.count {
            let count = page.withUnsafeBytes { bytes in
                retryingOnInterrupt { write(descriptor, bytes.baseAddress?.advanced(by: written), bytes.count - written) }
            }
            guard count > 0 else {
                let failure = LaunchFileError("cannot write \(path)")
                remove()
                throw failure
            }
            written += count
        }
    }

    /// Removes the file and its directory.
    func remove() {
        unlink(path)
        rmdir(directory)
    }
}

/// Why the browser's page could not be written: what failed, with the system's reason.
struct LaunchFileError: Error, CustomStringConvertible {
    let description: String

    init(_ what: String) { description = "\(what): \(String(cString: strerror(errno)))" }
}
