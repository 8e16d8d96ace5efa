#if canImport(Glibc)
import Glibc
#endif
import Bridge
import DBus
import EventLoop
import FocusTracking

/// KDE Plasma on Wayland: no client can see the focused window, but a KWin script can. This
/// loads one into KWin over its D-Bus interface (`org.kde.KWin /Scripting`) that calls the
/// bridge's `SetFocusedApplication` on each activation (Plasma 6 `windowActivated`, Plasma 5
/// `clientActivated`), with the window's resource class and caption; the bridge must be on the
/// session bus (the user unit). Unloaded again by `stop()`.
@MainActor
final class KWinFocusScript: FocusSource {
    static let pluginName = "daydream-bridge-focus"
    let description = "a KWin script (KDE Plasma), which tells the bridge over D-Bus"
    private let connection: BusConnection
    private let path: String

    /// The script's text.
    static let text = """
    // daydream-bridge: tells the bridge which application has the focus. Written and loaded
    // into KWin over D-Bus by 'daydream-bridge follow-focus'.
    function tell(window) {
        var id = window ? String(window.resourceClass || window.desktopFileName || "") : "";
        var title = window ? String(window.caption || "") : "";
        callDBus("\(BridgeBusNames.busName)", "\(BridgeBusNames.bridgePath)", "\(BridgeBusNames.bridgeInterface)",
                 "SetFocusedApplication", id.replace(/\\s/g, ""), title);
    }
    if (workspace.windowActivated) {
        workspace.windowActivated.connect(tell);
        tell(workspace.activeWindow);
    } else {
        workspace.clientActivated.connect(tell);
        tell(workspace.activeClient);
    }

    """

    /// Connects to the session bus at `address`; the script goes to `directory`.
    init(sessionBus address: String, directory: String, reactor: Reactor) throws(FocusSourceError) {
        do {
            connection = try BusConnection(address: address, reactor: reactor)
        } catch {
            throw FocusSourceError("cannot reach the session bus for KWin: \(error.message)")
        }
        path = directory + "/kwin-focus.js"
        mkdir(directory, 0o700)
        guard let file = fopen(path, "w") else {
            throw FocusSourceError("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        fputs(Self.text, file)
        fclose(file)
    }

    func start(changed: @escaping @MainActor (WindowFocus) -> Void, ended: @escaping @MainActor (String) -> Void) {
        call("unloadScript", [.string(Self.pluginName)]) { [weak self] _ in
            self?.call("loadScript", [.string(self?.path ?? ""), .string(Self.pluginName)]) { [weak self] result in
                switch result {
                case .success:
                    self?.call("start", []) { result in
                        if case .failure(let error) = result { ended("KWin did not start the script: \(error.message)") }
                    }
                case .failure(let error):
                    ended("KWin did not load the script (is this KDE Plasma's KWin?): \(error.message)")
                }
            }
        }
    }

    /// Unloads the script, waiting up to a second for KWin's answer (the process exits next).
    func stop() {
        var answered = false
        call("unloadScript", [.string(Self.pluginName)]) { _ in answered = true }
        _ = connection.reactor.run(until: { answered }, timeout: .seconds(1))
    }

    private func call(_ method: String, _ arguments: [DBusValue], completion: @escaping @MainActor (Result<[DBusValue], DBusError>) -> Void) {
        connection.call(destination: "org.kde.KWin", path: "/Scripting", interface: "org.kde.kwin.Scripting", method: method,
                        arguments: arguments, completion: completion)
    }
}
