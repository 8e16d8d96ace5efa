#if canImport(Glibc)
import Glibc
#endif
import Descriptors

/// Writing whole texts to a file descriptor.
public enum FileOutput {
    /// Writes all of `text` to `descriptor` (retrying on `EINTR` and short writes); false when `write(2)` fails.
    @discardableResult
    public static func write(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { buffer in retryingOnInterrupt { Glibc.write(descriptor, buffer.baseAddress, buffer.count) } }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }
}
