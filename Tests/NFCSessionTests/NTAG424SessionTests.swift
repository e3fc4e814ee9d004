import NDEF
import NFCSession
import NTAG424
import SimulatedReader
import TagMemory
import TestSupport
import Testing

/// ``NFCNTAG424Tag`` on a simulated NTAG 424 DNA (`sim:ntag424`): the native commands with
/// secure messaging, key changes, SDM set up and read back as a phone reads it.
@Suite struct NTAG424SessionTests {
    static let zeroKey = [UInt8](repeating: 0, count: 16)
    static let uid: [UInt8] = [0x04, 0x51, 0x8D, 0xFA, 0xA9, 0x61, 0x80]

    /// A session on a factory `sim:ntag424` and its tag, the application selected.
    static func open() async throws -> (NFCTagReaderSession, NFCNTAG424Tag, SimulatedReader) {
        let reader = try await SimulatedReader(url: "sim:ntag424?uid=04518DFAA96180")
        let session = NFCTagReaderSession(reader: reader)
        guard let iso = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
            throw NFCReaderError(.tagNotSupported, "not a Type 4 tag")
        }
        let tag = NFCNTAG424Tag(iso)
        try await tag.selectApplication()
        return (session, tag, reader)
    }

    @Test("GetVersion plain and in MAC mode; GetCardUID in Full mode; Read_Sig both ways")
    func versionUIDSignature() async throws {
        let (session, tag, reader) = try await Self.open()
        let plain = try await tag.version()
        #expect(plain.count == 28 && Array(plain[14..<21]) == Self.uid)
        try await tag.authenticate(keyNumber: 0, key: Self.zeroKey)
        #expect(try await tag.version() == plain)
        #expect(try await tag.cardUID() == Self.uid)
        #expect(try await tag.readSignature().count == 56)
        #expect(await tag.session?.commandCounter == 3)
        await session.invalidate()
        await reader.close()
    }

    @Test("A wrong key is authentication-failed, sent once; GetCardUID without a session is refused")
    func wrongKey() async throws {
        let (session, tag, reader) = try await Self.open()
        var other = Self.zeroKey
        other[3] = 9
        let error = await #expect(throws: NFCReaderError.self) { try await tag.authenticate(keyNumber: 0, key: other) }
        #expect(error?.code == .authenticationFailed)
        let refused = await #expect(throws: NFCReaderError.self) { try await tag.cardUID() }
        #expect(refused?.code == .authenticationRequired)
        await session.invalidate()
        await reader.close()
    }

    @Test("ChangeKey of keys 2 and 3, then of key 0 (the session ends); Full-mode files under the new keys")
    func changeKeys() async throws {
        let (session, tag, reader) = try await Self.open()
        let key0 = [UInt8](repeating: 0xA0, count: 16)
        let key2 = [UInt8](repeating: 0xA2, count: 16)
        let key3 = [UInt8](repeating: 0xA3, count: 16)
        try await tag.authenticate(keyNumber: 0, key: Self.zeroKey)
        try await tag.changeKey(2, to: key2, version: 1, oldKey: Self.zeroKey)
        try await tag.changeKey(3, to: key3, version: 1, oldKey: Self.zeroKey)
        #expect(try await tag.keyVersion(3) == 1)
        try await tag.changeKey(0, to: key0, version: 2, oldKey: nil)
        #expect(await tag.session == nil)
        await #expect(throws: NFCReaderError.self) { try await tag.authenticate(keyNumber: 0, key: Self.zeroKey) }
        try await tag.authenticate(keyNumber: 0, key: key0)
        #expect(try await tag.keyVersion(0) == 2)
        // File 03: written in Full mode with key 3, read in Full mode with key 2.
        try await tag.authenticate(keyNumber: 3, key: key3)
        try await tag.writeData(file: 3, offset: 4, data: [1, 2, 3, 4, 5], mode: .full)
        try await tag.authenticate(keyNumber: 2, key: key2)
        #expect(try await tag.readData(file: 3, offset: 4, length: 5, mode: .full) == [1, 2, 3, 4, 5])
        await session.invalidate()
        await reader.close()
    }

    @Test("SDM set up with ChangeFileSettings: a phone's read gives a URL the SUN verifier accepts")
    func sdm() async throws {
        let (session, tag, reader) = try await Self.open()
        let url =
            "https://x.example/t?p=" + String(repeating: "0", count: 32) + "&m=" + String(repeating: "0", count: 16)
        let message = NFCNDEFMessage(records: [try URIRecord(uri: url).makeRecord()])
        try await tag.tag.writeNDEF(message)
        try await tag.selectApplication()
        try await tag.authenticate(keyNumber: 0, key: Self.zeroKey)
        let settings = NTAG424FileSettings(
            communicationMode: .plain, read: .free, write: .key(0), readWrite: .key(0), change: .key(0), size: 256,
            sdm: .init(
                mirrorsUID: true, mirrorsReadCounter: true, metaRead: .key(1), fileRead: .key(2), piccDataOffset: 21,
                macInputOffset: 56, macOffset: 56))
        try await tag.changeFileSettings(2, to: settings)
        #expect(try await tag.fileSettings(2) == settings)
        await tag.endSession()
        let read = try await tag.tag.readNDEF()
        let link = try URIRecord(parsing: try #require(read.records.first)).uri
        let query = link.split(separator: "?").last.map(String.init) ?? ""
        let values = Dictionary(
            uniqueKeysWithValues: query.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1)
                return (String(parts[0]), String(parts.count > 1 ? parts[1] : ""))
            })
        let verifier = try NTAG424SUNVerifier(metaReadKey: Self.zeroKey, fileReadKey: Self.zeroKey)
        let result = verifier.verify(
            piccData: hex(values["p"] ?? ""), mac: hex(values["m"] ?? ""), inputs: [("empty", [])])
        #expect(result.isValid && result.uid == Self.uid && result.counter == 1, "\(link)")
        await session.invalidate()
        await reader.close()
    }
}
