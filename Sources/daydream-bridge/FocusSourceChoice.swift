#if canImport(Glibc)
import Glibc
#endif
import EventLoop
import FocusTracking

/// Which desktop `follow-focus` follows, from the session's environment.
enum FocusSourceChoice {
    /// The variables the choice reads.
    static func processEnvironment() -> [String: String] {
        var result: [String: String] = [:]
        for name in ["DISPLAY", "WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP"] {
            if let value = getenv(name) { result[name] = String(cString: value) }
        }
        return result
    }

    /// The source for this session: X11 when DISPLAY is set; an error saying what to do otherwise.
    @MainActor
    static func source(environment: [String: String], reactor: Reactor) throws(FocusSourceError) -> any FocusSource {
        if let display = environment["DISPLAY"], !display.isEmpty {
            return try X11FocusSource(display: display, reactor: reactor)
        }
        throw FocusSourceError("no desktop to follow: neither DISPLAY (X11) nor WAYLAND_DISPLAY is set")
    }
}
