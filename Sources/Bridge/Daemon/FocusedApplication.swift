/// The application that has the focus, as a desktop reports it.
public struct FocusedApplication: Equatable, Sendable {
    /// Its ids, as rules match them: the Wayland app_id, or the X11 WM_CLASS instance and class
    /// (`org.mozilla.firefox`; `Navigator`, `firefox`). Empty: nothing has the focus (the desktop).
    public var ids: [String]
    /// The window's title (shown, never matched).
    public var title: String

    /// The application with `ids` and the window titled `title`.
    public init(ids: [String], title: String = "") {
        self.ids = ids
        self.title = title
    }

    /// `org.mozilla.firefox`, or `Navigator/firefox`; `nothing` for the desktop.
    public var name: String { ids.isEmpty ? "nothing" : ids.joined(separator: "/") }
}
