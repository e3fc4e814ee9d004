import NDEF
import NFCSession
import TagMemory
import Testing

/// The error codes of the session and tag memory libraries are open sets: a
/// client's switch needs (and works with) `default`, and identifiers are stable.
@Suite struct ReaderErrorCodeTests {
    func retryable(_ code: NFCReaderError.Code) -> Bool {
        switch code {
        case .timeout, .tagConnectionLost: true
        default: false
        }
    }

    @Test("Switches with default over NFCReaderError and TagMemoryError codes")
    func extensible() {
        #expect(retryable(.timeout) && !retryable(.tagNotWritable))
        #expect(NFCReaderError.Code(rawValue: "tag-size-too-small") == .tagSizeTooSmall)
        #expect(!NFCReaderError.Code(rawValue: "tag-size-too-large").isKnown)
        let memory: String =
            switch TagMemoryError.Code.notFormatted {
            case .notFormatted: "format it"
            default: "other"
            }
        #expect(memory == "format it")
        #expect(TagMemoryError.Code.allCases.allSatisfy { TagMemoryError.Code(rawValue: $0.rawValue) == $0 })
    }
}
