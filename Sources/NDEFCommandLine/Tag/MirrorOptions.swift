import CommandLineKit
import NDEF
import RecordSpecifications
import TagMemory

/// `{uid-mirror}` and `{counter-mirror}` in the record specifications of `write` (and the
/// templates of `batch`), and `--counter-password-protected`: the NTAG213/215/216 ASCII mirror
/// (datasheet 8.7) set up by the write.
enum MirrorOptions {
    static let counterPasswordProtected = OptionSpec.flag(
        "counter-password-protected",
        help: "With {counter-mirror}: set NFC_CNT_PWD_PROT, so that the counter shows and READ_CNT answers only "
            + "after PWD_AUTH (NTAG213/215/216 8.5.7).")

    /// The message of record specifications `tokens` and the mirror its placeholders ask for.
    ///
    /// - Parameter build: makes the records from tokens (called twice when there is a placeholder,
    ///   with two different fillers, to find where the placeholder lies in the encoding).
    static func message(
        tokens: [CapturedToken], values: ParsedValues,
        build: ([CapturedToken]) throws(CommandLineError) -> NFCNDEFMessage
    ) throws(CommandLineError) -> (message: NFCNDEFMessage, mirror: Type2MirrorRequest?) {
        let texts = tokens.compactMap { token -> String? in
            switch token {
            case .word(let text): text
            case .option(_, let value): value
            }
        }
        let template: Type2MirrorTemplate
        do {
            template = try Type2MirrorTemplate(words: texts)
        } catch {
            throw .usage(error.reason)
        }
        let protects = values.flag(counterPasswordProtected.long)
        if protects && !template.mode.includesCounter {
            throw .usage("--counter-password-protected goes with {counter-mirror} in the message")
        }
        do {
            let built = try template.message(words: texts, counterPasswordProtected: protects) { filled in
                try build(rebuilt(tokens, texts: filled))
            }
            return (built.message, built.request)
        } catch let error as CommandLineError {
            throw error
        } catch let error as TagMemoryError {
            throw .usage(error.reason)
        } catch {
            throw .usage("\(error)")
        }
    }

    /// `tokens` with their texts (words and option values, in order) replaced by `texts`.
    private static func rebuilt(_ tokens: [CapturedToken], texts: [String]) -> [CapturedToken] {
        var remaining = texts[...]
        return tokens.map { token in
            switch token {
            case .word:
                return .word(remaining.popFirst() ?? "")
            case .option(let name, let value):
                return .option(name, value: value == nil ? nil : remaining.popFirst())
            }
        }
    }

    /// The text lines `write` prints about the mirror it set up.
    static func lines(_ mirror: Type2Configuration.Mirror?, request: Type2MirrorRequest?) -> [String] {
        guard let mirror, let request else { return [] }
        var line =
            "Mirror: \(mirror.mode.name) at page \(mirror.page) byte \(mirror.byte) (\(mirror.mode.textLength) "
            + "characters): each read shows "
        switch mirror.mode {
        case .uid: line += "the tag's UID there"
        case .nfcCounter: line += "the NFC counter there, one more on each tap"
        case .uidAndNFCCounter: line += "the tag's UID and the NFC counter there, one more on each tap"
        case .none: return []
        }
        if request.isCounterPasswordProtected { line += " (the counter only after PWD_AUTH)" }
        return [line]
    }
}

/// The mirror of a write in JSON: `{"kind": "uid" | "counter" | "uidAndCounter", "page": 9,
/// "byte": 2, "counterPasswordProtected": false}`.
struct MirrorJSON: Encodable, Sendable {
    var kind: String
    var page: Int
    var byte: Int
    var counterPasswordProtected: Bool

    init?(_ mirror: Type2Configuration.Mirror?, counterPasswordProtected: Bool) {
        guard let mirror, let kind = Self.kind(mirror.mode) else { return nil }
        self.kind = kind
        self.page = mirror.page
        self.byte = mirror.byte
        self.counterPasswordProtected = counterPasswordProtected
    }

    /// The JSON name of a mirror mode; nil for none.
    static func kind(_ mode: Type2Configuration.MirrorMode) -> String? {
        switch mode {
        case .none: nil
        case .uid: "uid"
        case .nfcCounter: "counter"
        case .uidAndNFCCounter: "uidAndCounter"
        }
    }
}
