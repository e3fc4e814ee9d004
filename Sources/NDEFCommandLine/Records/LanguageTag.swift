/// The syntax of the language of a Text record: an IETF language tag (RFC 5646, 2.1), at most
/// 63 bytes (NFC Forum Text RTD 1.0, 3.2.1: six bits of the status byte hold its length).
///
/// Checked as RFC 5646 writes any tag: subtags of 1 to 8 ASCII letters or digits joined by
/// `-`, the first of 2 to 8 letters, or `x`/`i` for a private-use or grandfathered tag. Whether
/// a subtag is registered is not checked (a reader shows the text whatever the tag).
enum LanguageTag {
    /// The longest language tag a Text record can carry.
    static let maximumLength = 63

    /// Whether `text` is a well-formed language tag a Text record can carry.
    static func isWellFormed(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= maximumLength else { return false }
        let subtags = bytes.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        for subtag in subtags {
            guard (1...8).contains(subtag.count), subtag.allSatisfy(isLetterOrDigit) else { return false }
        }
        guard let first = subtags.first else { return false }
        if first.count == 1 {
            // A private-use (x-...) or grandfathered (i-...) tag, in either case.
            let singleton = (first.first ?? 0) | 0x20
            return (singleton == UInt8(ascii: "x") || singleton == UInt8(ascii: "i")) && subtags.count > 1
        }
        return first.count >= 2 && first.allSatisfy(isLetter)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }
}
