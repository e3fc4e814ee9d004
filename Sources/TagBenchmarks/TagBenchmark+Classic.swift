import BenchmarkSupport
import NDEF
import NFCSession
import TagMemory
import TagSimulator

extension NFCNDEFTag {
    /// The MIFARE Classic card, or a failure.
    func classic() throws(BenchmarkFailure) -> NFCMiFareClassicTag {
        guard let tag = self as? NFCMiFareClassicTag else { throw BenchmarkFailure("expected a MIFARE Classic card") }
        return tag
    }
}

/// The MIFARE Classic operations: `sim:classic1k`, a factory 1K (MF1S50yyX: transport keys FFFFFFFFFFFF,
/// access bits FF 07 80) formatted for NDEF with the NXP layout (AN1304, AN10787).
extension TagBenchmark {
    /// The keys the benchmarks format with: only the key B to install (the public keys are always tried).
    static let classicKeys = MifareClassicKeyring(keyBToInstall: MifareClassicKey((0x4B, 0x65, 0x79, 0x20, 0x42, 0x21)))

    /// The MIFARE Classic operations, in the order of the table.
    static let classic: [TagBenchmark] = [classicFormatWriteRead, classicWrite, classicRead]

    /// Formats `tag` with ``classicKeys``.
    static func format(_ tag: NFCMiFareClassicTag) async throws {
        try await tag.format(keys: classicKeys, confirmation: try await tag.prepareFormat(keys: classicKeys))
    }

    /// Whether the first card of `field` holds `message`.
    static func holds(_ field: SimulatedField, _ message: NFCNDEFMessage) -> String? {
        guard let card = field.tags.first?.classicTag else { return "no MIFARE Classic card" }
        return card.memory.message == message ? nil : "the card does not hold the message"
    }

    /// The operation: format a factory 1K, write a 100-byte URI (verified), read it back.
    static var classicFormatWriteRead: TagBenchmark {
        let message = BenchmarkMessages.uri(length: 100)
        return TagBenchmark(
            id: "classic-format-write-read", label: "Classic 1K: format + write+verify 100 B + read",
            url: "sim:classic1k",
            operation: { (tag: any NFCNDEFTag) async throws -> Void in
                let card = try tag.classic()
                try await format(card)
                try await card.writeNDEF(message)
                guard try await card.readNDEF() == message else { throw BenchmarkFailure("read another message") }
            },
            verify: { (field: SimulatedField) -> String? in holds(field, message) },
            minimum: MinimumBudgets.classicFormatWriteRead(messageLength: 100))
    }

    /// `writeNDEF` of a 100-byte URI on a formatted, empty 1K (read back).
    static var classicWrite: TagBenchmark {
        let message = BenchmarkMessages.uri(length: 100)
        return TagBenchmark(
            id: "classic-write", label: "Classic 1K: write+verify 100-byte URI", url: "sim:classic1k",
            prepare: { (tag: any NFCNDEFTag) async throws -> Void in try await format(try tag.classic()) },
            operation: { (tag: any NFCNDEFTag) async throws -> Void in try await tag.classic().writeNDEF(message) },
            verify: { (field: SimulatedField) -> String? in holds(field, message) },
            minimum: MinimumBudgets.classicWrite(messageLength: 100))
    }

    /// `readNDEF` of a 100-byte URI on a formatted 1K.
    static var classicRead: TagBenchmark {
        let message = BenchmarkMessages.uri(length: 100)
        return TagBenchmark(
            id: "classic-read", label: "Classic 1K: read 100-byte URI", url: "sim:classic1k",
            prepare: { (tag: any NFCNDEFTag) async throws -> Void in
                let card = try tag.classic()
                try await format(card)
                try await card.writeNDEF(message)
            },
            operation: { (tag: any NFCNDEFTag) async throws -> Void in
                guard try await tag.classic().readNDEF() == message else { throw BenchmarkFailure("read another") }
            },
            verify: { (field: SimulatedField) -> String? in holds(field, message) },
            minimum: MinimumBudgets.classicRead(messageLength: 100))
    }
}

extension MinimumBudgets {
    /// The NFC sectors and data blocks that `bytes` bytes of a 1K's NDEF data area take from
    /// its start (sector 1, 48 data bytes a sector, 16 a block: AN1304).
    static func classicSpan(bytes: Int) -> (sectors: Int, blocks: Int) {
        ((bytes + 47) / 48, (bytes + 15) / 16)
    }

    /// Reading the MAD of a 1K (AN10787): sector 0 with the MAD key A, MAD1 in blocks 1-2 and
    /// the GPB in the trailer (DA bit and MAD version).
    static let classicDirectory: [CommandBudget.Part] = [
        .init(count: 1, command: "AUTH_A", reason: "sector 0, MAD key A"),
        .init(count: 3, command: "READ", reason: "MAD1 blocks 1-2 and the GPB"),
    ]

    /// Reading a `length`-byte message on a formatted 1K (AN1304): the MAD, then the sectors
    /// the TLV's 2-byte header and the message take, each with its trailer (the GPB's mapping
    /// version and read access), and only the data blocks the TLV covers.
    static func classicRead(messageLength length: Int) -> CommandBudget {
        let (sectors, blocks) = classicSpan(bytes: length + 2)
        return CommandBudget(
            parts: classicDirectory + [
                .init(count: sectors, command: "AUTH_A", reason: "the message's sectors, NFC Forum key A"),
                .init(count: sectors, command: "READ", reason: "their trailers: GPB version and access"),
                .init(count: blocks, command: "READ", reason: "the blocks of the \(length + 2)-byte TLV"),
            ])
    }

    /// Writing a `length`-byte message on a formatted, empty 1K, tearing-safe and read back:
    /// the MAD; each sector the new TLV (header, message, Terminator) takes, its trailer read
    /// for the write access and its data blocks written under that authentication, the first
    /// block (which holds the length, 0 on an empty card) read first and written last; then
    /// every block read back.
    static func classicWrite(messageLength length: Int) -> CommandBudget {
        let (sectors, blocks) = classicSpan(bytes: length + 3)
        return CommandBudget(
            parts: classicDirectory + [
                .init(count: sectors, command: "AUTH_A", reason: "the new TLV's sectors"),
                .init(count: sectors, command: "READ", reason: "their trailers: write access"),
                .init(count: 1, command: "READ", reason: "the first block: the current length"),
                .init(count: blocks - 1, command: "WRITE", reason: "the data blocks"),
                .init(count: 1, command: "AUTH_A", reason: "sector 1 again"),
                .init(count: 1, command: "WRITE", reason: "the first block, with the length, last"),
                .init(count: sectors - 1, command: "AUTH_A", reason: "the other sectors again, for the read-back"),
                .init(count: blocks, command: "READ", reason: "read-back"),
            ])
    }

    /// Formatting a factory 1K for NDEF (AN1304, AN10787), so that a cut leaves every sector
    /// with its old keys or the new ones: every sector surveyed before the first write (its
    /// trailer, and its data blocks: only those that differ are written), then each sector
    /// opened again, its data written and read back, its trailer written and proved by
    /// authenticating with the new key A (reading the access bits back) and the new key B.
    static func classicFormat(sectors: Int = 16) -> [CommandBudget.Part] {
        [
            .init(count: sectors, command: "AUTH_A", reason: "survey: each sector, transport key"),
            .init(count: sectors, command: "READ", reason: "survey: the trailers"),
            .init(count: sectors * 3 - 1, command: "READ", reason: "survey: the data blocks but block 0"),
            .init(count: sectors, command: "AUTH_A", reason: "each sector again, to write"),
            .init(count: 3, command: "WRITE", reason: "MAD1 blocks 1-2 and the empty NDEF TLV"),
            .init(count: 3, command: "READ", reason: "their read-back"),
            .init(count: sectors, command: "WRITE", reason: "the trailers"),
            .init(count: sectors, command: "AUTH_A", reason: "the new key A"),
            .init(count: sectors, command: "READ", reason: "the trailers' access bits read back"),
            .init(count: sectors, command: "AUTH_B", reason: "the new key B"),
        ]
    }

    /// The operation: format, write and read back, and read, each on its own (the
    /// write reads the MAD the format wrote; nothing is shared between the three).
    static func classicFormatWriteRead(messageLength length: Int) -> CommandBudget {
        CommandBudget(
            parts: classicFormat() + classicWrite(messageLength: length).parts
                + classicRead(messageLength: length).parts,
            note: "format 165 (survey 79, writes 86) + write 28 + read 17; the format's first command, an "
                + "authentication of sector 0 with the MAD key A (is the card NDEF formatted already?), is not in it")
    }
}
