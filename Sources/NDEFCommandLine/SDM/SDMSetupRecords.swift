import Foundation
import HexText
import NDEF
import NFCCrypto
import SystemSupport

/// What this machine did last to an NTAG 424 DNA's keys with `sdm setup`: which file the keys
/// came from (the option and the file's absolute path, never a key), which file the keys it
/// started from came from (a move from one set-up to another, or `--factory`), when, and how far
/// it came, with check values of both key sets. A set-up that was cut leaves the tag with keys of
/// those files; a later run with other files is refused, and the record names the files that
/// finish it.
struct SDMSetupRecord: TagStateRecord, Equatable {
    /// How far the set-up came.
    enum Stage: String, Codable, Sendable {
        /// Confirmed and begun: the tag may hold some of the keys.
        case started
        /// Every step done.
        case done
    }

    /// The tag's UID, hex.
    var uid: String
    var stage: Stage
    /// `--keys-file` or `--master-key-file`.
    var option: String
    /// The file's absolute path.
    var path: String
    /// The first 4 bytes of SHA-256 over "ndeftool SDM keys" and the tag's five keys, hex: tells
    /// one file's keys from another's, and nothing usable of 640 random bits.
    var keyCheck: String
    /// When the set-up began (ISO 8601, UTC).
    var time: String
    /// For a set-up that started from keys other than the factory's: the option those keys came
    /// from (`--from-keys-file`, `--from-master-key-file`), its file's absolute path and the
    /// check value of those keys. Absent in records of set-ups from the factory keys.
    var fromOption: String?
    var fromPath: String?
    var fromKeyCheck: String?

    /// Whether this record is of a change to `keys` from `from` (nil: the factory keys).
    func isOf(keys: [[UInt8]], from: [[UInt8]]?) -> Bool {
        keyCheck == Self.keyCheck(keys) && fromKeyCheck == from.map(Self.keyCheck)
    }

    /// The command line options, with their files, that this record's change was run with.
    var options: String {
        var text = option.isEmpty ? "--factory" : "\(option) \(path)"
        if let fromOption, let fromPath { text = "\(fromOption) \(fromPath) " + text }
        return text
    }

    /// The check value of `keys`.
    static func keyCheck(_ keys: [[UInt8]]) -> String {
        let digest = (try? SHA256.hash(Array("ndeftool SDM keys".utf8) + keys.flatMap { $0 })) ?? []
        return Hex.encode(Array(digest.prefix(4)))
    }
}

/// The records of SDM set-ups: `.../ndeftool/sdm-setups/UID.json` (``TagStateRecords``), one per
/// tag, written before the first change.
typealias SDMSetupRecords = TagStateRecords<SDMSetupRecord>

extension TagStateRecords where Record == SDMSetupRecord {
    /// The records of SDM set-ups in the folder `io`'s environment gives.
    init(io: any CommandIO) {
        self.init(kind: "sdm-setups", subject: "the SDM set-up", io: io)
    }

    /// Writes `record`: the set-up must not begin without it.
    func save(_ record: SDMSetupRecord, uid: [UInt8]) async throws(CommandLineError) {
        try await save(record, uid: uid, untouched: "Nothing was sent")
    }

    /// The record of a set-up of `uid` with the keys `keys` from `option` `path` (empty for
    /// the factory keys of `--factory`), begun now; `from`: the keys it starts from, when not the
    /// factory's, with their option and file.
    static func started(
        uid: [UInt8], keys: [[UInt8]], option: String, path: String,
        from: (keys: [[UInt8]], option: String, path: String)? = nil
    ) -> SDMSetupRecord {
        let formatter = ISO8601DateFormatter()
        var record = SDMSetupRecord(
            uid: Hex.encode(uid), stage: .started, option: option, path: path.isEmpty ? "" : absolute(path),
            keyCheck: SDMSetupRecord.keyCheck(keys), time: formatter.string(from: Date()))
        if let from {
            record.fromOption = from.option
            record.fromPath = absolute(from.path)
            record.fromKeyCheck = SDMSetupRecord.keyCheck(from.keys)
        }
        return record
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
