import TagInspection

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
