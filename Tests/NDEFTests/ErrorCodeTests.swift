import Foundation
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
}
