/// The application that has the focus, as a desktop reports it.
public struct FocusedApplication: Equatable, Sendable {
    /// The Wayland app_id or X11 WM_CLASS, e.g. `org.mozilla.firefox`, `steam_app_1245620`.
    public var appID: String
    /// The window's title.
    public var title: String

    /// The application `appID` with the window titled `title`.
    public init(appID: String, title: String) {
        self.appID = appID
        self.title = title
    }
}
