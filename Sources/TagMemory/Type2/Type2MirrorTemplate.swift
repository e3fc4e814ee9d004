import NDEF

/// A message with the placeholders `{uid-mirror}` and `{counter-mirror}` in the words it is made
/// from (record specifications, a batch template): the message to write, with the mirror's
/// placeholder text (``Type2Configuration/MirrorMode/placeholder``) in their place, and the
/// ``Type2MirrorRequest`` saying where it lies in the encoded message.
///
/// The rules follow the chip (NTAG213/215/216 8.7), which has one mirror: `{uid-mirror}` alone,
/// `{counter-mirror}` alone, or both written as `{uid-mirror}x{counter-mirror}`, the one layout
/// the UID and counter mode shows. Each may appear once. The placeholder must end up in the
/// message as one run of ASCII characters (in a URI, a UTF-8 text, a MIME payload, also inside
/// a Smart Poster): the message is built twice, with two different fillers, and the bytes that
/// differ are where the mirror goes.
public struct Type2MirrorTemplate: Sendable, Hashable {
    /// The placeholder for the UID mirror.
    public static let uidPlaceholder = "{uid-mirror}"
    /// The placeholder for the NFC counter mirror.
    public static let counterPlaceholder = "{counter-mirror}"

    /// The mirror the words ask for (``Type2Configuration/MirrorMode/none`` when they hold no
    /// placeholder).
    public let mode: Type2Configuration.MirrorMode

    /// Reads the placeholders in `words`.
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` when a placeholder appears twice, or both
    ///   appear otherwise than as `{uid-mirror}x{counter-mirror}`.
    public init(words: [String]) throws(TagMemoryError) {
        let uids = words.reduce(0) { $0 + Self.occurrences(of: Self.uidPlaceholder, in: $1) }
        let counters = words.reduce(0) { $0 + Self.occurrences(of: Self.counterPlaceholder, in: $1) }
        let both = words.reduce(0) {
            $0 + Self.occurrences(of: Self.uidPlaceholder + "x" + Self.counterPlaceholder, in: $1)
        }
        guard uids <= 1, counters <= 1 else {
            throw TagMemoryError(
                .invalidArgument,
                "\(uids > 1 ? Self.uidPlaceholder : Self.counterPlaceholder) appears \(max(uids, counters)) times: "
                    + "the chip has one mirror (NTAG213/215/216 8.7)")
        }
        switch (uids, counters) {
        case (0, 0): mode = .none
        case (1, 0): mode = .uid
        case (0, 1): mode = .nfcCounter
        default:
            guard both == 1 else {
                throw TagMemoryError(
                    .invalidArgument,
                    "the UID and the counter mirror together must be written {uid-mirror}x{counter-mirror}: the chip "
                        + "shows them as one text, the UID, x and the counter (NTAG213/215/216 8.7.3)")
            }
            mode = .uidAndNFCCounter
        }
    }

    /// The rules without words: a template language of its own (a batch template) that finds
    /// the placeholders itself and fills them with ``message(counterPasswordProtected:build:)``.
    public init(mode: Type2Configuration.MirrorMode) {
        self.mode = mode
    }

    /// Builds the message from `words` with the placeholders filled, and finds where the mirror
    /// lies in its encoding.
    ///
    /// - Parameters:
    ///   - words: the words, holding the placeholders.
    ///   - counterPasswordProtected: whether the request sets NFC_CNT_PWD_PROT.
    ///   - build: makes the message from words (called twice when there is a placeholder).
    /// - Returns: the message to write (holding the mirror's placeholder text) and the request,
    ///   nil without placeholders.
    /// - Throws: what `build` throws; ``TagMemoryError/Code/malformedMessage`` when the message
    ///   cannot be encoded; ``TagMemoryError/Code/invalidArgument`` when the placeholder does not
    ///   end up as one run of ASCII characters.
    public func message(
        words: [String], counterPasswordProtected: Bool = false,
        build: ([String]) throws -> NFCNDEFMessage
    ) throws -> (message: NFCNDEFMessage, request: Type2MirrorRequest?) {
        guard mode != .none else { return (try build(words), nil) }
        return try message(counterPasswordProtected: counterPasswordProtected) { filler in
            try build(fill(words, with: filler))
        }
    }

    /// Builds the message twice, with `build` putting `filler` for every digit of the mirror
    /// (`0`, then `1`), and finds where the mirror lies in its encoding; see
    /// ``message(words:counterPasswordProtected:build:)``.
    public func message(
        counterPasswordProtected: Bool = false, build: (_ filler: Character) throws -> NFCNDEFMessage
    ) throws -> (message: NFCNDEFMessage, request: Type2MirrorRequest?) {
        guard mode != .none else { return (try build("0"), nil) }
        let message = try build("0")
        let other = try build("1")
        return (message, try request(message, other, counterPasswordProtected: counterPasswordProtected))
    }

    /// The request from the two builds: the bytes where they differ.
    private func request(
        _ message: NFCNDEFMessage, _ other: NFCNDEFMessage, counterPasswordProtected: Bool
    ) throws(TagMemoryError) -> Type2MirrorRequest {
        let first: [UInt8]
        let second: [UInt8]
        do {
            first = try message.encoded()
            second = try other.encoded()
        } catch {
            throw TagMemoryError(.malformedMessage, "the message cannot be encoded: \(error.reason)")
        }
        let differing = zip(first, second).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        let length = mode.textLength
        guard first.count == second.count, let start = differing.first, start + length <= first.count,
            Array(first[start..<(start + length)]) == mode.placeholder,
            differing.allSatisfy({ $0 < start + length })
        else {
            throw TagMemoryError(
                .invalidArgument,
                "the mirror placeholder is not stored as plain ASCII text in the message (a record encodes it): "
                    + "put it in a URI or a UTF-8 text")
        }
        return Type2MirrorRequest(
            mode: mode, messageOffset: start, isCounterPasswordProtected: counterPasswordProtected)
    }

    /// `words` with each placeholder replaced by its text, `filler` for every digit.
    private func fill(_ words: [String], with filler: Character) -> [String] {
        words.map { word in
            word.replacing(Self.uidPlaceholder, with: String(repeating: filler, count: 14))
                .replacing(Self.counterPlaceholder, with: String(repeating: filler, count: 6))
        }
    }

    private static func occurrences(of needle: String, in word: String) -> Int {
        word.ranges(of: needle).count
    }
}
