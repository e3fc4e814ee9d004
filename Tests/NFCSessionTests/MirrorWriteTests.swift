import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// Writes with the NTAG213/215/216 UID and NFC counter mirror (datasheet 8.7), on simulated tags
/// whose mirror follows the datasheet: the commands, their order, and what readers see.
@Suite("Writing with the UID and NFC counter mirror")
struct MirrorWriteTests {
    static let uri = "https://x.example/t?m={uid-mirror}x{counter-mirror}"

    /// The message of ``uri`` with the placeholder text, and its request.
    static func mirrored(_ uri: String = uri, protected: Bool = false) throws -> (NFCNDEFMessage, Type2MirrorRequest) {
        let made = try Type2MirrorTemplate(words: [uri]).message(words: [uri], counterPasswordProtected: protected) {
            NFCNDEFMessage(records: [try URIRecord(uri: $0[0]).makeRecord()])
        }
        return (made.message, try #require(made.request))
    }

    @Test("8.7: the mirror adds CFG1, CFG0 and one read of them to the plain write, after the message is verified")
    func commandsOverPlainWrite() async throws {
        let (message, request) = try Self.mirrored()
        let plainReader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, plainTag) = try await openTag(plainReader)
        try await plainTag.writeNDEF(message)

        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        try await tag.writeNDEF(message, mirror: request)
        let frames = reader.log.map(\.frame)
        #expect(reader.log.count == plainReader.log.count + 3)
        #expect(reader.count(of: .write) == plainReader.count(of: .write) + 2)
        #expect(Array(frames.dropLast(3)) == plainReader.log.map(\.frame))
        // D1 01 24 55 04 "x.example/t?m=" puts the placeholder at message byte 19, byte 16 + 2 + 19 = 37:
        // page 9 byte 1. CFG0 = MIRROR_CONF 11b, MIRROR_BYTE 01b, STRG_MOD_EN 1: D4h.
        #expect(
            Array(frames.suffix(3)) == [
                [0xA2, 0x84, 0x10, 0x00, 0x00, 0x00], [0xA2, 0x83, 0xD4, 0x00, 0x09, 0xFF], [0x3A, 0x83, 0x84],
            ])
        #expect(await tag.lastWrittenMirror == Type2Configuration.Mirror(mode: .uidAndNFCCounter, byte: 1, page: 9))

        // What a phone sees now: the UID in upper-case hex, x, the counter (counted at the read-back).
        let shown = try await tag.readNDEF()
        let link = try URIRecord(parsing: try #require(shown.records.first)).uri
        #expect(link == "https://x.example/t?m=04517CA24B3580x000001")
        // Memory keeps the placeholder.
        #expect(stored(reader.type2Tag).message == message)
    }

    @Test("Writing the same message and mirror again sends no WRITE")
    func again() async throws {
        let (message, request) = try Self.mirrored()
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        try await tag.writeNDEF(message, mirror: request)
        reader.clearLog()
        try await tag.writeNDEF(message, mirror: request)
        #expect(reader.count(of: .write) == 0, "\(reader.log.map(\.frame))")
    }

    @Test("A plain write over a mirrored tag turns the mirror off first, then writes; readers see the message")
    func plainWriteOverMirror() async throws {
        let (message, request) = try Self.mirrored()
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        try await tag.writeNDEF(message, mirror: request)
        reader.clearLog()
        let plain = uriMessage(length: 60)
        try await tag.writeNDEF(plain)
        let writes = reader.log.filter { $0.kind == .write }.map(\.frame)
        #expect(writes.first == [0xA2, 0x83, 0x04, 0x00, 0x00, 0xFF])
        #expect(try await tag.readNDEF() == plain)
        #expect(await tag.lastWrittenMirror == nil)
    }

    @Test("Another message with the mirror elsewhere: mirror off, message, mirror on at the new place")
    func moveMirror() async throws {
        let (first, firstRequest) = try Self.mirrored()
        let (second, secondRequest) = try Self.mirrored("https://x.example/longer/path/t?u={uid-mirror}")
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        try await tag.writeNDEF(first, mirror: firstRequest)
        reader.clearLog()
        try await tag.writeNDEF(second, mirror: secondRequest)
        let writes = reader.log.filter { $0.kind == .write }.map(\.frame)
        #expect(writes.first == [0xA2, 0x83, 0x04, 0x00, 0x00, 0xFF])
        #expect(writes.last?.prefix(2) == [0xA2, 0x83])
        #expect(stored(reader.type2Tag).message == second)
        let link = try URIRecord(parsing: try #require(try await tag.readNDEF().records.first)).uri
        #expect(link == "https://x.example/longer/path/t?u=04517CA24B3580")
    }

    @Test("8.5.7: CFGLCK on a mirrored tag: a plain write is refused before any WRITE")
    func configurationLocked() async throws {
        let (message, request) = try Self.mirrored()
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        try await tag.writeNDEF(message, mirror: request)
        _ = try await tag.sendMiFareCommand([0xA2, 0x84, 0x50, 0x00, 0x00, 0x00])
        reader.clearLog()
        let error = await caught { try await tag.writeNDEF(uriMessage(length: 30)) }
        #expect(error?.code == .tagNotWritable, "\(String(describing: error))")
        #expect(reader.count(of: .write) == 0)
    }

    @Test("A chip without the mirror is refused before any command")
    func unsupportedChip() async throws {
        let (message, request) = try Self.mirrored()
        let reader = makeReader([SimulatedType2Tag(chip: .mifareUltralightEV1MF0UL21)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        let error = await caught { try await tag.writeNDEF(message, mirror: request) }
        #expect(error?.code == .unsupportedFeature)
        #expect(reader.log.isEmpty)
    }

    @Test("The lock code stays the same when the counter went up between two taps")
    func lockCodeIgnoresCounter() async throws {
        let (message, request) = try Self.mirrored()
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (session, tag) = try await openTag(reader)
        try await tag.writeNDEF(message, mirror: request)
        let before = try await tag.prepareLock().code
        await session.invalidate()
        // A new activation: the counter goes up at its first read.
        let taken = try #require(reader.remove(uid: SimulatedType2Tag.defaultUID)?.type2Tag)
        reader.insert(taken)
        let (_, again) = try await openTag(reader)
        let seen = try URIRecord(parsing: try #require(try await again.readNDEF().records.first)).uri
        #expect(seen.hasSuffix("x000002"), "\(seen)")
        #expect(try await again.prepareLock().code == before)
    }
}

/// The example of SafeWrites.md's "Tags that show their UID and tap counter", as printed there.
@Suite("SafeWrites.md: the mirror example")
struct MirrorDocumentationExampleTests {
    @Test("The example writes the mirrored URI; a read shows the UID and the counter")
    func example() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        // Example begin
        let uri = "https://x.example/t?m={uid-mirror}x{counter-mirror}"
        let mirrored = try Type2MirrorTemplate(words: [uri]).message(words: [uri]) { words in
            NFCNDEFMessage(records: [try URIRecord(uri: words[0]).makeRecord()])
        }
        try await tag.writeNDEF(mirrored.message, mirror: mirrored.request)
        // A phone reads https://x.example/t?m=04517CA24B3580x000001: the UID, x, the counter.
        let seen = try await tag.readNDEF()
        // Example end
        let link = try URIRecord(parsing: try #require(seen.records.first)).uri
        #expect(link == "https://x.example/t?m=04517CA24B3580x000001")
    }
}
