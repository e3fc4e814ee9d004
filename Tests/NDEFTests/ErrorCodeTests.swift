import Foundation
import HexText
import NDEF
import Testing

/// Error codes are an open set: clients switch with `default`, and codes keep their identifiers.
@Suite struct ErrorCodeTests {
    /// What a client writes: a switch that names some codes and has a `default`.
    func category(_ code: NDEFError.Code) -> String {
        switch code {
        case .truncated, .trailingBytes: "structure"
        case .invalidType: "type"
        default: "other"
        }
    }

    @Test("A switch with default; identifiers round-trip; an unknown identifier is kept, not known")
    func extensible() throws {
        #expect(category(.truncated) == "structure")
        #expect(category(.invalidType) == "type")
        #expect(category(.invalidPayload) == "other")
        for code in NDEFError.Code.allCases {
            #expect(NDEFError.Code(rawValue: code.rawValue) == code)
            #expect("\(code)" == code.rawValue)
        }
        #expect(Set(NDEFError.Code.allCases.map(\.rawValue)).count == NDEFError.Code.allCases.count)
        #expect(
            !NDEFError.Code(rawValue: "no-such-code").isKnown
                && NDEFError.Code(rawValue: "no-such-code").rawValue == "no-such-code")
        #expect(
            try JSONDecoder().decode(NDEFError.Code.self, from: Data(#""code-of-a-newer-version""#.utf8)).rawValue
                == "code-of-a-newer-version")
        #expect(NDEFError.Code.invalidType.rawValue == "invalid-type")
        let json = try JSONEncoder().encode([NDEFError.Code.tooManyRecords])
        #expect(String(decoding: json, as: UTF8.self) == #"["too-many-records"]"#)
        #expect(try JSONDecoder().decode([NDEFError.Code].self, from: json) == [.tooManyRecords])
    }

    @Test("Text that is not hex is caught with the package's other errors: invalid-value at its offset")
    func hexErrorIsAToolError() {
        do {
            _ = try Hex.decode("D1 01 0G")
            Issue.record("decoded")
        } catch let error as any NDEFToolError {
            #expect(error.code.rawValue == "invalid-value")
            #expect(error.byteOffset == 7)
            #expect(!error.mayBeHalfWritten)
        } catch {
            Issue.record("not an NDEFToolError: \(error)")
        }
        let converted = NDEFError(HexDecodingError(offset: 7, reason: "not a hex digit: 'G'"))
        #expect(converted.code == .invalidValue && converted.offset == 7)
    }
}
