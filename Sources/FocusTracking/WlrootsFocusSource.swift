#if canImport(Glibc)
import Glibc
#endif
import CWaylandToplevel
import EventLoop

/// The focus in a wlroots compositor (sway, Hyprland, niri, labwc, river, Wayfire): wlroots'
/// foreign toplevel management protocol lists every toplevel with its app_id, title and state;
/// the one whose state says `activated` has the focus. The compositor sends each change as it
/// happens, ended by `done`.
@MainActor
public final class WlrootsFocusSource: FocusSource {
    public let description: String
    private let reactor: Reactor
    private let display: OpaquePointer
    private var registry: OpaquePointer?
    private var manager: OpaquePointer?
    private var toplevels: [OpaquePointer: Toplevel] = [:]
    private let subscription = FocusSubscription()

    /// What the compositor said of one toplevel; `pending` until its `done`.
    struct Toplevel {
        var appID = ""
        var title = ""
        var activated = false
        var pending = Pending()

        struct Pending {
            var appID: String?
            var title: String?
            var activated: Bool?
        }
    }

    /// Connects to the compositor at `$WAYLAND_DISPLAY` (or `name`) and finds the protocol;
    /// an error when the compositor does not offer it (GNOME, KDE).
    public init(name: String?, reactor: Reactor) throws(FocusSourceError) {
        guard let display = wl_display_connect(name) else {
            throw FocusSourceError("cannot connect to the Wayland compositor \(name ?? "$WAYLAND_DISPLAY")")
        }
        self.display = display
        self.reactor = reactor
        description = "wlroots foreign toplevels (\(name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"))"
        let context = Unmanaged.passUnretained(self).toOpaque()
        registry = daydream_registry(display, &Self.registryListener, context)
        wl_display_roundtrip(display)  // the globals, and with them the manager
        guard manager != nil else {
            if let registry { wl_proxy_destroy(registry) }
            wl_display_disconnect(display)
            throw FocusSourceError("this Wayland compositor does not offer zwlr_foreign_toplevel_manager_v1 "
                + "(wlroots compositors do; on KDE and GNOME the bridge follows the focus through KWin or the Shell extension)")
        }
    }

    isolated deinit {
        subscription.stop()
        for handle in toplevels.keys { daydream_toplevel_handle_destroy(handle) }
        if let manager { wl_proxy_destroy(manager) }
        if let registry { wl_proxy_destroy(registry) }
        wl_display_disconnect(display)
    }

    public func start(changed: @escaping @MainActor (WindowFocus) -> Void, ended: @escaping @MainActor (String) -> Void) {
        wl_display_roundtrip(display)  // every toplevel there is now
        guard subscription.start(
            watching: wl_display_get_fd(display), connection: "Wayland connection", reactor: reactor,
            changed: changed, ended: ended, readable: { [weak self] in self?.readEvents() })
        else { return }
        report()
    }

    public func stop() {
        subscription.stop()
    }

    private func readEvents() {
        if wl_display_dispatch(display) < 0 {
            subscription.closed("the Wayland compositor closed the connection")
            return
        }
        wl_display_flush(display)
        report()
    }

    private func report() {
        guard let changed = subscription.changed else { return }
        let active = toplevels.values.first { $0.activated }
        changed(active.map { WindowFocus(ids: $0.appID.isEmpty ? [] : [$0.appID], title: $0.title) } ?? .nothing)
    }

    // MARK: Events (called by libwayland during dispatch)

    private func global(name: UInt32, interface: String, version: UInt32) {
        guard interface == "zwlr_foreign_toplevel_manager_v1", manager == nil, let registry else { return }
        manager = daydream_bind_toplevel_manager(registry, name, version)
        if let manager {
            daydream_toplevel_manager_listen(manager, &Self.managerListener, Unmanaged.passUnretained(self).toOpaque())
        }
    }

    private func added(_ handle: OpaquePointer) {
        toplevels[handle] = Toplevel()
        daydream_toplevel_handle_listen(handle, &Self.handleListener, Unmanaged.passUnretained(self).toOpaque())
    }

    private func update(_ handle: OpaquePointer, _ change: (inout Toplevel.Pending) -> Void) {
        change(&toplevels[handle, default: Toplevel()].pending)
    }

    private func done(_ handle: OpaquePointer) {
        guard var toplevel = toplevels[handle] else { return }
        toplevel.appID = toplevel.pending.appID ?? toplevel.appID
        toplevel.title = toplevel.pending.title ?? toplevel.title
        toplevel.activated = toplevel.pending.activated ?? toplevel.activated
        toplevel.pending = Toplevel.Pending()
        toplevels[handle] = toplevel
    }

    private func closed(_ handle: OpaquePointer) {
        toplevels[handle] = nil
        daydream_toplevel_handle_destroy(handle)
    }

    /// Runs `body` on the main actor with the source behind `data` and a toplevel's handle.
    /// libwayland calls back from `wl_display_dispatch`, on the loop's (main) thread.
    private nonisolated static func onLoop(
        _ data: UnsafeMutableRawPointer?, _ handle: OpaquePointer?, _ body: @MainActor (WlrootsFocusSource, OpaquePointer) -> Void
    ) {
        guard let data, let handle else { return }
        nonisolated(unsafe) let context = data, proxy = handle
        MainActor.assumeIsolated { body(Unmanaged<WlrootsFocusSource>.fromOpaque(context).takeUnretainedValue(), proxy) }
    }

    private static var registryListener = wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let interface, let data else { return }
            let text = String(cString: interface)
            nonisolated(unsafe) let context = data
            MainActor.assumeIsolated {
                Unmanaged<WlrootsFocusSource>.fromOpaque(context).takeUnretainedValue().global(name: name, interface: text, version: version)
            }
        },
        global_remove: { _, _, _ in })

    private static var managerListener = daydream_toplevel_manager_listener(
        toplevel: { data, _, handle in
            onLoop(data, handle) { $0.added($1) }
        },
        finished: { _, _ in })

    private static var handleListener = daydream_toplevel_handle_listener(
        title: { data, handle, title in
            guard let title else { return }
            let text = String(cString: title)
            onLoop(data, handle) { source, handle in source.update(handle) { $0.title = text } }
        },
        app_id: { data, handle, appID in
            guard let appID else { return }
            let text = String(cString: appID)
            onLoop(data, handle) { source, handle in source.update(handle) { $0.appID = text } }
        },
        output_enter: { _, _, _ in },
        output_leave: { _, _, _ in },
        state: { data, handle, array in
            guard let array else { return }
            var count = 0
            let values = daydream_array_values(array, &count)
            let activated = (0..<count).contains { values?[$0] == UInt32(DAYDREAM_TOPLEVEL_STATE_ACTIVATED) }
            onLoop(data, handle) { source, handle in source.update(handle) { $0.activated = activated } }
        },
        done: { data, handle in
            onLoop(data, handle) { $0.done($1) }
        },
        closed: { data, handle in
            onLoop(data, handle) { $0.closed($1) }
        },
        parent: { _, _, _ in })
}
