import NFCSession
import Synchronization
import TagInspection

/// Where tag commands talk to the person at the reader: progress and notes on standard error,
/// following `--quiet` and `--verbose`, from the command's task and from the session's events.
///
/// Prompts such as "Hold a tag to the reader..." are for a person watching a terminal: they are
/// printed only when standard error is one. Notes that matter in a log too ("Several tags in the
/// field") are printed unless `--quiet`. On a terminal, warnings are yellow, failures red and
/// success green (``Style``: never with `NO_COLOR`), and long writes show their progress on one
/// line that updates.
final class TagConsole: @unchecked Sendable {
    // Unchecked: `io`'s writes happen only inside `lock`, so the session's event handler and
    // the command's task never write at the same time; the one read, the answer to ``ask(_:)``,
    // reads standard input only, on a thread of its own while the command waits for it.
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
    /// Colour for messages.
    let style: Style

    /// What the session reported last, for the message of a timeout.
    struct State {
        var tagsInField = 0
        var waitingShown = false
        var readerName: String?
        var progressShown = false
    }

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
        lock.withLock { _ in
            io.writeError(endingProgress() + text + "\n")
        }
    }

    /// Shows `text` as the progress line: on a terminal only, not with `--quiet`, replacing the
    /// progress shown before (carriage return, then ECMA-48 EL to clear the rest of the line).
    func progress(_ text: String) {
        guard isTerminal && !isQuiet && !isVerbose else { return }
        lock.withLock { _ in
            state.withLock { $0.progressShown = true }
            io.writeError("\r" + text + "\u{1B}[K")
        }
    }

    /// Ends the progress line, if one is shown.
    func endProgress() {
        lock.withLock { _ in io.writeError(endingProgress()) }
    }

    /// A line break when a progress line is shown (it is then done).
    private func endingProgress() -> String {
        state.withLock { state in
            defer { state.progressShown = false }
            return state.progressShown ? "\n" : ""
        }
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
        lock.withLock { _ in io.writeError(question) }
        return await io.typedLine()
    }

    /// `Hold a tag to the reader (NAME)...`, or without the name when it is not known.
    static func holdPrompt(readerName: String?) -> String {
        guard let readerName, !readerName.isEmpty else { return "Hold a tag to the reader..." }
        return "Hold a tag to the reader (\(readerName))..."
    }

    /// The most tags the session saw in the field at once while waiting.
    var tagsSeenAtOnce: Int { state.withLock { $0.tagsInField } }

    /// Shows a session event.
    func show(_ event: NFCSessionEvent) {
        switch event {
        case .began(let name):
            state.withLock { $0.readerName = name }
            trace("Using reader \(name)")
        case .waitingForTag:
            let (first, name) = state.withLock { state in
                defer { state.waitingShown = true }
                return (!state.waitingShown, state.readerName)
            }
            if first { prompt(Self.holdPrompt(readerName: name)) }
        case .multipleTagsFound(let count):
            state.withLock { $0.tagsInField = max($0.tagsInField, count) }
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

/// Colour for messages on a terminal: errors red, success green, warnings yellow (ECMA-48
/// section 8.3.117, SGR 31, 32 and 33).
///
/// Colour is used only when the stream is a terminal, `TERM` is not `dumb`, and `NO_COLOR` is
/// not set to a non-empty value (no-color.org); otherwise the text is left as it is.
struct Style: Sendable, Hashable {
    /// Whether escape sequences are added.
    let isEnabled: Bool

    /// The style for `stream` of `io`.
    init(io: any CommandIO, stream: StandardStream = .error) {
        let noColor = io.environment("NO_COLOR").map { !$0.isEmpty } ?? false
        isEnabled = io.isTerminal(stream) && !noColor && io.environment("TERM") != "dumb"
    }

    /// A style that adds colour or not, whatever the streams are.
    init(enabled: Bool) {
        isEnabled = enabled
    }

    /// `text` in red.
    func error(_ text: String) -> String { paint(text, code: "31") }

    /// `text` in green.
    func success(_ text: String) -> String { paint(text, code: "32") }

    /// `text` in yellow.
    func warning(_ text: String) -> String { paint(text, code: "33") }

    /// `text` in bold.
    func bold(_ text: String) -> String { paint(text, code: "1") }

    /// `text` in cyan.
    func accent(_ text: String) -> String { paint(text, code: "36") }

    /// `text` dimmed.
    func faint(_ text: String) -> String { paint(text, code: "2") }

    /// A page map's lines in colour: the message's pages cyan, secrets dim, lock state yellow.
    func pageMap(_ map: PageMap) -> [String] {
        map.lines { text, kind in
            switch kind {
            case .plain: text
            case .message: accent(text)
            case .secret: faint(text)
            case .lock: warning(text)
            }
        }
    }

    private func paint(_ text: String, code: String) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        return "\u{1B}[" + code + "m" + text + "\u{1B}[0m"
    }
}
