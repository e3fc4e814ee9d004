import NDEF
import TestSupport
import Testing

/// One rule of NDEF 1.0 broken by a minimal message, and how each mode must react.
struct RuleViolation: CustomStringConvertible, Sendable {
    var name: String
    var bytes: [UInt8]
    var code: NDEFError.Code
    var offset: Int
    /// What lenient decoding recovers, as (TNF, payload) pairs.
    var recovered: [(NFCTypeNameFormat, [UInt8])]
    var description: String { name }
}

@Suite("Decoding rules (NDEF 1.0, 3.2-3.3), strict and lenient")
struct DecodingRuleTests {
    static let violations: [RuleViolation] = [
        RuleViolation(
            name: "first record lacks MB", bytes: hex("51 01 01 54 00"), code: .messageBeginMisplaced, offset: 0,
            recovered: [(.nfcWellKnown, [0])]),
        RuleViolation(
            name: "second record has MB", bytes: hex("91 01 01 54 00 d1 01 01 54 01"), code: .messageBeginMisplaced,
            offset: 5, recovered: [(.nfcWellKnown, [0]), (.nfcWellKnown, [1])]),
        RuleViolation(
            name: "last record lacks ME", bytes: hex("91 01 01 54 00 11 01 01 54 01"), code: .missingMessageEnd,
            offset: 10, recovered: [(.nfcWellKnown, [0]), (.nfcWellKnown, [1])]),
        RuleViolation(
            name: "bytes after ME", bytes: hex("d1 01 01 54 00 00 00"), code: .trailingBytes, offset: 5,
            recovered: [(.nfcWellKnown, [0])]),
        RuleViolation(
            name: "record after ME", bytes: hex("d1 01 01 54 00 51 01 01 54 01"), code: .trailingBytes, offset: 5,
            recovered: [(.nfcWellKnown, [0])]),
        RuleViolation(
            name: "TNF 0 with a payload", bytes: hex("d0 00 01 aa"), code: .emptyRecordNotEmpty, offset: 0,
            recovered: [(.unknown, [0xAA])]),
        RuleViolation(
            name: "TNF 0 with a type", bytes: hex("d0 01 00 41"), code: .emptyRecordNotEmpty, offset: 0,
            recovered: [(.empty, [])]),
        RuleViolation(
            name: "TNF 0 with an ID", bytes: hex("d8 00 00 01 41"), code: .emptyRecordNotEmpty, offset: 0,
            recovered: [(.unknown, [])]),
        RuleViolation(
            name: "TNF 0 with the chunk flag", bytes: hex("b0 00 00 56 00 03 010203"), code: .emptyRecordNotEmpty,
            offset: 0, recovered: [(.unknown, [1, 2, 3])]),
        RuleViolation(
            name: "TNF 0 with the chunk flag and an empty last chunk", bytes: hex("b0 00 00 56 00 00"),
            code: .emptyRecordNotEmpty, offset: 0, recovered: [(.unknown, [])]),
        RuleViolation(
            name: "TNF 5 with a type", bytes: hex("d5 01 01 41 aa"), code: .typeNotAllowed, offset: 0,
            recovered: [(.unknown, [0xAA])]),
        RuleViolation(
            name: "TNF 7 with a type (read as unknown)", bytes: hex("d7 01 01 41 aa"), code: .typeNotAllowed, offset: 0,
            recovered: [(.reserved, [0xAA])]),
        // NDEF 1.0, 3.2.6: the TYPE syntax each TNF requires; the offset is the TYPE field's.
        RuleViolation(
            name: "TNF 1 type starting with a symbol", bytes: hex("d1 02 01 2d 54 aa"), code: .invalidType, offset: 3,
            recovered: [(.nfcWellKnown, [0xAA])]),
        RuleViolation(
            name: "TNF 1 type with a space", bytes: hex("d1 02 01 54 20 aa"), code: .invalidType, offset: 3,
            recovered: [(.nfcWellKnown, [0xAA])]),
        RuleViolation(
            name: "TNF 2 type without a subtype", bytes: hex("d2 05 01") + Array("text/".utf8) + [0xAA],
            code: .invalidType, offset: 3, recovered: [(.media, [0xAA])]),
        RuleViolation(
            name: "TNF 2 type without a slash", bytes: hex("d2 04 01") + Array("text".utf8) + [0xAA],
            code: .invalidType, offset: 3, recovered: [(.media, [0xAA])]),
        RuleViolation(
            name: "TNF 3 relative reference", bytes: hex("d3 05 01") + Array("/path".utf8) + [0xAA],
            code: .invalidType, offset: 3, recovered: [(.absoluteURI, [0xAA])]),
        RuleViolation(
            name: "TNF 4 type without a domain", bytes: hex("d4 03 01") + Array(":ab".utf8) + [0xAA],
            code: .invalidType, offset: 3, recovered: [(.nfcExternal, [0xAA])]),
        RuleViolation(
            name: "TNF 4 type without a colon", bytes: hex("d4 03 01") + Array("abc".utf8) + [0xAA],
            code: .invalidType, offset: 3, recovered: [(.nfcExternal, [0xAA])]),
        RuleViolation(
            name: "non-ASCII byte in a TYPE", bytes: hex("d2 0b 01") + Array("text/pl\u{E4}in".utf8) + [0xAA],
            code: .invalidType, offset: 3, recovered: [(.media, [0xAA])]),
        RuleViolation(
            name: "a TYPE error in the second record", bytes: hex("91 01 00 54 51 01 00 2d"),
            code: .invalidType, offset: 7, recovered: [(.nfcWellKnown, []), (.nfcWellKnown, [])]),
        RuleViolation(
            name: "TNF 6 outside a chunk", bytes: hex("d6 00 01 aa"), code: .unexpectedUnchanged, offset: 0,
            recovered: [(.unknown, [0xAA])]),
        RuleViolation(
            name: "TNF 1 without a type", bytes: hex("d1 00 01 aa"), code: .missingType, offset: 0,
            recovered: [(.nfcWellKnown, [0xAA])]),
        RuleViolation(
            name: "TNF 2 without a type", bytes: hex("d2 00 00"), code: .missingType, offset: 0,
            recovered: [(.media, [])]),
        RuleViolation(
            name: "first chunk with TNF 6", bytes: hex("b6 00 01 aa 56 00 01 bb"), code: .unexpectedUnchanged,
            offset: 0, recovered: [(.unknown, [0xAA, 0xBB])]),
        RuleViolation(
            name: "middle chunk not TNF 6", bytes: hex("b5 00 01 aa 55 00 01 bb"), code: .chunkNotUnchanged,
            offset: 4, recovered: [(.unknown, [0xAA]), (.unknown, [0xBB])]),
        RuleViolation(
            name: "middle chunk with a type", bytes: hex("b5 00 01 aa 56 01 01 41 bb"), code: .typeNotAllowed,
            offset: 4, recovered: [(.unknown, [0xAA, 0xBB])]),
        RuleViolation(
            name: "middle chunk with an ID", bytes: hex("b5 00 01 aa 5e 00 01 01 31 bb"), code: .chunkWithIdentifier,
            offset: 4, recovered: [(.unknown, [0xAA, 0xBB])]),
        RuleViolation(
            name: "ME inside a chunked record", bytes: hex("b5 00 01 aa 76 00 01 bb"), code: .unterminatedChunk,
            offset: 4, recovered: [(.unknown, [0xAA, 0xBB])]),
        RuleViolation(
            name: "input ends inside a chunked record", bytes: hex("b5 00 01 aa 36 00 01 bb"), code: .missingMessageEnd,
            offset: 8, recovered: [(.unknown, [0xAA, 0xBB])]),
        RuleViolation(
            name: "header cut short", bytes: hex("91 01 01 54 00 11 01"), code: .truncated, offset: 5,
            recovered: [(.nfcWellKnown, [0])]),
        RuleViolation(name: "first header cut short", bytes: hex("d1 01"), code: .truncated, offset: 0, recovered: []),
        RuleViolation(
            name: "payload longer than the input", bytes: hex("91 01 09 54 00 51 01 01 54 01"), code: .truncated,
            offset: 0, recovered: []),
        RuleViolation(
            name: "second record truncated", bytes: hex("91 01 01 54 00 51 01 09 54 01"), code: .truncated,
            offset: 5, recovered: [(.nfcWellKnown, [0])]),
        RuleViolation(
            name: "long payload length past the input", bytes: hex("c1 01 ff ff ff ff 54"), code: .truncated, offset: 0,
            recovered: []),
    ]

    @Test("Strict decoding refuses each violation with its code and offset", arguments: violations)
    func strictRefuses(_ violation: RuleViolation) {
        #expect {
            _ = try NFCNDEFMessage(decoding: violation.bytes)
        } throws: { error in
            guard let error = error as? NDEFError else { return false }
            return error.code == violation.code && error.offset == violation.offset
        }
    }

    @Test("Lenient decoding recovers what it can and reports the violation", arguments: violations)
    func lenientRecovers(_ violation: RuleViolation) throws {
        if violation.recovered.isEmpty {
            #expect(throws: NDEFError(.truncated, "")) { try NFCNDEFMessage.recovering(from: violation.bytes) }
            return
        }
        let recovery = try NFCNDEFMessage.recovering(from: violation.bytes)
        #expect(!recovery.isClean)
        let got = recovery.message.records.map { ($0.typeNameFormat, Array($0.payload)) }
        #expect(got.map(\.0) == violation.recovered.map(\.0))
        #expect(got.map(\.1) == violation.recovered.map(\.1))
    }

    @Test("Empty input is an error in both modes")
    func emptyInput() {
        #expect(throws: NDEFError(.emptyInput, "")) { try NFCNDEFMessage(decoding: []) }
        #expect(throws: NDEFError(.emptyInput, "")) { try NFCNDEFMessage.recovering(from: []) }
    }

    @Test("TNF 7 (reserved) is read as unknown, per NDEF 1.0 3.2.6, but keeps TNF 7, which is not encoded again")
    func reservedFormat() throws {
        let message = try NFCNDEFMessage(decoding: hex("d7 00 02 abcd"))
        #expect(message.records.first?.typeNameFormat == .reserved)
        #expect(message.records.first?.payload == [0xAB, 0xCD])
        #expect(throws: NDEFError(.reservedTypeNameFormat, "")) { try message.encoded() }
        let recovery = try NFCNDEFMessage.recovering(from: hex("d7 00 02 abcd"))
        #expect(recovery.issues.map(\.code) == [.reservedTypeNameFormat])
    }

    @Test("The record count is a limit: strict throws it, lenient keeps the records before it")
    func recordCap() throws {
        var bytes: [UInt8] = []
        for index in 0..<10 {
            bytes += [(index == 0 ? 0x80 : 0) | (index == 9 ? 0x40 : 0) | 0x15, 0x00, 0x00]
        }
        #expect(try NFCNDEFMessage(decoding: bytes).records.count == 10)
        let options = NDEFDecodingOptions(maximumRecordCount: 9)
        let error = #expect(throws: NDEFError.self) { try NFCNDEFMessage(decoding: bytes, options: options) }
        #expect(error?.code == .tooManyRecords && error?.isLimit == true && error?.offset == 27)
        let recovery = try NFCNDEFMessage.recovering(from: bytes, options: options)
        #expect(recovery.message.records.count == 9)
        #expect(recovery.issues.map(\.code) == [.tooManyRecords])
        #expect(throws: NDEFError(.tooManyRecords, "")) {
            try NFCNDEFMessage.recovering(from: bytes, options: NDEFDecodingOptions(maximumRecordCount: 0))
        }
    }

    @Test("Nesting depth runs out")
    func nestingDepth() throws {
        let options = NDEFDecodingOptions(maximumNestingDepth: 1)
        let inner = try options.nested()
        #expect(inner.maximumNestingDepth == 0)
        #expect(throws: NDEFError(.nestingTooDeep, "")) { try inner.nested() }
    }
}
