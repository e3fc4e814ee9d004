import Foundation
import HexText
import NDEF
import NFCSession
import SimulatedReader
import Synchronization
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// A supply with `file=DIR/` keeps its tags across processes, as real tags do: each change is in
/// DIR/UID.nfc before the command's answer comes back, and a new reader with the same URL loads
/// the tags from there.
@Suite("Simulated reader: a supply's tags survive the process")
struct SimulatedSupplyFileTests {
    /// The file of the supply tag `uid` in `directory`.
    static func fileName(_ uid: [UInt8], type4: Bool = false) -> String {
        Hex.encode(uid, uppercase: true) + (type4 ? ".t4t" : ".nfc")
    }

    /// Every page of `tag` (NTAG213/215/216 8.5: pages of 4 bytes, 0 to the chip's last).
    static func pages(_ tag: SimulatedType2Tag) -> [[UInt8]] {
        (0..<tag.chip.pageCount).map { tag.page($0) ?? [] }
    }

    /// Every page of the dump in `bytes`.
    static func pages(ofDump bytes: [UInt8]) throws -> [[UInt8]] {
        let dump = try TagDump(decoding: bytes)
        return (0..<dump.pageCount).map { dump.page($0).map(Array.init) ?? [] }
    }

    @Test("A process killed mid-write: a new reader with the same URL presents the tags as left, page by page")
    func survivesAbandonedReader() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:ntag215?supply=3&seed=11&file=\(directory.path)/"
        let uids = SimulatedTagSupply.uids(count: 3, seed: 11)
        let first = try await SimulatedReader(url: url)
        let session = NFCTagReaderSession(
            reader: first, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        // Tag 1: a whole message (T2T 1.1 6.4.3), then it is taken away.
        guard let tag = try await session.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        try await tag.writeNDEF(SimulatedTagSupplyTests.message(0))
        try await session.waitForRemoval(of: tag, timeout: .seconds(2))
        // Tag 2: part of a message, WRITE A2h by WRITE (NTAG213/215/216 10.4), then the process
        // "dies": the reader is abandoned without close().
        try await first.selectFirst()
        #expect(first.suppliedTagInField == uids[1])
        for page in UInt8(4)...9 {
            #expect(try await first.transceive([0xA2, page, page, 0xA0 + page, 0xB0 + page, 0xC0 + page]) == .ack)
        }
        let left = try #require(first.withField { $0.tag(uid: uids[1])?.type2Tag })
        let firstTag = try #require(first.suppliedTags.first?.type2Tag)
        #expect(try directory.contents() == [uids[0], uids[1]].map { Self.fileName($0) }.sorted())

        let second = try await SimulatedReader(url: url)
        // Tag 1 as written, page by page, read with READ 30h.
        try await second.selectFirst()
        #expect(second.suppliedTagInField == uids[0])
        for page in 0..<firstTag.chip.pageCount where page < 0x83 {
            #expect(try await second.read(UInt8(page)).prefix(4) == (firstTag.page(page) ?? [])[...], "page \(page)")
        }
        // Tag 2 as the last completed WRITE left it.
        let next = try #require(try await second.pollTargets().first)
        #expect(next.uid == uids[1])
        try await second.select(next)
        for page in 0..<0x83 {
            #expect(try await second.read(UInt8(page)).prefix(4) == (left.page(page) ?? [])[...], "page \(page)")
        }
        #expect(try await second.read(9).prefix(4) == hex("09 A9 B9 C9")[...])
        #expect(try await second.read(10).prefix(4) == hex("00 00 00 00")[...])
        // Tag 3 never went in: it is a factory tag, and has no file.
        try await second.selectFirst()
        let third = try #require(second.withField { $0.tags.first?.type2Tag })
        #expect(third.uid == uids[2])
        #expect(Self.pages(third) == Self.pages(SimulatedType2Tag(chip: .ntag215, uid: uids[2])))
        await second.close()
    }

    /// A reader that checks, after each command and before handing the answer on, that the file of
    /// the tag in the field holds the tag as it is.
    final class FileCheckingReader: NFCReaderDevice {
        let base: SimulatedReader
        let directory: TemporaryDirectory
        let mismatches = Mutex<[String]>([])
        let checks = Mutex(0)

        init(base: SimulatedReader, directory: TemporaryDirectory) {
            self.base = base
            self.directory = directory
        }

        var name: String { base.name }
        var capabilities: NFCReaderCapabilities { base.capabilities }

        func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] { try await base.pollTargets() }
        func select(_ target: NFCTargetInfo) async throws(NFCReaderError) { try await base.select(target) }
        func releaseTargets() async { await base.releaseTargets() }
        func close() async { await base.close() }
        func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] { try await base.sendAPDU(apdu) }

        func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
            let response = try await base.transceive(frame)
            check(after: frame)
            return response
        }

        private func check(after frame: [UInt8]) {
            checks.withLock { $0 += 1 }
            guard let uid = base.suppliedTagInField, let tag = base.withField({ $0.tag(uid: uid)?.type2Tag }) else {
                return
            }
            let expected = SimulatedSupplyFileTests.pages(tag)
            let name = SimulatedSupplyFileTests.fileName(uid)
            // No file yet: the tag must still be a factory tag.
            let factory = SimulatedSupplyFileTests.pages(SimulatedType2Tag(chip: tag.chip, uid: uid))
            let stored = (try? directory.read(name)).flatMap { try? SimulatedSupplyFileTests.pages(ofDump: $0) }
            if stored ?? factory != expected {
                let command = Hex.encode(frame, uppercase: true, separator: " ")
                mismatches.withLock { $0.append("after \(command): the file of \(name) is behind") }
            }
        }
    }

    @Test("Write-through: after every command of a batch the tag's file already holds the tag (T2T 1.1 6.4.3)")
    func fileIsCurrentAfterEachCommand() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let base = try await SimulatedReader(url: "sim:ntag213?supply=3&seed=4&file=\(directory.path)/")
        let reader = FileCheckingReader(base: base, directory: directory)
        let session = NFCTagReaderSession(
            reader: reader, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        for index in 0..<3 {
            guard let tag = try await session.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
                throw NFCReaderError(.tagNotSupported, "not Type 2")
            }
            try await tag.writeNDEF(SimulatedTagSupplyTests.message(index))
            try await tag.setPassword(
                Type2PasswordSettings(
                    password: hex("01 02 03 04"), passwordAcknowledge: hex("AA BB"), firstProtectedPage: 4))
            try await session.waitForRemoval(of: tag, timeout: .seconds(2))
        }
        await session.invalidate()
        #expect(reader.checks.withLock { $0 } > 30)
        #expect(reader.mismatches.withLock { $0 }.isEmpty)
        // No temporary file is left behind.
        #expect(try directory.contents().count == 3)
        // The passwords (PWD, PACK, AUTH0: NTAG213/215/216 8.8) are in the files.
        for uid in SimulatedTagSupply.uids(count: 3, seed: 4) {
            let pages = try Self.pages(ofDump: try directory.read(Self.fileName(uid)))
            #expect(pages[0x2B] == hex("01 02 03 04"))
            #expect(pages[0x2C].prefix(2) == hex("AA BB")[...])
            #expect(pages[0x29][3] == 4)
        }
        await base.close()
    }

    @Test("A second process writes on where the first stopped: the loaded tag takes resumeWrite (T2T 1.1 6.4.3)")
    func resumeInNextProcess() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let message = SimulatedTagSupplyTests.message(7)
        // Where the WRITEs start: a probe run of the same write, with the field's log.
        let probe = try await SimulatedReader(url: "sim:ntag215?supply=1")
        probe.withField { $0.isRecordingCommands = true }
        let probeSession = NFCTagReaderSession(reader: probe)
        guard let probeTag = try await probeSession.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        try await probeTag.writeNDEF(message)
        let log = probe.withField { $0.log }
        let firstWrite = try #require(log.firstIndex { $0.command == .type2(.write) })
        let writes = log.filter { $0.command == .type2(.write) }.count
        #expect(writes > 4)
        // The first process is gone after the write's third WRITE (unplugged for good: it cannot
        // even close).
        let url = "sim:ntag215?supply=1&file=\(directory.path)/"
        let first = try await SimulatedReader(url: "\(url)&unplug-after=\(firstWrite + 3)")
        let session = NFCTagReaderSession(
            reader: first, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        guard let tag = try await session.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        let error = await caughtError { try await tag.writeNDEF(message) }
        #expect(error?.code == .readerUnavailable)
        #expect(error?.mayBeHalfWritten == true)
        #expect(first.count(of: .write) == 3)
        let second = try await SimulatedReader(url: url)
        let againSession = NFCTagReaderSession(
            reader: second, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        guard let again = try await againSession.nextTag(timeout: .seconds(2)) as? NFCMiFareTag else {
            throw NFCReaderError(.tagNotSupported, "not Type 2")
        }
        let stored = try #require(second.withField { $0.tags.first?.type2Tag })
        #expect(stored.memory.message != message)
        try await again.resumeWrite(message)
        #expect(try await again.readNDEF() == message)
        // The pages the first process wrote are left out.
        #expect(second.count(of: .write) == writes - 3)
        await againSession.invalidate()
        await second.close()
    }

    @Test("sim:type4 supply: the NDEF file is in UID.t4t after each UPDATE BINARY and loads again (T4T 3.0 5.5.6)")
    func type4() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let url = "sim:type4?supply=2&seed=9&file=\(directory.path)/"
        let uids = SimulatedTagSupply.uids(count: 2, seed: 9)
        let first = try await SimulatedReader(url: url)
        let session = NFCTagReaderSession(
            reader: first, options: NFCTagReaderSession.Options(pollInterval: .milliseconds(1)))
        guard let tag = try await session.nextTag(timeout: .seconds(2)) as? NFCISO7816Tag else {
            throw NFCReaderError(.tagNotSupported, "not Type 4")
        }
        try await tag.writeNDEF(SimulatedTagSupplyTests.message(3))
        let written = try #require(first.withField { $0.tag(uid: uids[0])?.type4Tag })
        #expect(try directory.contents() == [Self.fileName(uids[0], type4: true)])
        // Abandoned: no waitForRemoval, no close.
        let second = try await SimulatedReader(url: url)
        let loaded = try #require(second.withField { $0.tags.first?.type4Tag })
        #expect(loaded.configuration.uid == uids[0])
        #expect(loaded.ndefFile == written.ndefFile)
        #expect(loaded.capabilityContainerFile == written.capabilityContainerFile)
        await second.close()
    }

    @Test("A saved file of another chip, or of another UID than its name, is refused when the reader opens")
    func mismatchedFiles() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let uid = SimulatedTagSupply.uids(count: 1, seed: 1)[0]
        let ntag213 = try SimulatedType2Tag(chip: .ntag213, uid: uid).dump.encoded(as: .flipper)
        try directory.file(Self.fileName(uid), ntag213)
        await #expect(throws: NFCReaderError(.invalidParameter, "")) {
            try await SimulatedReader(url: "sim:ntag215?supply=2&file=\(directory.path)/")
        }
        let other = try SimulatedType2Tag(chip: .ntag215, uid: hex("04 11 22 33 44 55 66")).dump.encoded(as: .flipper)
        try directory.file(Self.fileName(uid), other)
        do {
            _ = try await SimulatedReader(url: "sim:ntag215?supply=2&file=\(directory.path)/")
            Issue.record("a file holding another UID was loaded")
        } catch {
            #expect(error.code == .invalidParameter)
            #expect(error.reason.contains("04112233445566"), "\(error.reason)")
        }
        // The right chip and UID loads, in the format found.
        let right = try SimulatedType2Tag(chip: .ntag215, uid: uid).dump.encoded(as: .proxmarkJSON)
        try directory.file(Self.fileName(uid), right)
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=2&file=\(directory.path)/")
        try await reader.selectFirst()
        #expect(try await reader.write(5, "01 02 03 04") == .ack)
        let bytes = try directory.read(Self.fileName(uid))
        #expect(try TagDump.detect(bytes) == .proxmarkJSON)
        await reader.close()
    }

    @Test("Reads change nothing: no file is written for a tag that was only read")
    func readsWriteNothing() async throws {
        let directory = try TemporaryDirectory("simreader")
        defer { directory.remove() }
        let reader = try await SimulatedReader(url: "sim:ntag215?supply=2&file=\(directory.path)/")
        try await reader.selectFirst()
        for page in UInt8(0)..<20 { _ = try await reader.read(page) }
        #expect(try directory.contents().isEmpty)
        #expect(try await reader.write(4, "01 02 03 04") == .ack)
        #expect(try directory.contents().count == 1)
        await reader.close()
    }
}

/// The error `body` throws, if any.
func caughtError(_ body: () async throws -> Void) async -> NFCReaderError? {
    do {
        try await body()
        return nil
    } catch let error as NFCReaderError {
        return error
    } catch {
        return NFCReaderError(.readerUnavailable, "unexpected \(error)")
    }
}
