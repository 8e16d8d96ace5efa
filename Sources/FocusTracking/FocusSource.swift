import EventLoop

/// Where focus changes come from: a desktop's own notifications, never a poll.
@MainActor
public protocol FocusSource: AnyObject {
    /// What it follows, for the log: `X11 (_NET_ACTIVE_WINDOW)`.
    var description: String { get }
    /// Starts following; `changed` hears the focus now and each change after it (repeats are
    /// possible), `ended` why the source stopped (the display server went away).
    func start(changed: @escaping @MainActor (WindowFocus) -> Void, ended: @escaping @MainActor (String) -> Void)
    /// Stops following.
    func stop()
}

/// Why a focus source cannot start, with what to do.
public struct FocusSourceError: Error, CustomStringConvertible, Sendable {
    /// One line.
    public let description: String
    /// True when nothing is wrong: this desktop follows the focus another way (GNOME's extension).
    public let isNotNeeded: Bool

    /// An error saying `description`.
    public init(_ description: String, isNotNeeded: Bool = false) {
        self.description = description
        self.isNotNeeded = isNotNeeded
    }
}
