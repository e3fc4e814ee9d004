import Foundation
import HexText
import NDEF
import NFCCrypto
import SystemSupport

/// What this machine did last to an NTAG 424 DNA's keys with `sdm setup`: which file the keys
/// came from (the option and the file's absolute path, never a key), when, and how far it came,
/// with a check value of the tag's keys. A set-up that was cut leaves the tag with keys of that
/// file; a later run with another file is refused, and the record names the file that finishes
/// it.
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

    /// The record of a set-up of `uid` with the keys `keys` from `option` `path`, begun now.
    static func started(uid: [UInt8], keys: [[UInt8]], option: String, path: String) -> SDMSetupRecord {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let formatter = ISO8601DateFormatter()
        return SDMSetupRecord(
            uid: Hex.encode(uid), stage: .started, option: option, path: absolute,
            keyCheck: SDMSetupRecord.keyCheck(keys), time: formatter.string(from: Date()))
    }
}
