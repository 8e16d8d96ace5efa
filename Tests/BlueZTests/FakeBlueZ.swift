import EventLoop
import Foundation
import Glibc
import TestSupport
import Timebase

/// The fake bluetoothd (Tests/fake-bluez/fake_bluez.py) on a test bus, driven
/// by JSON lines on its stdin; its answers are read on the test's loop.
@MainActor
final class FakeBlueZ {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fake-bluez/fake_bluez.py")

    private let process: Process
    private let input: FileHandle
    private let reactor: Reactor
    private var outputWatch: IOWatch?
    private var buffered: [UInt8] = []
    private var answers: [Int: [String: Any]] = [:]
    private var ready = false
    private var nextID = 0
    private let outputDescriptor: Int32

    init(busAddress: String, reactor: Reactor, arguments: [String] = []) throws {
        self.reactor = reactor
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [FakeBlueZ.script.path, "--address", busAddress] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        input = stdin.fileHandleForWriting
        outputDescriptor = stdout.fileHandleForReading.fileDescriptor
        _ = fcntl(outputDescriptor, F_SETFL, fcntl(outputDescriptor, F_GETFL) | O_NONBLOCK)
        outputWatch = try reactor.watch(outputDescriptor, interest: .readable) { [weak self] _ in self?.readOutput() }
        guard reactor.run(until: { self.ready }, timeout: .seconds(10)) else {
            throw TestFailure("the fake bluetoothd did not start")
        }
        _ = stdout
    }

    private func readOutput() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(outputDescriptor, &chunk, chunk.count)
        if count <= 0 {
            outputWatch?.cancel()
            outputWatch = nil
            return
        }
        buffered += chunk[0..<count]
        while let newline = buffered.firstIndex(of: 0x0A) {
            let line = Data(buffered[..<newline])
            buffered.removeSubrange(...newline)
            guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
            if object["ready"] != nil { ready = true }
            if let id = object["id"] as? Int { answers[id] = object }
        }
    }

    /// Sends one command and runs the loop until its answer; returns its result.
    @discardableResult
    func command(_ name: String, _ arguments: [String: Any] = [:]) throws -> Any? {
        nextID += 1
        let id = nextID
        var command = arguments
        command["cmd"] = name
        command["id"] = id
        var line = try JSONSerialization.data(withJSONObject: command)
        line.append(0x0A)
        input.write(line)
        guard reactor.run(until: { self.answers[id] != nil }, timeout: .seconds(10)), let answer = answers.removeValue(forKey: id) else {
            throw TestFailure("the fake bluetoothd did not answer \(name)")
        }
        guard answer["ok"] as? Bool == true else {
            throw TestFailure("the fake bluetoothd failed \(name): \(answer["error"] ?? "?")")
        }
        return answer["result"]
    }

    /// The fake's state: discovery filter, call log, agent, devices.
    func state() throws -> [String: Any] {
        try command("state") as? [String: Any] ?? [:]
    }

    /// The fake's call log, "Interface.Method /path" lines.
    func log() throws -> [String] {
        try state()["log"] as? [String] ?? []
    }

    /// Kills the fake at once, as bluetoothd dies with the bus it was on.
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        stop()
    }

    func stop() {
        outputWatch?.cancel()
        outputWatch = nil
        try? input.close()
        process.waitUntilExit()
    }
}
