import BenchmarkSupport
import NDEF
import NFCSession
import TagMemory
import TagSimulator

/// The Type 2 operations: NTAG215 and NTAG216 through `sim:` readers.
extension TagBenchmark {
    /// A reader that passes raw commands (GET_VERSION, PWD_AUTH) but not FAST_READ.
    static let withoutFastRead = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: true, supportsFastRead: false, supportsISODEP: true,
        detectsMultipleTargets: true)

    /// A reader with READ and WRITE only (the storage commands of a PC/SC reader, PC/SC Part 3).
    static let readWriteOnly = NFCReaderCapabilities(
        maximumFrameSize: 252, supportsRawCommands: false, supportsFastRead: false, supportsISODEP: true,
        detectsMultipleTargets: true)

    /// The password `setPassword` sets (never printed).
    static let password = Type2PasswordSettings(password: [0x12, 0x34, 0x56, 0x78], passwordAcknowledge: [0xAB, 0xCD])

    /// The Type 2 operations, in the order of the table.
    static let type2: [TagBenchmark] = [
        status, read(length: 100, chip: .ntag215), read(length: 400, chip: .ntag216),
        write(id: "write-ntag215", label: "write+verify 100-byte URI, factory NTAG215", old: nil),
        write(
            id: "rewrite-ntag215", label: "write+verify 100-byte URI over another",
            old: BenchmarkMessages.uri(length: 100, seed: 7)),
        write(
            id: "write-ntag215-no-fast-read", label: "write+verify 100 bytes, no FAST_READ", old: nil,
            capabilities: withoutFastRead),
        write(
            id: "write-ntag215-read-write-only", label: "write+verify 100 bytes, READ/WRITE only", old: nil,
            capabilities: readWriteOnly),
        mirroredWrite, lock, setPassword,
    ]

    /// Identification and `queryNDEFStatus` of a factory NTAG215.
    static let status = TagBenchmark(
        id: "status-ntag215", label: "identify + queryNDEFStatus, NTAG215", url: "sim:ntag215",
        operation: { (tag: any NFCNDEFTag) async throws -> Void in
            let (status, capacity) = try await tag.type2().queryNDEFStatus()
            guard status == .readWrite, capacity == 492 else {
                throw BenchmarkFailure("a factory NTAG215 reported \(status), \(capacity) bytes")
            }
        },
        verify: { (_: SimulatedField) -> String? in nil },
        minimum: MinimumBudgets.status(layout: .ntag215),
        reference: NfcpyReference.status(image: SimulatedType2Tag.factoryImage(chip: .ntag215)))

    /// `readNDEF` of a `length`-byte URI message written beforehand.
    static func read(length: Int, chip: Type2Chip) -> TagBenchmark {
        let message = BenchmarkMessages.uri(length: length)
        let name = chip.name.lowercased()
        let prepare: @Sendable (any NFCNDEFTag) async throws -> Void = { tag in try await tag.type2().writeNDEF(message)
        }
        let operation: @Sendable (any NFCNDEFTag) async throws -> Void = { tag in
            let read = try await tag.type2().readNDEF()
            guard read == message else { throw BenchmarkFailure("read another message") }
        }
        return TagBenchmark(
            id: "read-\(name)-\(length)", label: "readNDEF \(length)-byte URI, \(chip.name)", url: "sim:\(name)",
            prepare: prepare, operation: operation, verify: { _ in nil },
            minimum: MinimumBudgets.read(messageLength: length),
            reference: NfcpyReference.read(image: image(holding: message, chip: chip)))
    }

    /// `writeNDEF` of a 100-byte URI message (which reads it back) over `old`, or a factory tag.
    static func write(
        id: String, label: String, old: NFCNDEFMessage?, capabilities: NFCReaderCapabilities? = nil
    ) -> TagBenchmark {
        let message = BenchmarkMessages.uri(length: 100)
        var prepare: (@Sendable (any NFCNDEFTag) async throws -> Void)?
        if let old {
            prepare = { tag in try await tag.type2().writeNDEF(old) }
        }
        let operation: @Sendable (any NFCNDEFTag) async throws -> Void = { tag in
            try await tag.type2().writeNDEF(message)
        }
        let verify: @Sendable (SimulatedField) -> String? = { field in
            field.firstType2Memory?.message == message ? nil : "the tag does not hold the message"
        }
        let minimum = MinimumBudgets.write(
            new: bytes(message), old: old.map(bytes), layout: .ntag215,
            fastRead: capabilities?.supportsFastRead ?? true,
            identifiedByVersion: capabilities?.supportsRawCommands ?? true)
        return TagBenchmark(
            id: id, label: label, url: "sim:ntag215", capabilities: capabilities, prepare: prepare,
            operation: operation, verify: verify, minimum: minimum,
            reference: NfcpyReference.write(image: image(holding: old, chip: .ntag215), message: bytes(message)))
    }

    /// A 100-byte URI message whose reads show the UID and the NFC counter, and its mirror.
    static let mirrored: (message: NFCNDEFMessage, request: Type2MirrorRequest?) = {
        // D1 01 60 55 04: 95 characters after https://, 21 of them the placeholder.
        let uri = "https://x.example/t?m={uid-mirror}x{counter-mirror}&p=" + String(repeating: "a", count: 57)
        let made = try? Type2MirrorTemplate(words: [uri]).message(words: [uri]) { words in
            NFCNDEFMessage(records: [try URIRecord(uri: words[0]).makeRecord()])
        }
        return made ?? (BenchmarkMessages.uri(length: 100), nil)
    }()

    /// `writeNDEF(_:mirror:)` of ``mirrored`` on a factory NTAG215: the plain write and the
    /// mirror's configuration.
    static let mirroredWrite = TagBenchmark(
        id: "write-ntag215-mirror", label: "write+verify 100 bytes with UID+counter mirror", url: "sim:ntag215",
        operation: { (tag: any NFCNDEFTag) async throws -> Void in
            try await tag.type2().writeNDEF(mirrored.message, mirror: mirrored.request)
        },
        verify: { (field: SimulatedField) -> String? in
            guard let memory = field.firstType2Memory, memory.message == mirrored.message else {
                return "the tag does not hold the message"
            }
            return memory.configuration?.mirror?.mode == .uidAndNFCCounter ? nil : "the mirror is not set up"
        },
        minimum: MinimumBudgets.mirroredWrite(message: bytes(mirrored.message), layout: .ntag215),
        reference: nil)

    /// `prepareLock` and `writeLock` of an NTAG215 holding a 100-byte URI message.
    static let lock = TagBenchmark(
        id: "lock-ntag215", label: "prepareLock + writeLock, NTAG215", url: "sim:ntag215",
        prepare: { (tag: any NFCNDEFTag) async throws -> Void in
            try await tag.type2().writeNDEF(BenchmarkMessages.uri(length: 100))
        },
        operation: { (tag: any NFCNDEFTag) async throws -> Void in
            let type2 = try tag.type2()
            let confirmation = try await type2.prepareLock()
            try await type2.writeLock(confirmation)
        },
        verify: { (field: SimulatedField) -> String? in
            field.firstType2Memory?.ndefStatus.status == .readOnly ? nil : "the tag is not read-only"
        },
        minimum: MinimumBudgets.lock(messageLength: 100, layout: .ntag215),
        reference: NfcpyReference.lock)

    /// `setPassword` on a factory NTAG215: protection from page 4, writes only.
    static let setPassword = TagBenchmark(
        id: "password-ntag215", label: "setPassword, NTAG215", url: "sim:ntag215",
        operation: { (tag: any NFCNDEFTag) async throws -> Void in try await tag.type2().setPassword(password) },
        verify: { (field: SimulatedField) -> String? in
            field.firstType2Memory?.configuration?.firstProtectedPage == 4 ? nil : "AUTH0 is not page 4"
        },
        minimum: MinimumBudgets.password(layout: .ntag215),
        reference: NfcpyReference.password)

    /// The encoding of a benchmark message (they all encode).
    static func bytes(_ message: NFCNDEFMessage) -> [UInt8] { (try? message.encoded()) ?? [] }

    /// The memory of a factory `chip` holding `message` (nil: as delivered), as TagMemory's write
    /// plan leaves it.
    static func image(holding message: NFCNDEFMessage?, chip: Type2Chip) -> [UInt8] {
        let factory = Type2Memory(bytes: SimulatedType2Tag.factoryImage(chip: chip), chip: chip)
        guard let message, let plan = try? factory.writePlan(for: message), let written = try? factory.applying(plan)
        else { return factory.bytes }
        return written.bytes
    }
}
