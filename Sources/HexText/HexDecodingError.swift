/// Text that is not hex: where and why.
///
/// The NDEF module makes it an `NDEFToolError` with the code `invalid-value`, so one `catch`
/// handles it with the package's other errors.
public struct HexDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offset, in UTF-8 bytes of the text, of the character that is not a hex digit, or of
    /// a final lone digit.
    public let offset: Int
    /// What is wrong: `not a hex digit: 'g'`, `odd number of hex digits`.
    public let reason: String

    /// An error at `offset` of the text.
    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// A character that is not a hex digit; printable ASCII is shown as it is, any other byte as
    /// its value, so that the message never carries control characters or broken UTF-8 to a
    /// terminal.
    init(notADigit char: UInt8, at offset: Int) {
        let shown =
            (0x21...0x7E).contains(char) ? "'\(String(decoding: [char], as: UTF8.self))'" : "byte \(Hex.byte(char))h"
        self.init(offset: offset, reason: "not a hex digit: \(shown)")
    }

    /// `at byte 3: not a hex digit: 'g'`.
    public var description: String { "at byte \(offset): \(reason)" }
}
