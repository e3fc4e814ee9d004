import NFCSession
import Provisioning
import Synchronization
import TagMemory

/// What a batch shows the person at the station, on standard error: one line per tag (done,
/// refused, interrupted) and, on a terminal, a status line kept at the bottom that updates:
/// done / total, rate (tags per minute), ETA, each reader's state, and the last error.
/// Without a terminal the status line is left out; `-q` leaves out everything but errors,
/// `-v` adds each reader's state changes.
final class BatchStatus: @unchecked Sendable {
    // Unchecked: `io` is used only under `state`'s lock.
    private let io: any CommandIO
    private let state: Mutex<State>
    private let style: Style
    private let level: MessageLevel
    private let isTerminal: Bool
    private let width: Int

    /// What the status line shows.
    struct State {
        var total: Int
        var done: Int
        var doneThisRun = 0
        var start = ContinuousClock.now
        var stations: [String: ProvisioningStationState] = [:]
        var labels: [String: String] = [:]
        var order: [String] = []
        var lastError: String?
        var lineShown = false
        var lastDraw: ContinuousClock.Instant?
    }

    /// A status for a job of `total` rows, `done` of them done already, on `stations` (shown
    /// as r1, r2... in the status line).
    init(io: any CommandIO, level: MessageLevel, total: Int, done: Int, stations: [String]) {
        self.io = io
        self.level = level
        style = Style(io: io)
        isTerminal = io.isTerminal(.error)
        width = io.environment("COLUMNS").flatMap { Int($0) }.map { max(40, min($0, 400)) } ?? 80
        var initial = State(total: total, done: done)
        for (index, name) in stations.enumerated() {
            initial.labels[name] = "r\(index + 1)"
            initial.order.append(name)
        }
        state = Mutex(initial)
    }

    /// The legend of the labels: `r1 = pcsc:ACS ACR122U`, one per line.
    var legend: [String] {
        state.withLock { state in state.order.compactMap { name in state.labels[name].map { "\($0) = \(name)" } } }
    }

    /// Shows `event`.
    func handle(_ event: ProvisioningJobEvent) {
        state.withLock { state in
            switch event {
            case .stationState(let station, let stationState):
                state.stations[station] = stationState
                if case .stopped(let reason) = stationState {
                    line("\(label(station, state)): stopped: \(reason)", kind: .note, &state)
                } else if level.isVerbose {
                    line("\(label(station, state)): \(stationState)", kind: .detail, &state)
                }
            case .rowDone(let row, let uid, let station, let outcome):
                state.done += 1
                state.doneThisRun += 1
                line(
                    "Row \(row): tag \(UIDText.json(uid)) \(style.success("done")) (\(outcome)) at "
                        + "\(label(station, state)): remove the tag", kind: .note, &state)
            case .rowInterrupted(let row, let uid, let station, let reason, let canFinish):
                state.lastError = "row \(row): \(reason)"
                let next =
                    canFinish
                    ? "Bring this tag back to any reader of the job to finish row \(row)"
                    : "Row \(row) stays with this tag, not done (see the report)"
                line(
                    "Row \(row): tag \(UIDText.json(uid)) at \(label(station, state)): \(reason). " + next,
                    kind: .warning, &state)
            case .rowFailed(let row, let station, let reason):
                state.lastError = "row \(row): \(reason)"
                line("Row \(row) at \(label(station, state)) cannot be written: \(reason)", kind: .error, &state)
            case .tagRefused(let uid, let station, _, let doneRow?):
                line(
                    "Tag \(UIDText.json(uid)) at \(label(station, state)): already done in this job (row \(doneRow)), "
                        + "left as it is: take it away", kind: .note, &state)
            case .tagRefused(let uid, let station, let reason, nil):
                state.lastError = "tag \(UIDText.json(uid)): \(reason)"
                line(
                    "Tag \(UIDText.json(uid)) at \(label(station, state)) refused: \(reason): take it away",
                    kind: .warning, &state)
            case .readerError(let station, let reason):
                state.lastError = "\(label(station, state)): \(reason)"
                line("\(label(station, state)): \(reason)", kind: .warning, &state)
            case .session(let station, let sessionEvent):
                if case .reconnectFailed = sessionEvent {
                    state.lastError = "\(label(station, state)): \(sessionEvent)"
                }
                line("\(label(station, state)): \(sessionEvent)", kind: .note, &state)
            case .database(let station, let connectionEvent):
                let text: String
                switch connectionEvent {
                case .reconnectStarted(let reason): text = "database connection lost (\(reason)): reconnecting"
                case .reconnectSucceeded(let name): text = "database connection back (\(name))"
                case .reconnectFailed(let error):
                    text = "database connection given up: \(error.reason)"
                    state.lastError = "\(label(station, state)): \(text)"
                }
                line("\(label(station, state)): \(text)", kind: .note, &state)
            }
            draw(&state, force: false)
        }
    }

    /// Clears the status line, before the summary.
    func finish() {
        state.withLock { state in
            if state.lineShown { io.writeError("\r\u{1B}[K") }
            state.lineShown = false
        }
    }

    /// The rate in tags per minute and the time left, from this run's pace.
    static func pace(doneThisRun: Int, remaining: Int, elapsed: Duration) -> (perMinute: Double, eta: String) {
        let seconds = Self.seconds(elapsed)
        guard doneThisRun > 0, seconds > 0 else { return (0, "-") }
        let perMinute = Double(doneThisRun) * 60 / seconds
        let left = Int((Double(remaining) * seconds / Double(doneThisRun)).rounded())
        let eta = left >= 3600 ? "\(left / 3600)h\(pad((left % 3600) / 60))m" : "\(left / 60)m\(pad(left % 60))s"
        return (perMinute, eta)
    }

    /// `duration` in seconds.
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    private enum Kind { case note, warning, error, detail }

    private func label(_ station: String, _ state: State) -> String { state.labels[station] ?? station }

    /// Prints a line above the status line.
    private func line(_ text: String, kind: Kind, _ state: inout State) {
        switch kind {
        case .note: guard !level.isQuiet else { return }
        case .warning: guard !level.isQuiet else { return }
        case .detail: guard level.isVerbose else { return }
        case .error: break
        }
        let painted =
            switch kind {
            case .warning: style.warning(text)
            case .error: style.error(text)
            default: text
            }
        io.writeError((state.lineShown ? "\r\u{1B}[K" : "") + painted + "\n")
        state.lineShown = false
        draw(&state, force: true)
    }

    /// Redraws the status line on a terminal (at most every 100 ms unless `force`).
    private func draw(_ state: inout State, force: Bool) {
        guard isTerminal, !level.isQuiet else { return }
        let now = ContinuousClock.now
        if !force, state.lineShown, let last = state.lastDraw, last.duration(to: now) < .milliseconds(100) { return }
        let pace = Self.pace(
            doneThisRun: state.doneThisRun, remaining: state.total - state.done, elapsed: state.start.duration(to: now))
        var parts = ["\(state.done)/\(state.total) done", "\(Int(pace.perMinute.rounded()))/min", "ETA \(pace.eta)"]
        for name in state.order {
            parts.append("\(label(name, state)) \(state.stations[name]?.description ?? "starting")")
        }
        if let lastError = state.lastError { parts.append("last error: \(lastError)") }
        var text = parts.joined(separator: " | ")
        if text.count > width - 1 { text = String(text.prefix(width - 2)) + "~" }
        io.writeError("\r\u{1B}[K" + style.bold(text))
        state.lineShown = true
        state.lastDraw = now
    }
}
