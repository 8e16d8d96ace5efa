import CDBus

/// A D-Bus error: its name (`org.bluez.Error.Failed`) and message, plus a
/// hint for the user when the name is one the project knows. Hints name no
/// program's commands: a program adds its own remedies to its messages.
public struct DBusError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The error name, e.g. `org.bluez.Error.AuthenticationFailed`.
    public let name: String
    /// The human text that came with it.
    public let message: String

    /// An error with `name` and `message`.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// The connection is closed; nothing was sent.
    public static let disconnected = DBusError(
        name: "org.freedesktop.DBus.Error.Disconnected", message: "the D-Bus connection is closed")

    /// Takes the contents of a libdbus `DBusError` and frees it.
    init(consuming error: inout CDBus.DBusError) {
        name = error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed"
        message = error.message.map { String(cString: $0) } ?? ""
        dbus_error_free(&error)
    }

    /// The name without its namespace (`AuthenticationFailed`).
    public var shortName: String { name.split(separator: ".").last.map(String.init) ?? name }

    /// Whether the error means the bond with the device is no longer valid.
    /// Besides the Authentication* names, newer BlueZ answers `Connect` with
    /// `org.bluez.Error.Failed` and the reason `le-connection-key-missing`
    /// (`br-connection-key-missing`) when the device has lost its keys.
    public var isAuthenticationFailure: Bool {
        ["org.bluez.Error.AuthenticationFailed", "org.bluez.Error.AuthenticationRejected"].contains(name)
            || (name == "org.bluez.Error.Failed" && message.hasSuffix("-connection-key-missing"))
    }

    /// Whether the object or service the call went to is gone (bluetoothd
    /// stopped, or the adapter or device was removed). The object cache says
    /// so too, so for a caller this is expected, not news for the user.
    public var meansTargetIsGone: Bool {
        ["org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.ServiceUnknown",
         "org.freedesktop.DBus.Error.NameHasNoOwner", "org.bluez.Error.DoesNotExist"].contains(name)
    }

    /// What the user can do about it, when known.
    public var hint: String? { DBusError.hints[name] }

    /// `name: message (hint)`, the form every log line uses.
    public var description: String {
        var text = message.isEmpty ? name : "\(name): \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }

    static let hints: [String: String] = [
        "org.bluez.Error.NotReady": "the adapter is not ready; is it powered on?",
        "org.bluez.Error.InProgress": "BlueZ is already doing this; it will be retried",
        "org.bluez.Error.AlreadyExists": "already done",
        "org.bluez.Error.AlreadyConnected": "already connected",
        "org.bluez.Error.AuthenticationFailed":
            "stale bond: the device lost the pairing keys; remove the device from BlueZ and pair it again",
        "org.bluez.Error.AuthenticationRejected":
            "stale bond: the device lost the pairing keys; remove the device from BlueZ and pair it again",
        "org.bluez.Error.AuthenticationCanceled": "pairing was cancelled; pair again",
        "org.bluez.Error.AuthenticationTimeout": "pairing timed out; press the home button and try again",
        "org.bluez.Error.ConnectionAttemptFailed": "the controller is asleep or out of range; press its home button",
        "org.bluez.Error.NotAuthorized": "the device is not paired; pair it first",
        "org.bluez.Error.NotPermitted": "BlueZ does not allow this here",
        "org.bluez.Error.NotSupported": "BlueZ or the device does not support this",
        "org.bluez.Error.DoesNotExist": "BlueZ no longer knows this object",
        "org.bluez.Error.Rejected": "refused",
        "org.bluez.Error.NotAvailable": "not available right now",
        "org.bluez.Error.Failed": "BlueZ reported a failure; 'journalctl -u bluetooth' may say more",
        "org.freedesktop.DBus.Error.AccessDenied":
            "the D-Bus policy refuses this user: run as root or as a member of the 'bluetooth' group",
        "org.freedesktop.DBus.Error.ServiceUnknown":
            "BlueZ is not running: start it with 'sudo systemctl start bluetooth'",
        "org.freedesktop.DBus.Error.NameHasNoOwner":
            "BlueZ is not running: start it with 'sudo systemctl start bluetooth'",
        "org.freedesktop.DBus.Error.NoReply": "bluetoothd did not answer in time",
        "org.freedesktop.DBus.Error.UnknownObject": "the object is gone (the device or adapter was removed)",
        "org.freedesktop.DBus.Error.UnknownMethod": "this BlueZ version lacks the method",
        "org.freedesktop.DBus.Error.Disconnected": "the D-Bus connection is closed; is dbus-daemon running?",
    ]
}
