#if canImport(Glibc)
import Glibc
#endif
import Bridge
import EventLoop
import FocusTracking

/// Which desktop `follow-focus` follows, from the session's environment.
enum FocusSourceChoice {
    /// The GNOME Shell extension's uuid (`make install` puts it in share/gnome-shell/extensions).
    static let gnomeExtension = "daydream-bridge@daydream-bridge"

    /// The variables the choice reads.
    static func processEnvironment() -> [String: String] {
        ProcessEnvironment.values(["DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"])
    }

    /// The source for this session: on Wayland, a wlroots compositor's toplevels (KDE and GNOME
    /// have their own way: an error saying it); on X11, the window manager's active window; an
    /// error saying what to do otherwise. XWayland's DISPLAY is not used on Wayland: it would
    /// see the X11 windows only.
    @MainActor
    static func source(environment: [String: String], reactor: Reactor) throws(FocusSourceError) -> any FocusSource {
        if let wayland = environment["WAYLAND_DISPLAY"], !wayland.isEmpty {
            let desktop = (environment["XDG_CURRENT_DESKTOP"] ?? "").uppercased()
            if desktop.contains("KDE") {
                guard let bus = BusChoice.session.address(environment: environment), let runtime = environment["XDG_RUNTIME_DIR"] else {
                    throw FocusSourceError("on KDE Plasma a KWin script follows the focus, loaded over the session bus, which is not there")
                }
                return try KWinFocusScript(sessionBus: bus, directory: runtime + "/daydream-bridge", reactor: reactor)
            }
            if desktop.contains("GNOME") {
                throw FocusSourceError("on GNOME the Shell extension follows the focus, not this command: "
                    + "gnome-extensions enable \(gnomeExtension)", isNotNeeded: true)
            }
            return try WlrootsFocusSource(name: wayland, reactor: reactor)
        }
        if let display = environment["DISPLAY"], !display.isEmpty {
            return try X11FocusSource(display: display, reactor: reactor)
        }
        throw FocusSourceError("no desktop to follow: neither WAYLAND_DISPLAY nor DISPLAY is set (run it in the desktop session)")
    }
}
