import HexText
import NDEF
import NFCCrypto
import NFCSession
import SystemSupport
import TagMemory

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What this machine knows of the last password change of a tag: which password the tag held
/// when the change began, which one it was given, and how far the change came, kept in
/// `$XDG_STATE_HOME/ndeftool/password-changes/UID.json` (default `~/.local/state/...`, XDG Base
/// Directory Specification 0.8).
///
/// A change that keeps AUTH0, PROT and AUTHLIM ends where it began but for the password, so the
/// tag alone cannot tell a rerun whether it holds the old password or the new one, and with
/// AUTHLIM set a wrong guess counts toward losing the password for good (NTAG213/215/216
/// 8.8.2). The record settles it: written (and synced) before the first write, again once the
/// new password answered its PACK, and once the change is complete.
///
/// It holds no password: each is kept as a 2-byte check value, the first bytes of scrypt over
/// the password and the record's random salt (RFC 7914, N 2^15, r 8, p 1). That tells the two
/// passwords of a command apart (one pair in 65,536 looks alike, and then the command asks
/// instead of guessing), and searching the 2^32 passwords for one that matches costs years of
/// computing and still leaves 65,536 candidates. The PACK and the settings are kept as they are:
/// a rerun that was cut with the tag unprotected sets what the first run meant.
struct PasswordChangeRecord: TagStateRecord, Equatable {
    /// How far the change came.
    enum Stage: String, Codable, Sendable {
        /// Nothing written, or some writes of the first part: the tag holds ``from`` (or no
        /// protection).
        case started
        /// The new password answered its PACK: the tag holds ``to`` (with or without protection).
        case checked
        /// Complete and read back: the tag holds ``to`` with the settings of ``settings``.
        case done
    }

    /// The settings the change sets (as `password set` resolved them).
    struct Settings: Codable, Sendable, Equatable {
        var firstProtectedPage: Int
        var protectsReading: Bool
        var authenticationLimit: Int
        /// The PACK, hex.
        var pack: String
    }

    /// The tag's UID, hex.
    var uid: String
    var stage: Stage
    /// The salt of the check values, hex.
    var salt: String
    /// The check value of the password the tag held when the change began; nil when it was not
    /// protected.
    var from: String?
    /// The check value of the new password.
    var to: String
    var settings: Settings

    /// A record for a change of `uid`'s password from `old` (nil: the tag was not protected) to
    /// `new`, with a new salt.
    init(uid: [UInt8], from old: [UInt8]?, to new: [UInt8], settings: Settings) throws {
        let salt = try SecureRandom.bytes(count: 16)
        self.uid = Hex.encode(uid)
        self.stage = .started
        self.salt = Hex.encode(salt)
        self.from = try old.map { try Self.checkValue($0, salt: salt) }
        self.to = try Self.checkValue(new, salt: salt)
        self.settings = settings
    }

    /// The check value of `password` under `salt`: 2 bytes of scrypt, hex.
    static func checkValue(_ password: [UInt8], salt: [UInt8]) throws -> String {
        Hex.encode(Array(try PasswordHash.scrypt(password: password, salt: salt).prefix(2)))
    }

    /// Whether the record can describe a tag with `status`: once the new password was checked,
    /// a protected tag that shows its settings shows those of the record (the change sets them
    /// only then); before, any (the old settings are not kept).
    func agrees(with status: NFCPasswordStatus) -> Bool {
        guard stage != .started, case .from(let page, let readProtected) = status.protection else { return true }
        return page == settings.firstProtectedPage && readProtected == settings.protectsReading
            && (status.authenticationLimit.map { $0 == settings.authenticationLimit } ?? true)
    }

    /// Whether `password` has the check value `value` under this record's salt.
    func matches(_ password: [UInt8], _ value: String?) -> Bool {
        guard let value, let salt = try? Hex.decode(salt) else { return false }
        return (try? Self.checkValue(password, salt: salt)) == value
    }
}

/// The records of password changes: `.../ndeftool/password-changes/UID.json`
/// (``TagStateRecords``).
typealias PasswordChangeRecords = TagStateRecords<PasswordChangeRecord>

extension TagStateRecords where Record == PasswordChangeRecord {
    /// The records of password changes in the folder `io`'s environment gives.
    init(io: any CommandIO) {
        self.init(kind: "password-changes", subject: "the password change", io: io)
    }

    /// Writes `record`: the change must not go on without it.
    func save(_ record: PasswordChangeRecord, uid: [UInt8]) async throws(CommandLineError) {
        try await save(record, uid: uid, untouched: "Nothing more was written to the tag")
    }

    /// Puts `record` back as `uid`'s record, or removes it when there was none (after a command
    /// that wrote nothing); a failure is left unsaid (the record then tells of a change that may
    /// have begun, which a later run treats with care).
    func restore(_ record: PasswordChangeRecord?, uid: [UInt8]) async {
        if let record {
            try? await save(record, uid: uid)
        } else {
            await remove(uid: uid)
        }
    }
}
