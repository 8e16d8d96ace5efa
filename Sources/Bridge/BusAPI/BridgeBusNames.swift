/// The names of the bridge's D-Bus API: its bus name, object paths and interfaces.
public enum BridgeBusNames {
    /// The well-known bus name the daemon owns.
    public static let busName = "org.daydream_bridge"
    /// The bridge's object: `Bridge1` and the object manager for the controllers.
    public static let bridgePath = "/org/daydream_bridge"
    /// The node the controllers' objects are under.
    public static let controllersPath = "/org/daydream_bridge/controller"
    /// The bridge's interface: version, profiles, identity; profile switching, reload, focus.
    public static let bridgeInterface = "org.daydream_bridge.Bridge1"
    /// A controller's interface: its link, battery, firmware, profile and packet counts.
    public static let controllerInterface = "org.daydream_bridge.Controller1"
    /// The prefix of the API's own errors (`org.daydream_bridge.Error.UnknownProfile`).
    public static let errorPrefix = "org.daydream_bridge.Error."

    /// `/org/daydream_bridge/controller/C0_DD_EE_00_00_01` for `c0:dd:ee:00:00:01`: the address
    /// upper-cased, with `_` for each character an object path cannot hold.
    public static func controllerPath(address: String) -> String {
        let element = String(address.uppercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        return controllersPath + "/" + (element.isEmpty ? "_" : element)
    }
}
