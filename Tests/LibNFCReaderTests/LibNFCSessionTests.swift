import Foundation
import LibNFCReader
import NDEF
import NFCSession
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// The session layer over ``LibNFCReaderDevice``, through libnfc's real `pn532_uart` driver, to a
/// simulated PN532 on a pseudo-terminal with simulated tags in its field. Each test has a PN532
/// of its own; the connection string goes to `nfc_open` directly, so no environment variable
/// is set (libnfc's own `LIBNFC_*` variables are read only when the process's one context is
/// made).
@Suite("sessions through libnfc's pn532_uart driver and a simulated PN532", .timeLimit(.minutes(3)))
struct LibNFCSessionTests {
    /// The tag commands each step of a write and read-back needed.
    struct Steps: Equatable, CustomStringConvertible {
        var open: [SimulatedType2Command: Int] = [:]
        var query: [SimulatedType2Command: Int] = [:]
        var write: [SimulatedType2Command: Int] = [:]
        var read: [SimulatedType2Command: Int] = [:]
        /// The wall time of writeNDEF and readNDEF (not compared).
        var writeAndRead = Duration.zero

        static func text(_ counts: [SimulatedType2Command: Int]) -> String {
            let total = counts.values.reduce(0, +)
            let parts = counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.value) \($0.key)" }
            return "\(total)" + (parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")")
        }

        static func == (lhs: Steps, rhs: Steps) -> Bool {
            lhs.open == rhs.open && lhs.query == rhs.query && lhs.write == rhs.write && lhs.read == rhs.read
        }

        var description: String {
            "open \(Self.text(open)); queryNDEFStatus \(Self.text(query)); writeNDEF \(Self.text(write)); "
                + "readNDEF \(Self.text(read))"
        }
    }

    /// Opens a session on `device`, then queries, writes `message` and reads it back, counting the
    /// tag commands `reader`'s field received in each step.
    static func steps(
        _ device: any NFCReaderDevice, _ reader: SimulatedReader, _ message: NFCNDEFMessage
    ) async throws -> Steps {
        var steps = Steps()
        func take() -> [SimulatedType2Command: Int] {
            reader.withField { field in
                defer { field.resetCommandCounts() }
                return field.commandCounts.filter { $0.value > 0 }
            }
        }
        _ = take()
        let session = NFCTagReaderSession(reader: device)
        let tag = try miFare(try await session.nextTag(timeout: .seconds(5)))
        steps.open = take()
        let (status, _) = try await tag.queryNDEFStatus()
        #expect(status == .readWrite)
        steps.query = take()
        let clock = ContinuousClock()
        let start = clock.now
        try await tag.writeNDEF(message)
        steps.write = take()
        #expect(try await tag.readNDEF() == message)
        steps.writeAndRead = clock.now - start
        steps.read = take()
        await session.invalidate()
        return steps
    }

    @Test(
        "NTAG213/215/216: query, write and read back; every step needs the tag commands SimulatedReader needs",
        arguments: [(Type2Chip.ntag213, 130), (.ntag215, 100), (.ntag215, 480), (.ntag216, 860)])
    func writeAndRead(_ chip: Type2Chip, _ length: Int) async throws {
        let bench = try PN532Bench(chip)
        defer { bench.stop() }
        let device = try await bench.open()
        #expect(device.capabilities.maximumFrameSize == 260)
        let message = uriMessage(length: length, seed: 4)
        let before = bench.simulator.status
        let viaLibNFC = try await Self.steps(device, bench.reader, message)
        let pn532Commands = bench.chipCommands(since: before)
        await device.close()
        #expect(bench.memory?.message == message)
        let direct = SimulatedReader(
            field: SimulatedField(.type2(SimulatedType2Tag(chip: chip))), capabilities: device.capabilities)
        let viaSimulator = try await Self.steps(direct, direct, message)
        #expect(viaLibNFC == viaSimulator)
        let pn532 = pn532Commands.sorted { $0.key < $1.key }.map { "\(hexText([$0.key]))=\($0.value)" }
        print(
            "libnfc figures: \(chip.name) \(length)-byte URI via pn532_uart: tag commands \(viaLibNFC); "
                + "SimulatedReader: \(viaSimulator); PN532 commands \(pn532.joined(separator: " ")); "
                + "writeNDEF+readNDEF \(viaLibNFC.writeAndRead)")
    }

    @Test("lock with confirmation: read-only afterwards, a write is tag-not-writable and changes nothing")
    func lock() async throws {
        let bench = try PN532Bench(.ntag215)
        defer { bench.stop() }
        let device = try await bench.open()
        let (session, found) = try await bench.session(device)
        let tag = try miFare(found)
        let message = uriMessage(length: 40)
        try await tag.writeNDEF(message)
        let confirmation = try await tag.prepareLock()
        try await tag.writeLock(confirmation)
        #expect(try await tag.queryNDEFStatus().0 == .readOnly)
        bench.reader.withField { $0.resetCommandCounts() }
        let refused = await asyncReaderError { try await tag.writeNDEF(uriMessage(length: 20)) }
        #expect(refused?.code == .tagNotWritable)
        #expect(bench.reader.count(of: .write) == 0)
        #expect(bench.memory?.message == message)
        #expect(bench.memory?.ndefStatus.status == .readOnly)
        await session.invalidate()
        await device.close()
    }

    @Test("password: set, a wrong password costs exactly one PWD_AUTH (NAK 0h), authenticate, remove")
    func password() async throws {
        let bench = try PN532Bench(.ntag215)
        defer { bench.stop() }
        let device = try await bench.open()
        let (session, found) = try await bench.session(device)
        let tag = try miFare(found)
        let password = hex("AA BB CC DD")
        let pack = hex("12 34")
        try await tag.setPassword(Type2PasswordSettings(password: password, passwordAcknowledge: pack))
        bench.reader.withField { $0.resetCommandCounts() }
        let wrong = await asyncReaderError { _ = try await tag.authenticate(password: hex("01 02 03 04")) }
        #expect(wrong?.code == .authenticationFailed)
        #expect(wrong?.reason.contains("NAK 0h") == true)
        #expect(bench.reader.count(of: .passwordAuthentication) == 1)
        #expect(try await tag.authenticate(password: password, expectedPasswordAcknowledge: pack) == pack)
        #expect(bench.reader.count(of: .passwordAuthentication) == 2)
        // Authenticated already: the removal sends no further PWD_AUTH.
        try await tag.removePassword(currentPassword: password, expectedPasswordAcknowledge: pack)
        #expect(bench.reader.count(of: .passwordAuthentication) == 2)
        await session.invalidate()
        // A new session reads the tag without a password: protection is off.
        let (again, tagAgain) = try await bench.session(device)
        #expect(try await miFare(tagAgain).passwordStatus().isProtected == false)
        await again.invalidate()
        await device.close()
    }

    @Test("raw commands: GET_VERSION, READ_SIG, a FAST_READ of 65 pages (260 bytes, a PN532's largest), a WRITE's ACK")
    func rawCommands() async throws {
        let bench = try PN532Bench(.ntag215)
        defer { bench.stop() }
        let device = try await bench.open()
        let (session, found) = try await bench.session(device)
        let tag = try miFare(found)
        // NTAG213/215/216 10.1: the NTAG215's version.
        #expect(try await tag.readVersion() == hex("00 04 04 02 01 00 11 03"))
        guard case .type2(let simulated)? = bench.reader.field.tags.first else {
            Issue.record("no simulated tag")
            return
        }
        #expect(try await tag.readSignature() == simulated.signature)
        let pages = try await tag.sendMiFareCommand([0x3A, 0x00, 0x40])
        #expect(pages == Array(simulated.bytes.prefix(260)))
        #expect(try await tag.sendMiFareCommand([0xA2, 0x10, 0x01, 0x02, 0x03, 0x04]) == [0x0A])
        #expect(try await tag.sendMiFareCommand([0x30, 0x10]).prefix(4) == [0x01, 0x02, 0x03, 0x04])
        // A WRITE past the last page: NAK 0h (NTAG213/215/216 9.3), the tag goes IDLE and is
        // selected again before the next command.
        let refused = await asyncReaderError { _ = try await tag.sendMiFareCommand([0xA2, 0xF0, 1, 2, 3, 4]) }
        #expect(refused?.code == .tagResponseError)
        #expect(refused?.reason.contains("NAK 0h") == true)
        #expect(try await tag.readVersion() == hex("00 04 04 02 01 00 11 03"))
        await session.invalidate()
        await device.close()
    }

    @Test("two tags in the field: both are listed, the session refuses them and nothing is sent to either")
    func twoTags() async throws {
        let first: [UInt8] = [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
        let second: [UInt8] = [0x04, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16]
        let bench = try PN532Bench(
            SimulatedField(tags: [
                .type2(SimulatedType2Tag(chip: .ntag215, uid: first)),
                .type2(SimulatedType2Tag(chip: .ntag213, uid: second)),
            ]))
        defer { bench.stop() }
        let device = try await bench.open()
        let targets = try await device.pollTargets()
        #expect(Set(targets.map(\.uid)) == [first, second])
        #expect(targets.map(\.index) == [0, 1])
        // A second poll lists both again: the field reset brings the HALTed tags back.
        #expect(try await device.pollTargets().count == 2)
        let session = NFCTagReaderSession(reader: device, options: .init(failOnMultipleTags: true))
        let refused = await asyncReaderError { _ = try await session.nextTag(timeout: .seconds(2)) }
        #expect(refused?.code == .multipleTagsFound)
        #expect(bench.reader.field.totalCommandCount == 0)
        await session.invalidate()
        // One tag taken away: the other is found and written to.
        _ = bench.reader.withField { $0.remove(uid: second) }
        let (single, found) = try await bench.session(device)
        let tag = try miFare(found)
        #expect(tag.identifier == first)
        try await tag.writeNDEF(uriMessage(length: 30))
        #expect(bench.memory?.message == uriMessage(length: 30))
        await single.invalidate()
        await device.close()
    }

    @Test("the tag leaves mid-write: tag-connection-lost, half-written; old, empty or new; resumeWrite completes")
    func removedMidWrite() async throws {
        let bench = try PN532Bench(.ntag215)
        defer { bench.stop() }
        let device = try await bench.open()
        var (session, found) = try await bench.session(device)
        var tag = try miFare(found)
        let old = uriMessage(length: 30, seed: 7)
        try await tag.writeNDEF(old)
        let new = uriMessage(length: 100, seed: 1)
        // The tag leaves during the 6th WRITE, after the 2 FAST_READs the write starts with.
        bench.reader.withField { $0.arm(.init(removeAfterCommands: 2 + 6)) }
        let lost = await asyncReaderError { try await tag.writeNDEF(new) }
        #expect(lost?.code == .tagConnectionLost)
        #expect(lost?.mayBeHalfWritten == true)
        await session.invalidate()
        // Nothing is in the field: polls find no tag.
        #expect(try await device.pollTargets().isEmpty)
        bench.reader.withField { $0.disarm() }
        bench.simulator.insertTag()
        let state = bench.memory?.message
        #expect(state == old || state == nil || state == new)
        (session, found) = try await bench.session(device)
        tag = try miFare(found)
        try await tag.resumeWrite(new)
        #expect(try await tag.readNDEF() == new)
        #expect(bench.memory?.message == new)
        await session.invalidate()
        await device.close()
    }

    @Test("a NAK on a WRITE leaves the tag IDLE: the next selection wakes it and resumeWrite completes")
    func nakMidWrite() async throws {
        var field = SimulatedField(.type2(SimulatedType2Tag(chip: .ntag215)))
        field.arm(.init(nakWrite: 2))
        let bench = try PN532Bench(field)
        defer { bench.stop() }
        let device = try await bench.open()
        let (session, found) = try await bench.session(device)
        let tag = try miFare(found)
        let message = uriMessage(length: 60)
        let failed = await asyncReaderError { try await tag.writeNDEF(message) }
        // The NAK reaches the session as a NAK (raw mode keeps its code): the write failed part way.
        #expect(failed?.code == .tagUpdateFailure)
        #expect(failed?.mayBeHalfWritten == true)
        #expect(failed?.reason.contains("NAK") == true)
        bench.reader.withField { $0.disarm() }
        try await tag.resumeWrite(message)
        #expect(try await tag.readNDEF() == message)
        await session.invalidate()
        await device.close()
    }

    @Test("Type 4: write and read back through InDataExchange, with the APDUs SimulatedReader needs")
    func type4() async throws {
        // A 2 KiB NDEF file, so that a 600-byte message takes several READ and UPDATE BINARYs.
        let configuration = SimulatedType4Tag.Configuration(maximumNDEFFileSize: 2048)
        let bench = try PN532Bench(SimulatedField(.type4(try SimulatedType4Tag(configuration: configuration))))
        defer { bench.stop() }
        let device = try await bench.open()
        let direct = SimulatedReader(
            field: SimulatedField(.type4(try SimulatedType4Tag(configuration: configuration))),
            capabilities: device.capabilities)
        var counts: [[SimulatedType4Command: Int]] = []
        for (reader, simulated) in [(device as any NFCReaderDevice, bench.reader), (direct, direct)] {
            simulated.withField { $0.resetCommandCounts() }
            let session = NFCTagReaderSession(reader: reader)
            guard let tag = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
                Issue.record("not a Type 4 tag")
                return
            }
            for length in [100, 600] {
                let message = uriMessage(length: length, seed: 2)
                try await tag.writeNDEF(message)
                #expect(try await tag.readNDEF() == message)
            }
            await session.invalidate()
            counts.append(simulated.type4CommandCounts)
        }
        #expect(counts[0] == counts[1])
        print("libnfc figures: Type 4 write+read of 100 and 600 bytes: APDUs \(counts[0])")
        await device.close()
    }

    @Test("no tag: polls are empty; a tag put down is found")
    func tagArrives() async throws {
        let bench = try PN532Bench(.ntag213)
        defer { bench.stop() }
        bench.simulator.removeTag()
        let device = try await bench.open()
        #expect(try await device.pollTargets().isEmpty)
        bench.simulator.insertTag()
        let targets = try await device.pollTargets()
        #expect(targets.count == 1)
        #expect(targets.first?.atqa == [0x44, 0x00])
        #expect(targets.first?.sak == 0x00)
        // A UID that is not in the field selects nothing.
        var stranger = try #require(targets.first)
        stranger.uid = [0x04, 0x99, 0x99, 0x99, 0x99, 0x99, 0x99]
        #expect(await asyncReaderError { try await device.select(stranger) }?.code == .tagConnectionLost)
        await device.close()
        #expect(await asyncReaderError { _ = try await device.pollTargets() }?.code == .readerUnavailable)
    }

    @Test("a Type 4 tag that leaves mid-write: tag-connection-lost; back in the field, resumeWrite completes")
    func type4RemovedMidWrite() async throws {
        let configuration = SimulatedType4Tag.Configuration(maximumNDEFFileSize: 2048)
        let bench = try PN532Bench(SimulatedField(.type4(try SimulatedType4Tag(configuration: configuration))))
        defer { bench.stop() }
        let device = try await bench.open()
        var session = NFCTagReaderSession(reader: device)
        guard let tag = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
            Issue.record("not a Type 4 tag")
            return
        }
        let new = uriMessage(length: 700, seed: 5)
        // The tag leaves at the 5th APDU: SELECTs and reads are done, the UPDATE BINARYs begin.
        bench.reader.withField { $0.arm(.init(removeAfterCommands: 5)) }
        let lost = await asyncReaderError { try await tag.writeNDEF(new) }
        #expect(lost?.code == .tagConnectionLost)
        await session.invalidate()
        bench.reader.withField { $0.disarm() }
        bench.simulator.insertTag()
        session = NFCTagReaderSession(reader: device)
        guard let again = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
            Issue.record("not a Type 4 tag")
            return
        }
        try await again.resumeWrite(new)
        #expect(try await again.readNDEF() == new)
        await session.invalidate()
        await device.close()
    }

    @Test("the PN532 goes away: reader-unavailable; a new one on the same port is found by a ReconnectingReader")
    func deviceGoesAway() async throws {
        let first = try PN532Bench(.ntag213)
        defer { first.stop() }
        let connstring = first.simulator.connstring
        let device = try await first.open()
        let reconnecting = ReconnectingReader(
            device, policy: ReconnectPolicy(timeout: .seconds(60))
        ) { () throws(NFCReaderError) in
            try await LibNFCReaderDevice.open(connstring: connstring)
        }
        #expect(try await reconnecting.pollTargets().count == 1)
        first.simulator.stop()
        let gone = await asyncReaderError { _ = try await device.pollTargets() }
        #expect(gone?.code == .readerUnavailable)
        // At once: the terminal is closed, so the serial read fails with EIO (NFC_EIO), not after
        // libnfc's timeouts (NFC_ETIMEOUT). The cause tells which, however busy the machine.
        #expect(gone?.reason.contains("NFC_EIO") == true, "\(gone?.reason ?? "no error")")
        // A new PN532 on the same link (the stale link is replaced).
        let reader = SimulatedReader(field: SimulatedField(.type2(SimulatedType2Tag(chip: .ntag213))))
        let second = try PN532SerialSimulator(reader: reader, linkPath: first.folder.path("pn532"))
        try second.start()
        defer { second.stop() }
        #expect(try await reconnecting.pollTargets().count == 1)
        await reconnecting.close()
    }

    @Test("a Type 4 tag with a random UID (08h first, ISO/IEC 14443-3 6.4.4) is selected by kind, not by UID")
    func randomUID() async throws {
        let configuration = SimulatedType4Tag.Configuration(uid: [0x08, 0x12, 0x34, 0x56])
        let bench = try PN532Bench(SimulatedField(.type4(try SimulatedType4Tag(configuration: configuration))))
        defer { bench.stop() }
        let device = try await bench.open()
        let session = NFCTagReaderSession(reader: device)
        guard let tag = try await session.nextTag(timeout: .seconds(5)) as? NFCISO7816Tag else {
            Issue.record("not a Type 4 tag")
            return
        }
        #expect(tag.identifier == [0x08, 0x12, 0x34, 0x56])
        let message = uriMessage(length: 50)
        try await tag.writeNDEF(message)
        #expect(try await tag.readNDEF() == message)
        // The same target with the UID the tag had before: a random UID never names the tag again.
        var previous = tag.targetInfo
        previous.uid = [0x08, 0x99, 0x99, 0x99]
        try await device.select(previous)
        await session.invalidate()
        await device.close()
    }
}
