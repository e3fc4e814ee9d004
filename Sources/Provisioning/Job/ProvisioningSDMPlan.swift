import HexText
import NFCSession
import NTAG424

/// The NTAG 424 DNA secure unique messages a job sets up on each tag (NT4H2421Gx 9.3; AN12196
/// 4-5): the row's URL with `{picc}` and `{mac}`, SDM on the NDEF file, and the tag's own keys,
/// diversified from a master key with its UID (``NTAG424/NTAG424MasterKey``, NXP AN10922), so
/// one tag's keys open no other. The journal holds no key: only the master key's check value.
///
/// With ``fromMasterKey`` the job moves tags set up with another master key's keys to this
/// one's (key rotation, ``NFCSession/NFCNTAG424Tag/setUpSDM(_:from:confirmation:progress:)``):
/// each key changed from the old master's key, the new URL and settings first.
public struct ProvisioningSDMPlan: Sendable, CustomStringConvertible {
    /// The master key, with the SDM key numbers.
    public var masterKey: NTAG424MasterKey
    /// The version every changed key gets (1-255).
    public var keyVersion: UInt8
    /// Whether the NDEF file's write access goes to key 0.
    public var locksNDEF: Bool
    /// The master key's check value: the first 3 bytes of AES-128(master key, 16 zero bytes),
    /// the usual key check value, as hex.
    public let keyCheckValue: String
    /// The master key the tags' present keys were derived from, for a job that moves set-up tags
    /// to ``masterKey``'s keys; nil: the tags come with their factory keys.
    public let fromMasterKey: NTAG424MasterKey?
    /// ``fromMasterKey``'s check value, as hex.
    public let fromKeyCheckValue: String?

    /// A plan with `masterKey` (16 bytes), for tags with factory keys or, with `from`, for tags
    /// set up with the keys of the master key `from`.
    ///
    /// - Throws: ``ProvisioningError/Code/crypto`` when libcrypto fails;
    ///   ``ProvisioningError/Code/invalidRange`` for a key version of 0.
    public init(
        masterKey: NTAG424MasterKey, keyVersion: UInt8 = 1, locksNDEF: Bool = false, from: NTAG424MasterKey? = nil
    ) throws(ProvisioningError) {
        guard keyVersion != 0 else {
            throw ProvisioningError(.invalidRange, "key version 0 is the factory's: choose 1-255")
        }
        self.masterKey = masterKey
        self.keyVersion = keyVersion
        self.locksNDEF = locksNDEF
        fromMasterKey = from
        do {
            keyCheckValue = Hex.encode(Array(try masterKey.keyCheckValue()), uppercase: true)
            if let from {
                fromKeyCheckValue = Hex.encode(Array(try from.keyCheckValue()), uppercase: true)
            } else {
                fromKeyCheckValue = nil
            }
        } catch {
            throw ProvisioningError(.crypto, "the master key's check value: \(error.reason)")
        }
    }

    /// The keys the tag `uid` holds before the job: the factory's, or derived from
    /// ``fromMasterKey``.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` when the keys cannot be
    ///   derived.
    public func previousKeys(uid: [UInt8]) throws(NFCReaderError) -> NTAG424KeySet {
        guard let fromMasterKey else { return .factory }
        do {
            return try NTAG424KeySet(try fromMasterKey.keys(uid: uid))
        } catch let error as NFCReaderError {
            throw error
        } catch let error as NTAG424Error {
            throw NFCReaderError(.invalidParameter, error.reason)
        } catch {
            throw NFCReaderError(.invalidParameter, "\(error)")
        }
    }

    /// The set-up of `url` on the tag `uid`, with its own keys, and `fileData` for `{enc}`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a URL that makes no
    ///   template or keys that cannot be derived.
    public func plan(url: String, uid: [UInt8], fileData: [UInt8]? = nil) throws(NFCReaderError) -> NTAG424SDMPlan {
        do {
            return try NTAG424SDMPlan(
                template: try NTAG424SDMTemplate(url: url, fileData: fileData), keys: try masterKey.keys(uid: uid),
                keyVersion: keyVersion,
                metaReadKey: masterKey.metaReadKey, fileReadKey: masterKey.fileReadKey, locksNDEF: locksNDEF)
        } catch let error as NFCReaderError {
            throw error
        } catch let error as NTAG424Error {
            throw NFCReaderError(.invalidParameter, error.reason)
        } catch {
            throw NFCReaderError(.invalidParameter, "\(error)")
        }
    }

    /// What the journal header records: the mode, the key numbers, the version, the NDEF lock
    /// and ``keyCheckValue`` (a resume with another master key differs in it), and
    /// ``fromKeyCheckValue`` for a move; never a key.
    public var journalOptions: [String: String] {
        var options = [
            "sdm": "master-key", "sdm-meta-read-key": String(masterKey.metaReadKey),
            "sdm-file-read-key": String(masterKey.fileReadKey), "sdm-key-version": String(keyVersion),
            "sdm-lock-ndef": locksNDEF ? "yes" : "no", Self.keyCheckOption: keyCheckValue,
        ]
        if let fromKeyCheckValue { options[Self.fromKeyCheckOption] = fromKeyCheckValue }
        return options
    }

    /// The journal option that holds the master key's check value.
    public static let keyCheckOption = "sdm-master-key-check"
    /// The journal option that holds the check value of the master key a move starts from.
    public static let fromKeyCheckOption = "sdm-from-master-key-check"

    public var description: String {
        "NTAG 424 DNA SDM, keys diversified per tag (AN10922), PICCData key \(masterKey.metaReadKey) (shared), "
            + "SDMMAC key \(masterKey.fileReadKey), key version \(keyVersion)"
            + (locksNDEF ? ", NDEF file writable with key 0 only" : "")
            + (fromKeyCheckValue.map { ", moved from the keys of master key \($0) (check value)" } ?? "")
    }
}
