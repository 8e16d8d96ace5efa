/// Where a player takes a recording from, an entry at a time: a parsed `Recording`, or a file
/// read as it plays.
public protocol RecordingEntrySource: AnyObject {
    /// What the controller said about itself, complete before the first entry is taken.
    var info: RecordingInfo { get }
    /// The next entry in order; nil at the end, or when the rest cannot be read (`failure`).
    func nextEntry() -> RecordingEntry?
    /// Why the entries ended before the end of the recording, ready to print (one line per
    /// problem, `FILE:LINE:COLUMN: message`); nil while they have not.
    var failure: String? { get }
}

/// A parsed recording's entries, one at a time.
public final class RecordingEntryList: RecordingEntrySource {
    private let recording: Recording
    private var nextIndex = 0

    /// The entries of `recording`, from the first.
    public init(_ recording: Recording) {
        self.recording = recording
    }

    /// The recording's information.
    public var info: RecordingInfo { recording.info }
    /// A parsed recording has no problems left.
    public var failure: String? { nil }

    /// The next entry, nil after the last.
    public func nextEntry() -> RecordingEntry? {
        guard nextIndex < recording.entries.count else { return nil }
        defer { nextIndex += 1 }
        return recording.entries[nextIndex]
    }
}
