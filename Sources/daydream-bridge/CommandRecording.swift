import Bridge

/// The recording a command was given (`replay FILE`, `monitor --replay FILE`), or nil after
/// printing why it cannot be read (`RecordingFileError.printed`).
func openCommandRecording(path: String) -> RecordingFileReader? {
    do {
        return try RecordingFileReader(path: path)
    } catch {
        printError(error.printed)
        return nil
    }
}
