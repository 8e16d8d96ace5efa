import DaydreamProtocol
import EventVocabulary
import Timebase

extension MappingEngine {
    /// Releases, then presses, then chords, for the buttons that changed since the last snapshot.
    /// The comparison is inlined into `update` (most packets change no button); the work is not.
    @inline(__always)
    mutating func updateButtons(_ input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        let previous = lastButtons
        lastButtons = input.buttons
        guard input.buttons != previous else { return }
        buttonsChanged(from: previous, input, at: time, into: &buffer)
    }

    @inline(never)
    private mutating func buttonsChanged(from previous: DaydreamButtons, _ input: ControllerInput, at time: MonotonicTime,
                                         into buffer: inout OutputBuffer) {
        for button in ControllerButton.allCases where previous.contains(button.mask) && !input.buttons.contains(button.mask) {
            buttonReleased(button, at: time, into: &buffer)
        }
        var pressed = false
        for button in ControllerButton.allCases where !previous.contains(button.mask) && input.buttons.contains(button.mask) {
            buttonPressed(button, input: input, at: time, into: &buffer)
            pressed = true
        }
        if pressed { fireCompletedChords(into: &buffer) }
        refreshDeadline()
    }

    /// Chord windows and holds that ended by `time`, then taps whose tap time is up. The deadline
    /// check is inlined into `update` and `advance` (most packets have nothing due); the work is not.
    @inline(__always)
    mutating func advanceButtons(to time: MonotonicTime, into buffer: inout OutputBuffer) {
        guard let deadline = earliestDeadline, deadline <= time else { return }
        advanceDueButtons(to: time, into: &buffer)
    }

    @inline(never)
    private mutating func advanceDueButtons(to time: MonotonicTime, into buffer: inout OutputBuffer) {
        for button in ControllerButton.allCases {
            let pressedAt: MonotonicTime
            switch phases[button.rawValue] {
            case .chordPending(let since):
                guard since + prepared.chordWindow <= time else { continue }
                // Alone to the end of its window, a chord member acts as itself from then on.
                startBinding(of: button, pressedAt: since, startingAt: since + prepared.chordWindow, into: &buffer)
                guard case .pending = phases[button.rawValue] else { continue }
                pressedAt = since
            case .pending(let since):
                pressedAt = since
            case .up, .acting, .consumed:
                continue
            }
            let holdEnded = pressedAt + prepared.holdTimes[button.rawValue]
            guard holdEnded <= time else { continue }
            switch prepared.profile[button] {
            case .plain(let action):
                startHeld(action, for: button, startedAt: holdEnded, into: &buffer)
            case .tapHold(_, let hold?, _):
                startHeld(hold, for: button, startedAt: holdEnded, into: &buffer)
            case .tapHold(_, nil, _), nil:
                phases[button.rawValue] = .consumed
            }
        }
        if !pendingTaps.isEmpty { releaseTaps(dueBy: time, into: &buffer) }
        refreshDeadline()
    }

    /// Counts the tap-time floor of the actions the last `update` or `advance` started from
    /// `time`, when the caller wrote their events, if that is later than the time it was given:
    /// a press written late (the bridge held up between reading the packet and writing, or a
    /// timer that fired late) still stays down a tap time on the device, where a game reads it.
    public mutating func startsWritten(at time: MonotonicTime) {
        guard hasStartsAwaitingWrite else { return }
        let floor = time + prepared.tapTime
        for button in ControllerButton.allCases where startsAwaitingWrite.contains(button.mask) {
            if case .acting(let action, let lastsUntil) = phases[button.rawValue], lastsUntil < floor {
                phases[button.rawValue] = .acting(action, lastsUntil: floor)
            }
        }
        for index in pendingTaps.indices where pendingTaps[index].awaitsWrite {
            pendingTaps[index].awaitsWrite = false
            if pendingTaps[index].due < floor { pendingTaps[index].due = floor }
        }
        startsAwaitingWrite = []
        hasStartsAwaitingWrite = false
        refreshDeadline()
    }

    /// Starts `button`'s binding: a plain binding presses its action at `start`, a tap/hold binding
    /// waits for its hold time counted from `pressed`, and a press with no binding is consumed.
    private mutating func startBinding(
        of button: ControllerButton, pressedAt pressed: MonotonicTime, startingAt start: MonotonicTime, into buffer: inout OutputBuffer
    ) {
        switch prepared.profile[button] {
        case .plain(let action):
            startHeld(action, for: button, startedAt: start, into: &buffer)
        case .tapHold:
            phases[button.rawValue] = .pending(since: pressed)
        case nil:
            phases[button.rawValue] = .consumed
        }
    }

    private mutating func buttonPressed(_ button: ControllerButton, input: ControllerInput, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        if button == .click, claimClickForDpad(input) {
            phases[button.rawValue] = .consumed
            return
        }
        if prepared.chordMembers.contains(button.mask) {
            phases[button.rawValue] = .chordPending(since: time)
            return
        }
        startBinding(of: button, pressedAt: time, startingAt: time, into: &buffer)
    }

    private mutating func buttonReleased(_ button: ControllerButton, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        if button == .click { touchpad.dpadClickHeld = false }
        endChords(containing: button, into: &buffer)
        switch phases[button.rawValue] {
        case .up, .consumed:
            break
        case .acting(let action, let lastsUntil):
            if case .keys = action, time < lastsUntil {
                // Let go within a tap time of its start: it stays down a tap time, like a tap.
                pendingTaps.append(PendingTap(action: action, due: lastsUntil))
            } else {
                endHeld(action, into: &buffer)
            }
        case .pending, .chordPending:
            switch prepared.profile[button] {
            case .plain(let action), .tapHold(let action?, _, _):
                tap(action, at: time, into: &buffer)
            case .tapHold(nil, _, _), nil:
                break
            }
        }
        phases[button.rawValue] = .up
    }

    /// Fires every chord whose members are all in their chord windows.
    private mutating func fireCompletedChords(into buffer: inout OutputBuffer) {
        var waiting: DaydreamButtons = []
        for button in ControllerButton.allCases {
            if case .chordPending = phases[button.rawValue] { waiting.insert(button.mask) }
        }
        guard waiting.rawValue.nonzeroBitCount >= 2 else { return }
        for chord in prepared.chords where waiting.isSuperset(of: chord.buttons) {
            waiting.subtract(chord.buttons)
            for button in ControllerButton.allCases where chord.buttons.contains(button.mask) {
                phases[button.rawValue] = .consumed
            }
            if chord.action.isHeld {
                start(chord.action, into: &buffer)
                activeChords.append(ActiveChord(members: chord.buttons, action: chord.action))
            } else {
                perform(chord.action)
            }
        }
    }

    private mutating func endChords(containing button: ControllerButton, into buffer: inout OutputBuffer) {
        var index = activeChords.startIndex
        while index < activeChords.endIndex {
            if activeChords[index].members.contains(button.mask) {
                endHeld(activeChords[index].action, into: &buffer)
                activeChords.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    // MARK: Actions

    /// Starts an action for a button: held actions last until release, one-shot ones fire now.
    /// A held action lasts at least a tap time from its start (`startedAt`: the press, or
    /// the end of its chord window or hold time), even if the button is let go sooner: a
    /// press that arrives late and bunched with its release (Bluetooth can hold packets back
    /// by tens of milliseconds) is still one a game polling once a frame sees.
    private mutating func startHeld(
        _ action: Action, for button: ControllerButton, startedAt: MonotonicTime, into buffer: inout OutputBuffer
    ) {
        if action.isHeld {
            releasePendingTap(of: action, into: &buffer)
            start(action, into: &buffer)
            phases[button.rawValue] = .acting(action, lastsUntil: startedAt + prepared.tapTime)
            startsAwaitingWrite.insert(button.mask)
            hasStartsAwaitingWrite = true
        } else {
            perform(action)
            phases[button.rawValue] = .consumed
        }
    }

    /// Keys: pressed now and released a tap time later by `advance` (a tap of the same keys
    /// still down is released first, in a frame of its own, so the two stay two presses).
    /// One-shot actions fire; a tapped air mouse does nothing.
    private mutating func tap(_ action: Action, at time: MonotonicTime, into buffer: inout OutputBuffer) {
        switch action {
        case .keys:
            releasePendingTap(of: action, into: &buffer)
            start(action, into: &buffer)
            pendingTaps.append(PendingTap(action: action, due: time + prepared.tapTime, awaitsWrite: true))
            hasStartsAwaitingWrite = true
        case .airMouse:
            break
        default:
            perform(action)
        }
    }

    /// The same keys still down from a tap go up first, in a frame of their own, so that the
    /// next press is a press of its own (and the tap's due release cannot cut it short).
    private mutating func releasePendingTap(of action: Action, into buffer: inout OutputBuffer) {
        guard let index = pendingTaps.firstIndex(where: { $0.action == action }) else { return }
        endHeld(action, into: &buffer)
        pendingTaps.remove(at: index)
        buffer.endFrame()
    }

    /// Releases the taps whose tap time is up by `time`, oldest first.
    private mutating func releaseTaps(dueBy time: MonotonicTime, into buffer: inout OutputBuffer) {
        var index = pendingTaps.startIndex
        while index < pendingTaps.endIndex {
            if pendingTaps[index].due <= time {
                endHeld(pendingTaps[index].action, into: &buffer)
                pendingTaps.remove(at: index)
            } else {
                index += 1
            }
        }
    }

    private mutating func start(_ action: Action, into buffer: inout OutputBuffer) {
        switch action {
        case .keys(let codes):
            for code in codes {
                guard let device = OutputDeviceKind.routeKey(code) else { continue }
                output.press(code, on: device, into: &buffer)
            }
        case .airMouse:
            airMouseHolds += 1
        default:
            perform(action)
        }
    }

    mutating func endHeld(_ action: Action, into buffer: inout OutputBuffer) {
        switch action {
        case .keys(let codes):
            for code in codes.reversed() {
                guard let device = OutputDeviceKind.routeKey(code) else { continue }
                output.release(code, on: device, into: &buffer)
            }
        case .airMouse:
            airMouseHolds = max(0, airMouseHolds - 1)
        default:
            break
        }
    }

    /// One-shot actions.
    private mutating func perform(_ action: Action) {
        switch action {
        case .nextProfile: request = .next
        case .previousProfile: request = .previous
        case .profile(let name): request = .named(name)
        case .recenter: recenterRequested = true
        case .calibrateGyro: startGyroCalibration()
        case .keys, .airMouse, .none: break
        }
    }
}
