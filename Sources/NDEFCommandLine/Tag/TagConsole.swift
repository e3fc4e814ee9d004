import NFCSession
import Synchronization

/// Where tag commands talk to the person at the reader: progress and notes on standard error,
/// following `--quiet` and `--verbose`, from the command's task and from the session's events.
///
/// Prompts such as "Hold a tag to the reader..." are for a person watching a terminal: they are
/// printed only when standard error is one. Notes that matter in a log too ("Several tags in the
/// field") are printed unless `--quiet`. No colour is used.
final class TagConsole: @unchecked Sendable {
    // Unchecked: `io` is used only inside `lock`, so the session's event handler and the
    // command's task never write at the same time.
    private let io: any CommandIO
    private let lock = Mutex(())
    private let state = Mutex(State())

    /// Whether progress messages are left out.
    let isQuiet: Bool
    /// Whether each tag command is shown.
    let isVerbose: Bool
    /// Whether standard error is a terminal.
    let isTerminal: Bool
    /// Whether a person can answer a question: standard input and standard error are terminals.
    let isInteractive: Bool

    /// What the session reported last, for the message of a timeout.
    struct State {
        var tagsInField = 0
        var waitingShown = false
    }

    /// A console over `io` with the shared options' settings.
    init(io: any CommandIO, settings: TagSettings) {
        self.io = io
        isQuiet = settings.isQuiet
        isVerbose = settings.isVerbose
        isTerminal = io.isTerminal(.error)
        isInteractive = io.isTerminal(.input) && io.isTerminal(.error)
    }

    /// Writes `text` and a line break on standard error, whatever the options.
    func write(_ text: String) {
        lock.withLock { _ in io.writeError(text + "\n") }
    }

    /// A note worth a line in a log too; left out with `--quiet`.
    func note(_ text: String) {
        if !isQuiet { write(text) }
    }

    /// A prompt for a person watching: only on a terminal, and not with `--quiet`.
    func prompt(_ text: String) {
        if isTerminal && !isQuiet { write(text) }
    }

    /// A detail shown with `--verbose`.
    func trace(_ text: String) {
        if isVerbose { write(text) }
    }

    /// Asks a question on standard error and reads the answer line; nil when nobody can answer.
    func ask(_ question: String) -> String? {
        guard isInteractive else { return nil }
        return lock.withLock { _ in
            io.writeError(question)
            return io.readLine()
        }
    }

    /// The most tags the session saw in the field at once while waiting.
    var tagsSeenAtOnce: Int { state.withLock { $0.tagsInField } }

    /// Shows a session event.
    func show(_ event: NFCSessionEvent) {
        switch event {
        case .began(let name):
            trace("Using reader \(name)")
        case .waitingForTag:
            let first = state.withLock { state in
                defer { state.waitingShown = true }
                return !state.waitingShown
            }
            if first { prompt("Hold a tag to the reader...") }
        case .multipleTagsFound(let count):
            state.withLock { $0.tagsInField = max($0.tagsInField, count) }
            note("Several tags in the field: remove all but one.")
        case .tagDetected, .tagRemoved:
            trace(event.description)
        case .tagNotSupported:
            note(event.description + "; waiting for another tag.")
        case .reconnectStarted, .reconnectSucceeded, .reconnectFailed:
            note(event.description)
        case .invalidated:
            break
        }
    }
}
