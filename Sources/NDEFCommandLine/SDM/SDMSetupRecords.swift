import Foundation
import NDEF
import NFCCrypto
import SystemSupport

/// What this machine did last to an NTAG 424 DNA's keys with `sdm setup`: which file the keys
/// came from (the option and the file's absolute path, never a key), when, and how far it came,
/// with a check value of the tag's keys. A set-up that was cut leaves the tag with keys of that
/// file; a later run with another file is refused, and the record names the file that finishes
/// it.
struct SDMSetupRecord: Codable, Sendable, Equatable {
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
        return NDEFHex.encode(Array(digest.prefix(4)))
    }
}

/// Where the records of SDM set-ups are kept: `$XDG_STATE_HOME/ndeftool/sdm-setups/UID.json`
/// (default `~/.local/state/...`), one per tag, written crash-safe before the first change.
struct SDMSetupRecords: Sendable {
    let directory: String?

    init(io: any CommandIO) {
        if let state = io.environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            directory = state + "/ndeftool/sdm-setups"
        } else if let home = io.environment("HOME"), home.hasPrefix("/") {
            directory = home + "/.local/state/ndeftool/sdm-setups"
        } else {
            directory = nil
        }
    }

    func path(uid: [UInt8]) -> String? { directory.map { $0 + "/" + NDEFHex.encode(uid) + ".json" } }

    /// The record of `uid`, if there is a readable one about that tag.
    func load(uid: [UInt8]) -> SDMSetupRecord? {
        guard let path = path(uid: uid),
            let bytes = try? FileAccess.readFile(path: path, limit: 64 * 1024),
            let record = try? JSONDecoder().decode(SDMSetupRecord.self, from: Data(bytes)),
            record.uid == NDEFHex.encode(uid)
        else { return nil }
        return record
    }

    /// Writes `record`, off the cooperative pool.
    ///
    /// - Throws: ``ExitStatus/ioError`` when it cannot be written: the set-up must not begin
    ///   without it.
    func save(_ record: SDMSetupRecord, uid: [UInt8]) async throws(CommandLineError) {
        guard let directory, let path = path(uid: uid) else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(record) else {
            throw CommandLineError(.ioError, "cannot encode the record of the SDM set-up")
        }
        let bytes = Array(data) + [0x0A]
        if let failure = await BlockingCall.run({
            FileAccess.replaceFile(bytes, path: path, in: directory, mode: 0o600)
        }) {
            throw CommandLineError(
                .ioError, "cannot keep the record of the SDM set-up in '\(path)': \(failure). Nothing was sent")
        }
    }

    /// The record of a set-up of `uid` with the keys `keys` from `option` `path`, begun now.
    static func started(uid: [UInt8], keys: [[UInt8]], option: String, path: String) -> SDMSetupRecord {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let formatter = ISO8601DateFormatter()
        return SDMSetupRecord(
            uid: NDEFHex.encode(uid), stage: .started, option: option, path: absolute,
            keyCheck: SDMSetupRecord.keyCheck(keys), time: formatter.string(from: Date()))
    }
}
