#if canImport(Glibc)
import Glibc
#endif
import CXCB
import EventLoop

/// The focus on an X11 display (or XWayland's): the window manager's `_NET_ACTIVE_WINDOW` on the
/// root window (EWMH), followed through `PropertyNotify`, and that window's `WM_CLASS` (instance
/// and class) and title. Needs a window manager that keeps `_NET_ACTIVE_WINDOW` (every current
/// one does: openbox, xfwm4, KWin, Mutter, i3).
@MainActor
public final class X11FocusSource: FocusSource {
    public let description: String
    private let reactor: Reactor
    private let connection: OpaquePointer
    private let root: xcb_window_t
    private let activeWindowAtom: xcb_atom_t
    private let windowNameAtom: xcb_atom_t
    private let utf8StringAtom: xcb_atom_t
    private let subscription = FocusSubscription()

    /// Connects to `display` (`$DISPLAY` when nil).
    public init(display: String?, reactor: Reactor) throws(FocusSourceError) {
        var screenNumber: Int32 = 0
        guard let connection = xcb_connect(display, &screenNumber), xcb_connection_has_error(connection) == 0 else {
            throw FocusSourceError("cannot open the X display \(display ?? "$DISPLAY"): is an X server running, and DISPLAY set?")
        }
        self.connection = connection
        self.reactor = reactor
        var screens = xcb_setup_roots_iterator(xcb_get_setup(connection))
        for _ in 0..<max(screenNumber, 0) where screens.rem > 1 { xcb_screen_next(&screens) }
        guard let screen = screens.data else {
            xcb_disconnect(connection)
            throw FocusSourceError("the X display \(display ?? "$DISPLAY") has no screen")
        }
        root = screen.pointee.root
        activeWindowAtom = Self.atom("_NET_ACTIVE_WINDOW", connection)
        windowNameAtom = Self.atom("_NET_WM_NAME", connection)
        utf8StringAtom = Self.atom("UTF8_STRING", connection)
        description = "X11 (_NET_ACTIVE_WINDOW on \(display ?? getenv("DISPLAY").map { String(cString: $0) } ?? "the default display"))"
    }

    isolated deinit {
        subscription.stop()
        xcb_disconnect(connection)
    }

    public func start(changed: @escaping @MainActor (WindowFocus) -> Void, ended: @escaping @MainActor (String) -> Void) {
        var mask = XCB_EVENT_MASK_PROPERTY_CHANGE.rawValue
        xcb_change_window_attributes(connection, root, XCB_CW_EVENT_MASK.rawValue, &mask)
        xcb_flush(connection)
        guard subscription.start(
            watching: xcb_get_file_descriptor(connection), connection: "X connection", reactor: reactor,
            changed: changed, ended: ended, readable: { [weak self] in self?.readEvents() })
        else { return }
        changed(currentFocus())
        readEvents()  // anything that arrived while the focus was read
    }

    public func stop() {
        subscription.stop()
    }

    // MARK: Events

    private func readEvents() {
        var activeChanged = takeEvents(queuedOnly: false)
        while activeChanged, let changed = subscription.changed {
            changed(currentFocus())
            // Waiting for those replies, xcb may have read further events off the socket and
            // queued them: the descriptor will not say so again, so take them now.
            activeChanged = takeEvents(queuedOnly: true)
        }
    }

    /// Takes the events waiting (from the socket, or only those xcb has queued already); true
    /// when one says the active window changed. Stops the source when the connection broke.
    private func takeEvents(queuedOnly: Bool) -> Bool {
        var activeChanged = false
        while let event = queuedOnly ? xcb_poll_for_queued_event(connection) : xcb_poll_for_event(connection) {
            defer { free(event) }
            guard event.pointee.response_type & 0x7f == XCB_PROPERTY_NOTIFY else { continue }
            let notify = UnsafeMutableRawPointer(event).assumingMemoryBound(to: xcb_property_notify_event_t.self).pointee
            if notify.window == root && notify.atom == activeWindowAtom { activeChanged = true }
        }
        if xcb_connection_has_error(connection) != 0 {
            subscription.closed("the X server closed the connection")
            return false
        }
        return activeChanged
    }

    /// The active window's WM_CLASS and title; nothing when no window is active.
    private func currentFocus() -> WindowFocus {
        guard let window = property(of: root, activeWindowAtom, type: XCB_ATOM_WINDOW.rawValue, length: 1)
            .flatMap({ $0.count >= 4 ? $0.withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) } : nil }), window != 0 else {
            return .nothing
        }
        let classBytes = property(of: window, XCB_ATOM_WM_CLASS.rawValue, type: XCB_ATOM_STRING.rawValue, length: 256) ?? []
        // "instance\0class\0"
        let ids = classBytes.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { !$0.isEmpty }
        let title = property(of: window, windowNameAtom, type: utf8StringAtom, length: 256)
            ?? property(of: window, XCB_ATOM_WM_NAME.rawValue, type: XCB_ATOM_STRING.rawValue, length: 256) ?? []
        return WindowFocus(ids: ids, title: String(decoding: title, as: UTF8.self))
    }

    /// The bytes of `property` of `window` when it has `type`; `length` in 32-bit units.
    private func property(of window: xcb_window_t, _ property: xcb_atom_t, type: xcb_atom_t, length: UInt32) -> [UInt8]? {
        let cookie = xcb_get_property(connection, 0, window, property, type, 0, length)
        guard let reply = xcb_get_property_reply(connection, cookie, nil) else { return nil }
        defer { free(reply) }
        guard reply.pointee.type == type, let value = xcb_get_property_value(reply) else { return nil }
        let count = Int(xcb_get_property_value_length(reply))
        return Array(UnsafeRawBufferPointer(start: value, count: count))
    }

    private static func atom(_ name: String, _ connection: OpaquePointer) -> xcb_atom_t {
        let cookie = xcb_intern_atom(connection, 0, UInt16(name.utf8.count), name)
        guard let reply = xcb_intern_atom_reply(connection, cookie, nil) else { return 0 }
        defer { free(reply) }
        return reply.pointee.atom
    }
}
