extension BridgeDaemon {
    /// The control socket's reply to a request answered whole, without going through the socket:
    /// for a process that runs the daemon on its own loop (`ui --replay`), where a blocking
    /// request to its own socket would wait for a loop that cannot answer until it returns.
    public func reply(to request: ControlRequest) -> ControlReply {
        ControlDoor(daemon: self).answer(request)
    }
}
