// daydream-bridge: tells the bridge which application has the focus, so profiles
// with `applications = [...]` follow it. On GNOME only the Shell sees the focused
// window; this calls the bridge's org.daydream_bridge.Bridge1.SetFocusedApplication
// on the session bus with the window's WM_CLASS (its app_id on Wayland) and title
// whenever the focus moves. Written for GNOME Shell 43 and 44 (the extension format
// before 45's modules).
const { Gio, GLib } = imports.gi;

class FocusReporter {
    enable() {
        this._handler = global.display.connect('notify::focus-window', () => this._tell());
        this._tell();
    }

    disable() {
        if (this._handler)
            global.display.disconnect(this._handler);
        this._handler = null;
    }

    _tell() {
        const window = global.display.focus_window;
        const id = window ? (window.get_wm_class() || '') : '';
        const title = window ? (window.get_title() || '') : '';
        // A bridge that is not running is no error worth a log line: the next change tells it.
        Gio.DBus.session.call(
            'org.daydream_bridge', '/org/daydream_bridge', 'org.daydream_bridge.Bridge1',
            'SetFocusedApplication', new GLib.Variant('(ss)', [id.replace(/\s/g, ''), title]),
            null, Gio.DBusCallFlags.NO_AUTO_START, 1000, null, null);
    }
}

function init() {
    return new FocusReporter();
}
