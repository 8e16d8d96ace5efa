#if canImport(Glibc)
import Glibc
#endif

/// Writing whole texts to a file descriptor.
public enum FileOutput {
    /// Writes all of `text` to `descriptor` (retrying on `EINTR` and short writes); false when `write(2)` fails.
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
