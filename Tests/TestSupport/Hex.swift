import HexText
import NDEF
import Testing

/// Bytes from hex text written in a test (`Hex.decode` of HexText): pairs of hex digits, with
/// whitespace, `:` and `-` between them allowed.
///
/// A typo in a literal fails the test that wrote it (an issue at the caller's line) and gives
/// no bytes; it never stops the test run.
public func hex(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> [UInt8] {
    do {
        return try Hex.decode(text, allowSeparators: true)
    } catch {
        Issue.record(Comment(rawValue: "bad hex literal in test: \(error)"), sourceLocation: sourceLocation)
        return []
    }
}

/// `bytes` as hex text: upper case, `separator` between bytes (none by default).
public func hexText(_ bytes: some Sequence<UInt8>, separator: String = "") -> String {
    Hex.encode(bytes, uppercase: true, separator: separator)
}
