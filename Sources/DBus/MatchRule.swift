/// A signal match rule: sent to the bus daemon with `AddMatch`, and applied
/// again locally to route each signal to its subscriber.
public struct MatchRule: Hashable, Sendable {
    /// The sender's bus name.
    public var sender: String?
    /// The signal's interface.
    public var interface: String?
    /// The signal's name.
    public var member: String?
    /// The exact object path.
    public var path: String?
    /// Matches the path and every path below it.
    public var pathNamespace: String?
    /// The first argument, when it is a string.
    public var arg0: String?

    /// A rule; nil fields match anything.
    public init(sender: String? = nil, interface: String? = nil, member: String? = nil,
                path: String? = nil, pathNamespace: String? = nil, arg0: String? = nil) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
    }

    /// The text form for `AddMatch`.
    public var text: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender)'") }
        if let interface { parts.append("interface='\(interface)'") }
        if let member { parts.append("member='\(member)'") }
        if let path { parts.append("path='\(path)'") }
        if let pathNamespace { parts.append("path_namespace='\(pathNamespace)'") }
        if let arg0 { parts.append("arg0='\(arg0)'") }
        return parts.joined(separator: ",")
    }

    /// Whether `message` (a signal) matches. A well-known sender name is left
    /// to the bus daemon, which resolves it; a unique name is compared here.
    func matches(_ message: Message) -> Bool {
        if let interface, message.interface != interface { return false }
        if let member, message.member != member { return false }
        if let path, message.path != path { return false }
        if let pathNamespace, let messagePath = message.path, pathNamespace != "/",
           messagePath != pathNamespace, !messagePath.hasPrefix(pathNamespace + "/") { return false }
        if let sender, sender.hasPrefix(":"), message.sender != sender { return false }
        if let arg0, message.arguments().first?.string != arg0 { return false }
        return true
    }
}
