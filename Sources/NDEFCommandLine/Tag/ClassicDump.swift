import NFCSession
import TagMemory

/// Where `ndeftool dump` saves a MIFARE Classic card, and how.
struct ClassicDumpTarget {
    /// The file (`-` for standard output).
    var path: String
    /// The format's name as the user sees it.
    var formatName: String
    /// The format.
    var format: TagDumpFormat
    /// Whether to print what was saved as JSON.
    var json: Bool
}

/// `ndeftool dump` of a MIFARE Classic card: every block the keys open
/// (``NFCSession/NFCMiFareClassicTag/readCardImage(keys:)``), saved raw (libnfc's `.mfd`) or
/// as hex text, one block per line.
enum ClassicDump {
    /// What `--json` prints: never a key.
    struct Report: Encodable {
        var uid: String
        var chip: ChipJSON
        var blocks: Int
        var format: String
        var path: String
        /// Per sector: the kind of key that opened it ("A", "B", "A+B" or "none").
        var sectors: [SectorJSON]
        /// The sectors with blocks no key read (zeros in the dump).
        var incompleteSectors: [Int]
    }

    struct SectorJSON: Encodable {
        var sector: Int
        var openedWith: String
        var unreadBlocks: [Int]
    }

    /// Reads `card` with `keys` and saves it to `target` (reader errors are thrown as they come,
    /// for ``TagConnection`` to report). Exit status 78 when a sector kept a
    /// block from every key tried (the dump is saved all the same, with zeros there).
    static func save(
        _ card: NFCMiFareClassicTag, keys: MifareClassicKeyring?, to target: ClassicDumpTarget, io: any CommandIO
    ) async throws -> ExitStatus {
        guard target.format == .raw || target.format == .hexText else {
            throw CommandLineError(
                .usage,
                "a MIFARE Classic card is dumped raw (.mfd, .raw) or as hex text (.txt, .hex), not as \(target.formatName)"
            )
        }
        let image = try await card.readCardImage(keys: keys)
        let info = card.targetInfo
        let dump = TagDump(
            layout: .mifareClassic, memory: image.bytes, uid: info.uid, atqa: Array(info.atqa.reversed()),
            sak: info.sak, chipName: image.type.description)
        let bytes: [UInt8]
        do throws(TagMemoryError) {
            bytes = try dump.encoded(as: target.format)
        } catch {
            throw CommandLineError(
                .internalError, "the dump cannot be written as \(target.formatName): \(error.reason)")
        }
        if target.path == "-" {
            try io.writeOutput(bytes)
        } else {
            try FileAccess.writeFile(bytes, path: target.path)
        }
        let report = Report(
            uid: info.uidJSON, chip: ChipJSON(image.type.description), blocks: image.type.blockCount,
            format: target.formatName, path: target.path,
            sectors: image.sectors.map {
                SectorJSON(
                    sector: $0.number, openedWith: openedWith($0), unreadBlocks: $0.unreadBlocks)
            },
            incompleteSectors: image.incompleteSectors)
        if target.json {
            try io.writeOutput(try MessageJSON.text(of: report) + "\n")
        } else if target.path != "-" {
            try io.writeOutput(
                "Saved card \(info.uidDescription) (\(image.type)): \(image.type.blockCount) blocks to "
                    + "\(target.path) (\(target.format))\n")
        }
        guard image.incompleteSectors.isEmpty else {
            let sectors = image.incompleteSectors.map(String.init).joined(separator: ", ")
            io.writeError(
                "Error: no key tried opened every block of sector\(image.incompleteSectors.count == 1 ? "" : "s") "
                    + "\(sectors): saved as zeros. Give their keys with --keys-file ('sector N KEY' lines) "
                    + "and dump again.\n")
            return .authenticationFailed
        }
        return .success
    }

    /// The kind of key that opened `sector`.
    static func openedWith(_ sector: NFCMiFareClassicTag.CardImage.Sector) -> String {
        switch (sector.keyA != nil, sector.keyB != nil) {
        case (true, true): "A+B"
        case (true, false): "A"
        case (false, true): "B"
        case (false, false): "none"
        }
    }
}
