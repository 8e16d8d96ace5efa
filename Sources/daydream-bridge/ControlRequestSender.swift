import Bridge

/// Sends one request to the running bridge for a command that talks to it.
enum ControlRequestSender {
    /// The daemon's answer; nil, with the reason printed, when none answers or it refused.
    static func send(_ request: ControlRequest, paths: [String]) -> ControlReply? {
        let reply: ControlReply
        do {
            reply = try ControlClient.send(request, paths: paths)
        } catch {
            printError("Error: \(error)")
            return nil
        }
        guard reply.succeeded else {
            printError("Error: \(reply.message)")
            return nil
        }
        return reply
    }
}
