// For the tests only: lets FollowFocusSessionTests move the focus in a headless GNOME Shell,
// which has no input devices to click with. Exports org.daydream_bridge.TestDriver on the
// Shell's session bus connection at /org/daydream_bridge/TestDriver.
const { Gio } = imports.gi;
const Main = imports.ui.main;

const INTERFACE = `<node>
  <interface name="org.daydream_bridge.TestDriver">
    <method name="Activate">
      <arg type="s" direction="in" name="wm_class"/>
      <arg type="b" direction="out" name="found"/>
    </method>
  </interface>
</node>`;

class TestDriver {
    enable() {
        this._object = Gio.DBusExportedObject.wrapJSObject(INTERFACE, this);
        this._object.export(Gio.DBus.session, '/org/daydream_bridge/TestDriver');
    }

    disable() {
        this._object.unexport();
        this._object = null;
    }

    // Activates the first window of `wmClass` (the overview, shown at start, is closed first).
    Activate(wmClass) {
        Main.overview.hide();
        for (const actor of global.get_window_actors()) {
            const window = actor.get_meta_window();
            if (window.get_wm_class() === wmClass) {
                window.activate(global.get_current_time());
                return true;
            }
        }
        return false;
    }
}

function init() {
    return new TestDriver();
}
