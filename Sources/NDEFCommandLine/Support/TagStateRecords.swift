import HexText
import NDEF
import SystemSupport

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A record this machine keeps about one tag (``PasswordChangeRecord``, ``SDMSetupRecord``):
/// JSON, about the tag whose UID it names.
protocol TagStateRecord: Codable, Sendable {
    /// The tag's UID, hex.
    var uid: String { get }
}

/// Where the records of one kind are kept, one file per tag: `$XDG_STATE_HOME/ndeftool/KIND/UID.json`
/// or `$HOME/.local/state/ndeftool/KIND/UID.json` (XDG Base Directory Specification 0.8), written
/// crash-safe (a temporary file, synced, renamed over the old one, the folder synced) with mode
/// 0600, off the cooperative pool; read through the regular-file check.
struct TagStateRecords<Record: TagStateRecord>: Sendable {
    /// The folder of the records; nil when neither variable is set to an absolute path (no record
    /// is kept: a rerun that needs one then asks).
    let directory: String?
    /// What a record is about, for messages ("the password change", "the SDM set-up").
    let subject: String

    /// The records of `kind` (the folder's name) in the folder `io`'s environment gives.
    init(kind: String, subject: String, io: any CommandIO) {
        self.subject = subject
        if let state = io.environment("XDG_STATE_HOME"), state.hasPrefix("/") {
            directory = state + "/ndeftool/" + kind
        } else if let home = io.environment("HOME"), home.hasPrefix("/") {
            directory = home + "/.local/state/ndeftool/" + kind
        } else {
            directory = nil
        }
    }

    /// The file of `uid`'s record.
    func path(uid: [UInt8]) -> String? { directory.map { $0 + "/" + Hex.encode(uid) + ".json" } }

    /// The record of `uid`, if there is one that can be read and is about that tag.
    func load(uid: [UInt8]) -> Record? {
        guard let path = path(uid: uid),
            let bytes = try? FileAccess.readFile(path: path, limit: 64 * 1024),
            let record = try? JSONDecoder().decode(Record.self, from: Data(bytes)),
            record.uid == Hex.encode(uid)
        else { return nil }
        return record
    }

    /// Writes `record` as `uid`'s.
    ///
    /// - Throws: ``CommandLineError`` with ``CommandLineError/Code/ioError`` when it cannot be
    ///   written, saying `untouched` (what was not done for want of it).
    func save(_ record: Record, uid: [UInt8], untouched: String) async throws(CommandLineError) {
        guard let directory, let path = path(uid: uid) else { return }
        let bytes: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            bytes = Array(try encoder.encode(record)) + [0x0A]
        } catch {
            throw CommandLineError(.ioError, "cannot encode the record of \(subject): \(error)")
        }
        let failure = await BlockingCall.run { FileAccess.replaceFile(bytes, path: path, in: directory, mode: 0o600) }
        if let failure {
            throw CommandLineError(
                .ioError, "cannot keep the record of \(subject) in '\(path)': \(failure). \(untouched)")
        }
    }

    /// Removes `uid`'s record; a failure is left unsaid.
    func remove(uid: [UInt8]) async {
        guard let path = path(uid: uid) else { return }
        _ = await BlockingCall.run { unlink(path) }
    }
}
