import Foundation
import HexText
import NDEF
import TestSupport
import Testing

/// Inputs the fuzzer (`Scripts/fuzz`) found, each with what must hold for it. The inputs are
/// also fuzz seeds (`Fixtures/fuzz-seeds/`), so the fuzzer starts from them again.
@Suite("Fuzz findings stay fixed")
struct FuzzFindingTests {
    /// json target: a strictly decoded message with a TNF 7 record does not re-encode (the
    /// encoder refuses TNF 7), so the JSON round trip keeps TNF 7 and encoding says why.
    @Test("A reserved-TNF record decodes strictly, keeps TNF 7 in JSON, and does not encode")
    func reservedTypeNameFormatWithPayload() throws {
        let bytes = try fixtureHex("fuzz-seeds/reserved-tnf-with-payload.hex")
        let message = try NFCNDEFMessage(decoding: bytes)
        #expect(message.records.map(\.typeNameFormat) == [.absoluteURI, .reserved])
        #expect(message.records[1].payload == ArraySlice(0..<16))
        #expect(throws: NDEFError(.reservedTypeNameFormat, "")) { try message.encoded() }
        let json = try JSONEncoder().encode(message)
        #expect(try JSONDecoder().decode(NFCNDEFMessage.self, from: json) == message)
        #expect(String(decoding: json, as: UTF8.self).contains(#""tnf":7"#))
    }

    /// The bytes of a hex fixture under `Fixtures/` (`#` comments, whitespace between bytes).
    func fixtureHex(_ name: String) throws -> [UInt8] {
        let text = try String(contentsOfFile: PackagePaths.fixture(name), encoding: .utf8)
        return try Hex.decode(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined())
    }
}
