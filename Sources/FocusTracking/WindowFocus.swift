/// Which application has the focus, as a desktop tells it.
public struct WindowFocus: Equatable, Sendable {
    /// Its ids, as rules match them: a Wayland app_id, or the X11 WM_CLASS instance and class.
    /// Empty when nothing has the focus (the desktop itself).
    public var ids: [String]
    /// The window's title.
    public var title: String

    /// The focus on an application with `ids`, in a window titled `title`.
    public init(ids: [String], title: String) {
        self.ids = ids
        self.title = title
    }

    /// Nothing has the focus.
    public static let nothing = WindowFocus(ids: [], title: "")
}
