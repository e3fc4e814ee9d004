import NFCSession
import Synchronization

/// Where tag commands talk to the person at the reader: progress and notes on standard error,
/// following `--quiet` and `--verbose`, from the command's task and from the session's events.
///
/// Prompts such as "Hold a tag to the reader..." are for a person watching a terminal: they are
/// printed only when standard error is one. Notes that matter in a log too ("Several tags in the
/// field") are printed unless `--quiet`. On a terminal, warnings are yellow, failures red and
/// success green (``Style``: never with `NO_COLOR`), and long writes show their progress on one
/// line that updates.
final class TagConsole: @unchecked Sendable {
    // Unchecked: `io`'s writes happen only inside the lock of `screen`, so the session's event
    // handler and the command's task never write at the same time; the one read, the answer to
    // ``ask(_:)``, reads standard input only, on a thread of its own while the command waits for it.
    private let io: any CommandIO
    /// What standard error shows and what the session reported, with the text each change writes:
    /// one lock for both, held while the text is written.
    private let screen = Mutex(ConsoleScreen())

    /// Whether progress messages are left out.
    let isQuiet: Bool
    /// Whether each tag command is shown.
    let isVerbose: Bool
    /// Whether standard error is a terminal.
    let isTerminal: Bool
    /// Whether a person can answer a question: standard input and standard error are terminals.
    let isInteractive: Bool
    /// Colour for messages.
    let style: Style

    /// A console over `io` with the shared options' settings.
    init(io: any CommandIO, settings: TagSettings) {
        self.io = io
        isQuiet = settings.isQuiet
        isVerbose = settings.isVerbose
        isTerminal = io.isTerminal(.error)
        isInteractive = io.isTerminal(.input) && io.isTerminal(.error)
        style = Style(io: io)
    }

    /// Writes `text` and a line break on standard error, whatever the options (after ending a
    /// progress line).
    func write(_ text: String) {
        screen.withLock { io.writeError($0.line(text)) }
    }

    /// Shows `text` as the progress line: on a terminal only, not with `--quiet`, replacing the
    /// progress shown before (carriage return, then ECMA-48 EL to clear the rest of the line).
    func progress(_ text: String) {
        guard isTerminal && !isQuiet && !isVerbose else { return }
        screen.withLock { io.writeError($0.progress(text)) }
    }

    /// Ends the progress line, if one is shown.
    func endProgress() {
        screen.withLock { io.writeError($0.endProgress()) }
    }

    /// A warning worth a line in a log too, yellow on a terminal; left out with `--quiet`.
    func warn(_ text: String) {
        note(style.warning(text))
    }

    /// The end of a command that succeeded, for the person at the reader: green, on a terminal.
    func done(_ text: String) {
        prompt(style.success(text))
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
    /// The answer is read on a thread of its own, never one of the cooperative pool's.
    func ask(_ question: String) async -> String? {
        guard isInteractive else { return nil }
        screen.withLock { io.writeError($0.question(question)) }
        return await io.typedLine()
    }

    /// `Hold a tag to the reader (NAME)...`, or without the name when it is not known.
    static func holdPrompt(readerName: String?) -> String {
        guard let readerName, !readerName.isEmpty else { return "Hold a tag to the reader..." }
        return "Hold a tag to the reader (\(readerName))..."
    }

    /// The most tags the session saw in the field at once while waiting.
    var tagsSeenAtOnce: Int { screen.withLock { $0.tagsSeenAtOnce } }

    /// Shows a session event.
    func show(_ event: NFCSessionEvent) {
        switch event {
        case .began(let name):
            screen.withLock { $0.readerName = name }
            trace("Using reader \(name)")
        case .waitingForTag:
            if let text = screen.withLock({ $0.waitingPrompt() }) { prompt(text) }
        case .multipleTagsFound(let count):
            screen.withLock { $0.tagsSeen(count) }
            warn("Several tags in the field: remove all but one.")
        case .tagDetected, .tagRemoved:
            trace(event.description)
        case .tagNotSupported:
            warn(event.description + "; waiting for another tag.")
        case .reconnectStarted:
            warn(event.description)
        case .reconnectSucceeded:
            note(style.success(event.description))
        case .reconnectFailed:
            note(style.error(event.description))
        case .invalidated:
            break
        }
    }
}
