import HexText
import NDEF
import SystemSupport
import TagMemory

/// What a simulated NTAG21x's tag file says about its password protection: the facts the
/// exploration's invariants are about, read from the file the simulated reader keeps (a Flipper
/// `.nfc` dump with PWD, PACK and the failed PWD_AUTH count, NTAG213/215/216 8.8).
struct TagState: Equatable, CustomStringConvertible {
    /// The file's bytes, to tell a tag left byte for byte.
    var bytes: [UInt8]
    /// PWD (page E5h of an NTAG215).
    var password: [UInt8]
    /// PACK.
    var pack: [UInt8]
    /// AUTH0: the first protected page (protection is off when it is past the last page).
    var auth0: Int
    /// PROT: reads are protected too.
    var readProtected: Bool
    /// AUTHLIM: failed attempts before the password is disabled (0: unlimited).
    var attemptLimit: Int
    /// Failed PWD_AUTH attempts the chip counted.
    var failedAttempts: Int
    /// The chip's pages.
    var pageCount: Int
    /// The URI of the NDEF message's first record, when it is a URI record.
    var uri: String?
    /// Whether the tag is read-only: the CC's write access is 0Fh and page 4 is locked (NFC Forum
    /// Type 2 Tag 4.6, NTAG213/215/216 8.5).
    var isReadOnly: Bool
    /// The UID from the dump.
    var uid: [UInt8]

    /// Whether a password protects pages now.
    var isProtected: Bool { auth0 < pageCount }

    /// Whether the chip answers every PWD_AUTH with NAK 4h for good (AUTHLIM reached).
    var isDisabled: Bool { attemptLimit > 0 && failedAttempts >= attemptLimit }

    /// The protection settings a change must keep or set: AUTH0, PROT, AUTHLIM, PACK.
    var settings: Settings {
        Settings(auth0: auth0, readProtected: readProtected, attemptLimit: attemptLimit, pack: pack)
    }

    struct Settings: Equatable, CustomStringConvertible {
        var auth0: Int
        var readProtected: Bool
        var attemptLimit: Int
        var pack: [UInt8]

        var description: String {
            "AUTH0 \(auth0), PROT \(readProtected ? 1 : 0), AUTHLIM \(attemptLimit), PACK \(Hex.encode(pack, uppercase: true))"
        }
    }

    /// The state in the tag file at `path`; nil when there is no file yet (a factory tag).
    init?(path: String) throws {
        guard let bytes = FileBytes.read(path) else { return nil }
        let dump = try TagDump(decoding: bytes, fileName: path)
        let chip = Type2Chip.ntag215
        let memory = Type2Memory(bytes: dump.memory, chip: chip)
        guard let configuration = memory.configuration else {
            throw ExplorationFailure("the tag file \(path) has no configuration pages")
        }
        self.bytes = bytes
        password = configuration.password
        pack = configuration.passwordAcknowledge
        auth0 = Int(configuration.auth0)
        readProtected = configuration.isReadProtected
        attemptLimit = configuration.authenticationLimit
        failedAttempts = Int(dump.failedAuthenticationAttempts ?? 0)
        pageCount = chip.pageCount
        uri = memory.message?.records.first?.wellKnownURI
        isReadOnly = dump.memory.count > 15 && dump.memory[15] == 0x0F && memory.isPageLocked(4)
        uid = dump.uid ?? []
    }

    var description: String {
        "PWD \(Hex.encode(password, uppercase: true)), \(settings), failed attempts \(failedAttempts)"
            + (isDisabled ? " (DISABLED)" : "")
    }
}

/// An invariant that does not hold, or the exploration itself failing.
struct ExplorationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
