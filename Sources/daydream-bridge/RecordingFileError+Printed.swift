import Bridge

extension RecordingFileError {
    /// As a command prints it: `Error: cannot read PATH: REASON`, or the text's problems, one
    /// `PATH:LINE:COLUMN: message` line each.
    var printed: String {
        switch self {
        case .unreadable: "Error: \(self)"
        case .invalid: "\(self)"
        }
    }
}
