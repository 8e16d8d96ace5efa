import DaydreamCore
import DaydreamProtocol
import Testing
import Timebase

/// The Gear VR's start / keep-alive / restart / stop protocol, run by `ControllerStreamMachine`
/// on a manual clock: what it writes, and when.
@MainActor
@Suite struct ControllerStreamMachineTests {
    /// A machine for a family's protocol, its writes recorded with their times, its packets counted by hand.
    @MainActor final class Rig {
        let clock = ManualScheduler(now: MonotonicTime(nanoseconds: 1_000_000_000))
        let machine: ControllerStreamMachine
        var writes: [(time: TimeSpan, command: [UInt8])] = []
        var packets = 0
        var downs = 0
        var restarts = 0
        let start: MonotonicTime

        init(_ family: ControllerFamily = .gearVR) {
            start = clock.now
            machine = ControllerStreamMachine(stream: family.stream, scheduler: clock, log: LogLines().sink, label: "test")
            machine.write = { [unowned self] command in writes.append((clock.now - start, command)) }
            machine.packetsReceived = { [unowned self] in packets }
            machine.onDown = { [unowned self] in downs += 1 }
            machine.onRestart = { [unowned self] in restarts += 1 }
        }

        var commands: [[UInt8]] { writes.map(\.command) }

        /// Packets every 15 ms for `span` (the controller streaming).
        func stream(for span: TimeSpan) {
            let end = clock.now + span
            while clock.now < end {
                packets += 1
                clock.advance(by: .milliseconds(15))
            }
        }
    }

    static let vrMode: [UInt8] = [0x08, 0x00]
    static let sensors: [UInt8] = [0x01, 0x00]

    @Test func writesSensorsOnlyAfterTheVRModeEcho() {
        let rig = Rig()
        rig.machine.subscribed()
        #expect(rig.commands == [Self.vrMode])
        // Nothing else while the echo is awaited, however long it takes (short of the time-out).
        rig.clock.advance(by: .milliseconds(1500))
        #expect(rig.commands == [Self.vrMode])
        rig.machine.echoed(0x0008)
        #expect(rig.commands == [Self.vrMode, Self.sensors])
        #expect(rig.machine.state == .streaming(restarts: 0))
    }

    @Test func anotherEchoDoesNotStartTheSensors() {
        let rig = Rig()
        rig.machine.subscribed()
        rig.machine.echoed(0x0001)
        rig.machine.echoed(0x0004)
        #expect(rig.commands == [Self.vrMode])
        #expect(rig.machine.state == .awaitingEcho(step: 0, restarts: 0))
    }

    @Test func keepsAliveEveryTenSecondsWhileStreaming() {
        let rig = Rig()
        rig.machine.subscribed()
        rig.machine.echoed(0x0008)
        rig.stream(for: .milliseconds(25_000))
        let keepAlives = rig.writes.filter { $0.command == GearVRCommand.keepAlive }.map(\.time)
        #expect(keepAlives == [.milliseconds(10_000), .milliseconds(20_000)])
        #expect(rig.downs == 0)
    }

    @Test func silenceRestartsTwiceThenTheLinkIsDown() {
        let rig = Rig()
        rig.machine.subscribed()
        rig.machine.echoed(0x0008)
        rig.stream(for: .milliseconds(1000))
        // Silence: after 3 s the sequence starts again from 0800.
        rig.clock.advance(by: .milliseconds(3100))
        #expect(rig.commands == [Self.vrMode, Self.sensors, Self.vrMode])
        #expect(rig.machine.state == .awaitingEcho(step: 0, restarts: 1))
        rig.machine.echoed(0x0008)
        #expect(rig.commands.suffix(1) == [Self.sensors])
        // Still nothing: the second and last restart.
        rig.clock.advance(by: .milliseconds(3100))
        #expect(rig.machine.state == .awaitingEcho(step: 0, restarts: 2))
        #expect(rig.downs == 0)
        // No echo within its time-out: the link is down.
        rig.clock.advance(by: .milliseconds(3100))
        #expect(rig.machine.state == .down)
        #expect(rig.downs == 1)
        #expect(rig.commands.filter { $0 == Self.vrMode }.count == 3)
    }

    @Test func aStreamThatHoldsAgainForgetsItsRestarts() {
        let rig = Rig()
        rig.machine.subscribed()
        rig.machine.echoed(0x0008)
        rig.clock.advance(by: .milliseconds(3100))
        rig.machine.echoed(0x0008)
        #expect(rig.machine.state == .streaming(restarts: 1))
        rig.stream(for: .milliseconds(3500))
        #expect(rig.machine.state == .streaming(restarts: 0))
    }

    @Test func stopWritesOffAndEndsTheTimers() {
        let rig = Rig()
        rig.machine.subscribed()
        rig.machine.echoed(0x0008)
        rig.machine.stop()
        #expect(rig.commands == [Self.vrMode, Self.sensors, GearVRCommand.off])
        #expect(rig.machine.state == .idle)
        rig.clock.advance(by: .milliseconds(60_000))
        #expect(rig.commands.count == 3)
        #expect(rig.downs == 0)
    }

    @Test func aLostLinkWritesNothing() {
        let rig = Rig()
        rig.machine.subscribed()
        rig.machine.stop(writeStop: false)
        #expect(rig.commands == [Self.vrMode])
    }

    @Test func theOculusGoIsSubscribedAgainAfterThreeSecondsOfSilence() {
        let rig = Rig(.oculusGo)
        rig.machine.subscribed()
        #expect(rig.commands.isEmpty)
        rig.stream(for: .milliseconds(2000))
        rig.clock.advance(by: .milliseconds(3100))
        #expect(rig.restarts == 1)
        #expect(rig.downs == 0)
        #expect(rig.commands.isEmpty)
    }

    @Test func neverSendsACommandTheHardwareDidNotVerify() {
        let verified: Set<[UInt8]> = [GearVRCommand.off, GearVRCommand.sensors, GearVRCommand.keepAlive, GearVRCommand.vrMode]
        let stream = ControllerFamily.gearVR.stream
        let sent = stream.start.map(\.command) + [stream.keepAlive, stream.stop].compactMap { $0 }
        #expect(Set(sent).isSubset(of: verified))
    }
}
