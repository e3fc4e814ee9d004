import NDEF
import NFCWireFormat
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Simulated Type 4 tag: UPDATE BINARY, locking and torn writes")
struct SimulatedType4WriteTests {
    /// Runs `plan` on `tag` (the NDEF or CC file it names must be reachable); the answers' status words.
    static func run(_ plan: TagWritePlan, on tag: inout SimulatedType4Tag) throws -> [StatusWord] {
        var statuses: [StatusWord] = []
        for step in plan.steps {
            let command = try Type4Command.updateBinary(step)
            let response = tag.transceive(command)
            statuses.append(try #require(response).status)
        }
        return statuses
    }

    @Test(
        "T4T 3.0 5.5.7: the NDEF update procedure (NLEN 0, data in MLc pieces, NLEN last) leaves a readable message",
        arguments: type4Versions)
    func writeProcedure(configuration: SimulatedType4Tag.Configuration) throws {
        var small = configuration
        small.maximumCommandDataSize = 0x34
        var tag = try SimulatedType4Tag.active(small, message: proxmarkMessage)
        let cc = try small.capabilityContainer()
        #expect(tag.open(cc.ndefFile.fileIdentifier) == true)
        let message = type4TextMessage(count: 180)
        let plan = try cc.writePlan(for: message, singleUpdateWhenPossible: false)
        let total = cc.messageLengthFieldSize + message.length
        #expect(plan.steps.count == 2 + (total - cc.messageLengthFieldSize + 0x33) / 0x34)
        #expect(plan.steps.allSatisfy { $0.data.count <= 0x34 })
        let first = try #require(plan.steps.first)
        #expect(first.address == 0 && first.data.allSatisfy { $0 == 0 })
        var afterFirst = tag
        #expect(try Self.run(TagWritePlan(steps: [first]), on: &afterFirst) == [.success])
        #expect(try afterFirst.fileImages.ndefFile().message == nil)
        #expect(try Self.run(plan, on: &tag).allSatisfy { $0 == .success })
        #expect(tag.count(of: .updateBinary) == plan.steps.count)
        #expect(try tag.fileImages.ndefFile().message == message)
        let piece = min(0xFF, small.maximumResponseDataSize)
        let readBack = try #require(try tag.readPieces(offset: 0, length: total, piece: piece))
        #expect(try Type4NDEFFile(parsing: readBack, capabilityContainer: cc).message == message)
    }

    @Test("T4T 3.0 5.5.7: a message that fits one UPDATE BINARY with its NLEN is written by one command")
    func singleUpdate() throws {
        var tag = try SimulatedType4Tag.active()
        let cc = try SimulatedType4Tag.Configuration().capabilityContainer()
        #expect(tag.open(0xE104) == true)
        let plan = try cc.writePlan(for: proxmarkMessage)
        #expect(plan.steps.count == 1)
        #expect(try Self.run(plan, on: &tag) == [.success])
        #expect(tag.send("00 B0 00 00 13") == hex("00 11 D1 01 0D 55 02 70 72 6F 78 6D 61 72 6B 2E 63 6F 6D 90 00"))
    }

    @Test(
        "T4T 3.0 5.1.2, ISO/IEC 7816-4: write access FF or proprietary: UPDATE BINARY gets 6982, nothing changes",
        arguments: [UInt8(0xFF), 0x80, 0x83, 0xFE])
    func writeAccessRefused(access: UInt8) throws {
        let configuration = SimulatedType4Tag.Configuration(writeAccess: Type4AccessCondition(rawValue: access))
        var tag = try SimulatedType4Tag.active(configuration, message: proxmarkMessage)
        #expect(tag.open(0xE104) == true)
        let before = tag.ndefFile
        #expect(tag.status("00 D6 00 00 02 00 00") == 0x6982)
        #expect(tag.status("00 D6 00 10 03 01 02 03") == 0x6982)
        #expect(tag.ndefFile == before)
        #expect(try tag.fileImages.ndefFile().message == proxmarkMessage)
        #expect(try tag.fileImages.ndefFile().status.status == .readOnly)
    }

    @Test("T4T 3.0 5.4.5: Lc above MLc answers 6700 and writes nothing")
    func lcAboveMLc() throws {
        var tag = try SimulatedType4Tag.active(.init(maximumCommandDataSize: 0x34))
        #expect(tag.open(0xE104) == true)
        let data = [UInt8](repeating: 0x5A, count: 0x35)
        #expect(tag.transceiveAPDU([0x00, 0xD6, 0x00, 0x02, 0x35] + data) == hex("67 00"))
        #expect(tag.ndefFile.allSatisfy { $0 == 0 })
        #expect(tag.transceiveAPDU([0x00, 0xD6, 0x00, 0x02, 0x34] + data.dropLast()) == hex("90 00"))
        #expect(tag.ndefFile[2..<0x36].allSatisfy { $0 == 0x5A })
    }

    @Test(
        "ISO/IEC 7816-4 UPDATE BINARY: offset past the end 6B00, data running past it 6A84; nothing is written"
    )
    func pastTheEnd() throws {
        var tag = try SimulatedType4Tag.active(.init(maximumNDEFFileSize: 0x20))
        #expect(tag.open(0xE104) == true)
        #expect(tag.status("00 D6 00 20 01 AA") == 0x6B00)
        #expect(tag.status("00 D6 7F FF 01 AA") == 0x6B00)
        #expect(tag.status("00 D6 00 1E 03 AA BB CC") == 0x6A84)
        #expect(tag.ndefFile == [UInt8](repeating: 0, count: 0x20))
        #expect(tag.status("00 D6 00 1E 02 AA BB") == 0x9000)
        #expect(tag.ndefFile.suffix(2) == hex("AA BB"))
    }

    @Test(
        "ISO/IEC 7816-4 5.1, NT4H2421Gx: UPDATE BINARY without data, with Le or a short EF identifier is refused",
        arguments: [
            ("00 D6 00 00", 0x6700), ("00 D6 00 00 02", 0x6700), ("00 D6 00 00 02 00 05 00", 0x6700),
            ("00 D6 81 00 01 00", 0x6A86), ("00 D6 00 00 00 00 02 00 05", 0x6700),
        ])
    func malformedUpdate(command: String, status: Int) throws {
        var tag = try SimulatedType4Tag.active(message: proxmarkMessage)
        #expect(tag.open(0xE104) == true)
        let before = tag.ndefFile
        #expect(tag.status(command) == UInt16(status))
        #expect(tag.ndefFile == before)
    }

    @Test("T4T 3.0 5.4.5, ISO/IEC 7816-4 6.1: UPDATE BINARY with no file selected answers 6986")
    func noFileSelected() throws {
        var tag = try SimulatedType4Tag.active()
        #expect(tag.status("00 D6 00 00 02 00 05") == 0x6986)
        #expect(tag.ndefFile.allSatisfy { $0 == 0 })
    }

    @Test("T4T 3.0 5.5.8: the CC file refuses UPDATE BINARY with 6982 unless the tag allows it")
    func capabilityContainerRefused() throws {
        var tag = try SimulatedType4Tag.active()
        let cc = try SimulatedType4Tag.Configuration().capabilityContainer()
        #expect(tag.open(0xE103) == true)
        let before = tag.capabilityContainerFile
        #expect(try Self.run(try cc.lockPlan(), on: &tag) == [.securityStatusNotSatisfied])
        #expect(tag.capabilityContainerFile == before)
    }

    @Test(
        "T4T 3.0 5.5.8: on a tag with a writable CC, TagMemory's lock plan makes the NDEF file read-only",
        arguments: [type4Versions[1], type4Versions[2]])
    func lockPlan(configuration: SimulatedType4Tag.Configuration) throws {
        var writable = configuration
        writable.isCapabilityContainerWritable = true
        var tag = try SimulatedType4Tag.active(writable, message: proxmarkMessage)
        let cc = try writable.capabilityContainer()
        #expect(tag.open(0xE103) == true)
        #expect(try Self.run(try cc.lockPlan(), on: &tag) == [.success])
        let locked = try Type4CapabilityContainer(parsing: tag.capabilityContainerFile)
        #expect(locked.ndefFile.writeAccess == .none)
        #expect(locked.ndefStatus.status == .readOnly)
        #expect(tag.open(cc.ndefFile.fileIdentifier) == true)
        #expect(tag.status("00 D6 00 00 02 00 00") == 0x6982)
        #expect(try tag.readFile(offset: 0, length: 2) != nil)
        #expect(try tag.fileImages.ndefFile().message == proxmarkMessage)
    }

    @Test("Fault injection: a torn UPDATE BINARY keeps exactly the first bytes given, answers nothing, powers down")
    func tornUpdate() throws {
        var tag = try SimulatedType4Tag.active(message: proxmarkMessage)
        #expect(tag.open(0xE104) == true)
        let before = tag.ndefFile
        let data: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
        let written = tag.applyPartialUpdate([0x00, 0xD6, 0x00, 0x04, 0x08] + data, keepingBytes: 3)
        #expect(written == 3)
        var expected = before
        expected.replaceSubrange(4..<7, with: data.prefix(3))
        #expect(tag.ndefFile == expected)
        #expect(tag.state == .idle)
        #expect(tag.selectedFile == nil)
        #expect(tag.count(of: .updateBinary) == 1)
        #expect(tag.send("00 B0 00 00 02") == nil)
        tag.select()
        #expect(tag.open(0xE104) == true)
        #expect(tag.applyPartialUpdate([0x00, 0xD6, 0x00, 0x04, 0x08] + data, keepingBytes: 99) == 8)
        expected.replaceSubrange(4..<12, with: data)
        #expect(tag.ndefFile == expected)
        tag.select()
        #expect(tag.open(0xE104) == true)
        #expect(tag.applyPartialUpdate([0x00, 0xD6, 0x00, 0x00, 0x02, 0xFF, 0xFF], keepingBytes: 0) == 0)
        #expect(tag.applyPartialUpdate([0x00, 0xD6, 0x00, 0x00, 0x02, 0xFF, 0xFF], keepingBytes: 2) == 0)
        #expect(tag.ndefFile == expected)
        #expect(tag.count(of: .updateBinary) == 4)
    }

    @Test(
        "Fault injection: a torn UPDATE BINARY the tag would refuse writes nothing",
        arguments: [
            "00 D6 00 00 02 00 00 00", "00 D6 01 00 02 AA BB", "00 B0 00 00 02", "80 D6 00 00 01 AA",
        ])
    func tornRefused(command: String) throws {
        var tag = try SimulatedType4Tag.active(.init(maximumNDEFFileSize: 0x20), message: proxmarkMessage)
        #expect(tag.open(0xE104) == true)
        let before = tag.ndefFile
        #expect(tag.applyPartialUpdate(hex(command), keepingBytes: 1) == 0)
        #expect(tag.ndefFile == before)
        #expect(tag.state == .idle)
    }

    @Test("T4T 3.0 5.5.7: a write torn anywhere in a data step leaves NLEN 0, never a broken message")
    func tearingSafety() throws {
        let configuration = SimulatedType4Tag.Configuration(maximumCommandDataSize: 0x20)
        let cc = try configuration.capabilityContainer()
        let message = type4TextMessage(count: 120)
        let plan = try cc.writePlan(for: message, singleUpdateWhenPossible: false)
        var start = try SimulatedType4Tag.active(configuration, message: proxmarkMessage)
        #expect(start.open(0xE104) == true)
        var outcomes: Set<Int> = []
        for (index, step) in plan.steps.enumerated() {
            let command = try Type4Command.updateBinary(step)
            for keep in 0..<step.data.count {
                var tag = start
                tag.applyPartialUpdate(command.bytes, keepingBytes: keep)
                let found = try tag.fileImages.ndefFile().message
                #expect(found == nil || found == proxmarkMessage, "step \(index) torn after \(keep) bytes")
                outcomes.insert(found == nil ? 0 : 1)
            }
            #expect(start.transceive(command)?.isSuccess == true)
        }
        #expect(outcomes == [0, 1])
        #expect(try start.fileImages.ndefFile().message == message)
    }

    @Test("T4T 3.0 5.4.7, 5.5.7: version 3.0 writes and reads past 7FFF with offset data objects (D7, B1)")
    func largeVersion3Message() throws {
        let configuration = SimulatedType4Tag.Configuration(
            mappingVersion: 0x30, maximumResponseDataSize: 0xFF, maximumCommandDataSize: 0xFF,
            maximumNDEFFileSize: 0x1_0000)
        var tag = try SimulatedType4Tag.active(configuration)
        let cc = try configuration.capabilityContainer()
        #expect(tag.open(0xE104) == true)
        let payload = (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let message = NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .media, type: "application/octet-stream", payload: payload)
        ])
        let plan = try cc.writePlan(for: message)
        tag.isRecordingCommands = true
        #expect(try Self.run(plan, on: &tag).allSatisfy { $0 == .success })
        #expect(plan.steps.contains { $0.address >= 0x8000 })
        #expect(tag.recordedCommands.allSatisfy { $0 == .updateBinary })
        let lengthField = try #require(try tag.readFile(offset: 0, length: 4))
        let length = try Type4NDEFFile.messageLength(in: lengthField[...], capabilityContainer: cc)
        var image = lengthField
        for read in try cc.readPlan(messageLength: length).dropFirst() {
            image += try #require(try tag.readFile(offset: read.offset, length: read.length))
        }
        #expect(try Type4NDEFFile(parsing: image, capabilityContainer: cc).message == message)
        #expect(tag.status("00 D7 00 00 08 54 03 00 80 00 53 02 01") == 0x6A80)
        #expect(tag.status("00 D7 00 00 08 54 03 00 80 00 54 01 01") == 0x6A80)
        #expect(tag.status("00 D7 00 00 08 54 03 01 00 00 53 01 01") == 0x6B00)
        #expect(tag.status("00 D7 00 00 09 54 03 00 FF FF 53 02 01 02") == 0x6A84)
        #expect(tag.status("00 D7 E1 04 08 54 03 00 80 00 53 01 01") == 0x6A86)
    }
}
