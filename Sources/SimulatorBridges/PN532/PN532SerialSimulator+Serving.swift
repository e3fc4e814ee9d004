import NFCWireFormat
import SimulatedReader
import Synchronization
import TagSimulator

extension PN532SerialSimulator {
    /// How long the thread waits for bytes before it looks at its requests again, in
    /// milliseconds (a stop request wakes it at once).
    static let idleMilliseconds: Int32 = 250
    /// How long the rest of a frame may take once its start arrived, in milliseconds, unless
    /// the simulator is told otherwise: a frame cut short (its client died half-way) is dropped
    /// after that, so that the next client's frames are not taken for its missing bytes. 265
    /// bytes at 115200 baud take 23 ms.
    public static let defaultPartialFrameMilliseconds = 50

    /// The serving thread: reads the host's bytes, answers its frames, puts tags back when
    /// their reinsertion delay is over.
    func serve() {
        var chip = PN532SerialChip()
        var decoder = PN532FrameDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var lastBytes = ContinuousClock.now
        markLeftByFaultAtStart()
        while !lifecycle.stopRequested {
            reinsertIfDue()
            let timeout = decoder.holdsPartialFrame ? Int32(clamping: partialFrameMilliseconds) : waitMilliseconds()
            let ready = SystemCalls.waitReadable([terminal.master, wakeup.readEnd], milliseconds: timeout)
            if ready.contains(wakeup.readEnd) { wakeup.drain() }
            if ready.contains(terminal.master) {
                switch terminal.read(into: &buffer) {
                case .bytes(let count):
                    decoder.append(buffer.prefix(count))
                    lastBytes = .now
                    chip.wake()
                case .nothing:
                    break
                case .failed:
                    // No slave is open (cannot happen while the terminal holds its own): wait
                    // instead of spinning.
                    _ = SystemCalls.waitReadable([wakeup.readEnd], milliseconds: Self.idleMilliseconds)
                }
            } else if decoder.holdsPartialFrame,
                lastBytes.duration(to: .now) >= .milliseconds(partialFrameMilliseconds),
                let item = decoder.abandonPartialFrame()
            {
                handle(item, &chip)
            }
            while let item = decoder.next() { handle(item, &chip) }
            let poweredDown = chip.isPoweredDown
            control.withLock { $0.status.isPoweredDown = poweredDown }
        }
    }

    /// Answers one frame, or notes one dropped.
    private func handle(_ item: PN532FrameDecoder.Item, _ chip: inout PN532SerialChip) {
        guard case .frame(let frame) = item else {
            if case .rejected(let reason) = item {
                control.withLock { $0.status.droppedFrameCount += 1 }
                onEvent?(.frameDropped(reason.description))
            }
            return
        }
        control.withLock { control in
            control.status.frameCount += 1
            if frame == .nack { control.status.nackCount += 1 }
        }
        guard case .information(let information) = frame else {
            let reaction = reader.withField { chip.receive(frame, field: &$0) }
            for bytes in reaction.frames { _ = terminal.write(bytes) }
            return
        }
        // A new command: answers its host did not read are stale now.
        terminal.discardUnreadOutput()
        _ = terminal.write(PN532Frame.ackBytes)
        lifecycle.waitLatency(of: reader)
        let reaction = reader.withField { chip.execute(information, field: &$0) }
        record(reaction)
        save()
        for bytes in reaction.frames { _ = terminal.write(bytes) }
    }

    /// Counts the command and reports a refusal or the tags leaving.
    private func record(_ reaction: PN532SerialChip.Reaction) {
        let delay = reinsertAfterMilliseconds
        control.withLock { control in
            if let command = reaction.command { control.status.commandCounts[command, default: 0] += 1 }
            if reaction.refused { control.status.refusedCount += 1 }
            if reaction.tagsLeft { Self.noteTagsLeft(&control, delay: delay) }
        }
        if reaction.refused { onEvent?(.commandRefused(reaction.command)) }
        if reaction.tagsLeft { onEvent?(.leftByFault) }
    }

    /// The tags are out by the fault: back after the delay, if there is one.
    private static func noteTagsLeft(_ control: inout Control, delay: Int?) {
        control.status.isInserted = false
        control.reinsertAt = delay.map { ContinuousClock.now.advanced(by: .milliseconds($0)) }
    }

    /// A field armed with `remove-after=0` starts without tags.
    private func markLeftByFaultAtStart() {
        guard reader.withField({ $0.tagsHaveLeft }) else { return }
        let delay = reinsertAfterMilliseconds
        control.withLock { Self.noteTagsLeft(&$0, delay: delay) }
    }

    /// Puts the tags back when their reinsertion time has come.
    private func reinsertIfDue() {
        let due = control.withLock { control -> Bool in
            guard let deadline = control.reinsertAt else { return false }
            return deadline <= .now
        }
        guard due else { return }
        putBack()
        onEvent?(.inserted)
    }

    /// How long to wait for bytes: until the reinsertion time, at most ``idleMilliseconds``.
    private func waitMilliseconds() -> Int32 {
        guard let deadline = control.withLock({ $0.reinsertAt }) else { return Self.idleMilliseconds }
        return BridgeLifecycle.milliseconds(until: deadline, atMost: Self.idleMilliseconds)
    }
}
