import NFCSession
import SimulatedReader
import Synchronization
import TagSimulator

extension VirtualPCDCard {
    /// How long the card waits before connecting again when nothing listens on the port.
    static let retryMilliseconds: Int32 = 100

    /// What the serving thread should do next.
    private enum Next {
        case stop
        case serve
        case waitOutside(milliseconds: Int32)
    }

    /// The serving thread: connects while the tag is in the field, answers vpcd's messages,
    /// and waits outside while the tag is out.
    func serve() {
        var connection: LoopbackConnection?
        var emulator = ContactlessReaderEmulator(profile: configuration.profile)
        markLeftByFaultAtStart()
        while true {
            switch next() {
            case .stop:
                if connection != nil { setConnected(false) }
                return
            case .waitOutside(let milliseconds):
                if connection != nil {
                    connection = nil
                    setConnected(false)
                    onEvent?(.removed)
                }
                lifecycle.pause(milliseconds: milliseconds)
            case .serve:
                if control.withLock({ $0.mustShowAbsence }) {
                    // Taken out and put back before this thread looked: out first.
                    if connection != nil {
                        connection = nil
                        setConnected(false)
                        onEvent?(.removed)
                    }
                    if showAbsence() {
                        control.withLock { $0.mustShowAbsence = false }
                    } else {
                        lifecycle.pause(milliseconds: Self.retryMilliseconds)
                    }
                    continue
                }
                guard let current = connection ?? connect(&emulator) else {
                    lifecycle.pause(milliseconds: Self.retryMilliseconds)
                    continue
                }
                connection = current
                switch current.receive(wakingOn: wakeup) {
                case .woken:
                    wakeup.drain()
                case .closed:
                    connection = nil
                    setConnected(false)
                    onEvent?(.readerLost)
                    lifecycle.pause(milliseconds: Self.retryMilliseconds)
                case .message(let payload):
                    if !handle(VirtualPCDMessage(payload: payload), on: current, &emulator) {
                        connection = nil
                        setConnected(false)
                    }
                }
            }
        }
    }

    /// The next step, from the requests and the reinsertion deadline.
    private func next() -> Next {
        if lifecycle.stopRequested { return .stop }
        let (inserted, deadline) = control.withLock { ($0.status.isInserted, $0.reinsertAt) }
        if inserted { return .serve }
        guard let deadline else { return .waitOutside(milliseconds: -1) }
        guard deadline > .now else {
            control.withLock { control in
                control.status.isInserted = true
                control.reinsertAt = nil
            }
            return .serve
        }
        return .waitOutside(milliseconds: BridgeLifecycle.milliseconds(until: deadline))
    }

    /// A field armed with `remove-after=0` starts without tags: the card starts outside.
    private func markLeftByFaultAtStart() {
        guard reader.withField({ $0.tagsHaveLeft }) else { return }
        tagsLeft()
    }

    /// The tags left by the fault: out of the field until the delay passes or ``insertTag()``.
    private func tagsLeft() {
        let delay = configuration.reinsertAfterMilliseconds
        control.withLock { control in
            control.status.isInserted = false
            control.reinsertAt = delay.map { ContinuousClock.now.advanced(by: .milliseconds($0)) }
            control.mustShowAbsence = control.status.isConnected
        }
    }

    /// Makes one of vpcd's presence checks fail, so that pcscd sees the card gone however late
    /// it runs them: connects, waits for vpcd's first message (the ATR request of its presence
    /// check, ifd-vpcd's `vicc_present`) and drops the connection unanswered, which vpcd takes
    /// for a card that left. Whether that happened (false: nothing listens on the port, or a
    /// request woke the thread first).
    private func showAbsence() -> Bool {
        guard let probe = try? LoopbackConnection(port: configuration.port) else { return false }
        switch probe.receive(wakingOn: wakeup) {
        case .message: return true
        case .woken:
            wakeup.drain()
            return false
        case .closed: return false
        }
    }

    private func setConnected(_ connected: Bool) {
        control.withLock { $0.status.isConnected = connected }
    }

    /// Connects to vpcd with the tags back in a fresh field; nil when the field holds no tag or
    /// nothing listens on the port.
    private func connect(_ emulator: inout ContactlessReaderEmulator) -> LoopbackConnection? {
        let hasTags = reader.withField { field -> Bool in
            if field.tagsHaveLeft { field.putBack() }
            return !field.tags.isEmpty
        }
        guard hasTags, let connection = try? LoopbackConnection(port: configuration.port) else { return nil }
        reader.withField { field in
            field.fieldOff()
            field.fieldOn()
        }
        emulator = ContactlessReaderEmulator(profile: configuration.profile)
        control.withLock { control in
            control.status.isConnected = true
            control.status.connectionCount += 1
        }
        onEvent?(.inserted)
        return connection
    }

    /// Answers one message; false when the connection is to be dropped (the tags left, or the
    /// answer could not be sent).
    private func handle(
        _ message: VirtualPCDMessage, on connection: LoopbackConnection, _ emulator: inout ContactlessReaderEmulator
    ) -> Bool {
        switch message {
        case .getATR:
            guard let atr = reader.withField({ emulator.answerToReset($0) }) else { return false }
            return connection.send(atr)
        case .powerOn, .reset:
            reader.withField { _ = emulator.powerOn(&$0) }
            return true
        case .powerOff:
            reader.withField { emulator.powerOff(&$0) }
            return true
        case .unknownControl:
            return true
        case .apdu(let apdu):
            control.withLock { $0.status.apduCount += 1 }
            lifecycle.waitLatency(of: reader)
            let outcome = reader.withField { emulator.respond(to: apdu, in: &$0) }
            if !emulator.lightCommands.isEmpty {
                let lights = emulator.lightCommands
                emulator.lightCommands = []
                control.withLock { $0.status.lightCommands += lights }
            }
            BridgeLifecycle.save(reader) { onEvent?(.saveFailed($0)) }
            switch outcome {
            case .response(let response):
                return connection.send(response)
            case .tagLeft:
                tagsLeft()
                onEvent?(.leftByFault)
                return false
            }
        }
    }
}
