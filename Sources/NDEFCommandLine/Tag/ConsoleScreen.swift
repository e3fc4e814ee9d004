/// What a tag command's standard error shows and what the session reported, as one value: each
/// change returns the text to write, so that ``TagConsole`` writes it under the same lock and a
/// progress line is always ended before anything else is written.
///
/// No I/O: tests drive it step by step.
struct ConsoleScreen: Sendable, Hashable {
    /// Whether a progress line is shown (written without its line break).
    private(set) var progressShown = false
    /// Whether the "Hold a tag" prompt was shown.
    private(set) var waitingShown = false
    /// The reader the session began on.
    var readerName: String?
    /// The most tags the session saw in the field at once.
    private(set) var tagsSeenAtOnce = 0

    /// A line: after the progress line's break, if one is shown.
    mutating func line(_ text: String) -> String {
        endProgress() + text + "\n"
    }

    /// The progress line, replacing the one shown before (carriage return, then ECMA-48 EL to
    /// clear the rest of the line).
    mutating func progress(_ text: String) -> String {
        progressShown = true
        return "\r" + text + "\u{1B}[K"
    }

    /// A line break when a progress line is shown (it is then done), else nothing.
    mutating func endProgress() -> String {
        defer { progressShown = false }
        return progressShown ? "\n" : ""
    }

    /// A question, on a line of its own: the answer is typed after it.
    mutating func question(_ text: String) -> String {
        endProgress() + text
    }

    /// The session waits for a tag: `Hold a tag to the reader (NAME)...` the first time, nil
    /// after that (the prompt is shown once).
    mutating func waitingPrompt() -> String? {
        guard !waitingShown else { return nil }
        waitingShown = true
        return TagConsole.holdPrompt(readerName: readerName)
    }

    /// The session saw `count` tags in the field at once.
    mutating func tagsSeen(_ count: Int) {
        tagsSeenAtOnce = max(tagsSeenAtOnce, count)
    }
}
