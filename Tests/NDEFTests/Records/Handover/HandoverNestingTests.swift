import Foundation
import NDEF
import Testing

/// Records nested in the extra records of handover records count against the nesting limit of
/// ``NDEFDecodingOptions``, as smart posters nested in smart posters do.
@Suite("Handover nesting limits")
struct HandoverNestingTests {
    /// A Handover Select record whose only nested record is the previous one, `depth` times.
    static func selectChain(depth: Int) throws -> NFCNDEFPayload {
        var record = try HandoverSelectRecord(version: 0x12).makeRecord()
        for _ in 0..<depth {
            record = try HandoverSelectRecord(version: 0x12, extraRecords: [record]).makeRecord()
        }
        return record
    }

    /// Handover Request and Smart Poster records nested in each other, `depth` times.
    static func mixedChain(depth: Int) throws -> NFCNDEFPayload {
        var record = try SmartPosterRecord(uri: "x").makeRecord()
        for level in 0..<depth {
            record =
                level % 2 == 0
                ? try HandoverRequestRecord(collisionResolution: 1, extraRecords: [record]).makeRecord()
                : try SmartPosterRecord(uri: "x", extraRecords: [record]).makeRecord()
        }
        return record
    }

    @Test func selectChainsWithinTheLimitAreRead() throws {
        // The default limit is 4 nested messages; the innermost select (version only) has none,
        // so a chain of 5 selects uses them all.
        let fits = try Self.selectChain(depth: 4)
        #expect(try HandoverSelectRecord(parsing: fits).extraRecords.count == 1)
        #expect(throws: NDEFError(.nestingTooDeep, "")) {
            try HandoverSelectRecord(parsing: try Self.selectChain(depth: 5))
        }
        #expect(throws: NDEFError(.nestingTooDeep, "")) {
            try HandoverSelectRecord(parsing: fits, options: NDEFDecodingOptions(maximumNestingDepth: 3))
        }
    }

    @Test func mixedChainsCountEveryLevel() throws {
        #expect(try HandoverRequestRecord(parsing: try Self.mixedChain(depth: 3)).extraRecords.count == 1)
        #expect(throws: NDEFError(.nestingTooDeep, "")) {
            try HandoverRequestRecord(parsing: try Self.mixedChain(depth: 5))
        }
        #expect(throws: NDEFError(.nestingTooDeep, "")) {
            try SmartPosterRecord(parsing: try Self.mixedChain(depth: 4))
        }
    }

    @Test func theLimitErrorPointsIntoThePayload() throws {
        let deep = try Self.selectChain(depth: 6)
        let error = ndefError { _ = try HandoverSelectRecord(parsing: deep) }
        #expect(error?.code == .nestingTooDeep)
        let offset = try #require(error?.offset)
        #expect(offset > 0 && offset < deep.payload.count)
    }

    @Test func deepChainsGiveAJSONErrorInsteadOfRecursing() throws {
        // Thousands of levels used to be read one level at a time while encoding JSON, one stack
        // frame chain per level, until the stack overflowed.
        for chain in [try Self.selectChain(depth: 20_000), try Self.mixedChain(depth: 20_000)] {
            let message = try NFCNDEFMessage(decoding: try NFCNDEFMessage(records: [chain]).encoded())
            let data = try JSONEncoder().encode(message)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let first = try #require((object["records"] as? [[String: Any]])?.first)
            #expect(first["value"] == nil)
            #expect((first["valueError"] as? String)?.contains("nesting-too-deep") == true)
        }
    }
}
