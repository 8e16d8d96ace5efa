/// The control socket's door: a request line becomes a `BridgeCommand` (or a read of the status)
/// and the outcome becomes `ok` and its lines, or `error: MESSAGE`.
@MainActor
struct ControlDoor {
    let daemon: BridgeDaemon

    /// The answer to a request whose reply comes whole.
    func answer(_ request: ControlRequest) -> ControlReply {
        if let command = request.command { return ControlReply(daemon.perform(command)) }
        switch request {
        case .status: return .ok(daemon.statusLines)
        case .controllers: return .ok(daemon.state.controllers.map { ControllerLine($0).text })
        case .dsu: return .ok(daemon.dsuStatusLines)
        case .activeProfile: return .ok([daemon.activeProfile])
        case .profiles: return .ok(daemon.state.bridge.profiles)
        default: return .error("'\(request.line)' is answered as a stream")
        }
    }

    /// Answers a request whose reply streams: `watch`, and `calibrate` with its progress.
    func answer(_ stream: ControlStream) {
        switch stream.request {
        case .calibrate(let address):
            switch daemon.startCalibration(address: address) {
            case .success(let addresses):
                daemon.calibrations.report(addresses, on: stream, reactor: daemon.reactor) { [weak daemon] address in
                    daemon?.cancelCalibration(address: address)
                }
            case .failure(let refusal):
                ControlReply.error(refusal.message).lines.forEach(stream.send)
                stream.finish()
            }
        case .watch:
            daemon.registry.startWatching(stream)
        case .pair(let address):
            pair(address, on: stream)
        case .forget(let address):
            forget(address, on: stream)
        default:
            stream.send("error: '\(stream.request.line)' does not stream")
            stream.finish()
        }
    }
}

extension ControlDoor {
    /// `pair`: `ok`, then each step of the pairing as it happens; the client leaving stops the search.
    private func pair(_ address: String?, on stream: ControlStream) {
        switch daemon.preparePairing(address: address) {
        case .success(let run):
            stream.send("ok")
            stream.onEnd = { [weak run] in run?.cancel() }
            daemon.start(run) { step in
                step.lines.forEach(stream.send)
                if step.ends { stream.finish() }
            }
        case .failure(let refusal):
            refuse(refusal, on: stream)
        }
    }

    /// `forget`: `ok`, then how it went once BlueZ answered.
    private func forget(_ address: String, on stream: ControlStream) {
        let started = daemon.forget(address: address) { line in
            stream.send(line)
            stream.finish()
        }
        switch started {
        case .success: stream.send("ok")
        case .failure(let refusal): refuse(refusal, on: stream)
        }
    }

    private func refuse(_ refusal: BridgeRefusal, on stream: ControlStream) {
        ControlReply.error(refusal.message).lines.forEach(stream.send)
        stream.finish()
    }
}

extension ControlRequest {
    /// The command this request asks for; nil for the ones that read the status or stream.
    var command: BridgeCommand? {
        switch self {
        case .profile(let name, let address): .switchProfile(name, controller: address)
        case .nextProfile(let address): .nextProfile(controller: address)
        case .focus(let ids): .focusChanged(FocusedApplication(ids: ids))
        case .calibrate(let address): .calibrateGyro(controller: address)
        case .lend(let address): .lend(controller: address)
        case .reclaim(let address): .reclaim(controller: address)
        case .recenter(let address): .recenter(controller: address)
        case .pair(let address): .pair(controller: address)
        case .forget(let address): .forget(controller: address)
        case .status, .controllers, .dsu, .activeProfile, .profiles, .watch: nil
        }
    }
}

extension ControlReply {
    /// `ok` and what was done, or `error: ` and why not (a config's errors one a line).
    public init(_ outcome: BridgeOutcome) {
        switch outcome {
        case .success(let lines): self = .ok(lines)
        case .failure(let refusal): self = .error(refusal.message)
        }
    }
}
