import HexText
import NFCSession
import NTAG424

/// The NTAG 424 DNA secure unique messages a job sets up on each tag (NT4H2421Gx 9.3; AN12196
/// 4-5): the row's URL with `{picc}` and `{mac}`, SDM on the NDEF file, and the tag's own keys,
/// diversified from a master key with its UID (``NTAG424/NTAG424MasterKey``, NXP AN10922), so
/// one tag's keys open no other. The journal holds no key: only the master key's check value.
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

    /// A plan with `masterKey` (16 bytes).
    ///
    /// - Throws: ``ProvisioningError/Code/crypto`` when libcrypto fails;
    ///   ``ProvisioningError/Code/invalidRange`` for a key version of 0.
    public init(masterKey: NTAG424MasterKey, keyVersion: UInt8 = 1, locksNDEF: Bool = false)
        throws(ProvisioningError)
    {
        guard keyVersion != 0 else {
            throw ProvisioningError(.invalidRange, "key version 0 is the factory's: choose 1-255")
        }
        self.masterKey = masterKey
        self.keyVersion = keyVersion
        self.locksNDEF = locksNDEF
        do {
            keyCheckValue = Hex.encode(Array(try masterKey.keyCheckValue()), uppercase: true)
        } catch {
            throw ProvisioningError(.crypto, "the master key's check value: \(error.reason)")
        }
    }

    /// The set-up of `url` on the tag `uid`, with its own keys.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` for a URL that makes no
    ///   template or keys that cannot be derived.
    public func plan(url: String, uid: [UInt8]) throws(NFCReaderError) -> NTAG424SDMPlan {
        do {
            return try NTAG424SDMPlan(
                template: try NTAG424SDMTemplate(url: url), keys: try masterKey.keys(uid: uid), keyVersion: keyVersion,
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
    /// and ``keyCheckValue`` (a resume with another master key differs in it), never a key.
    public var journalOptions: [String: String] {
        [
            "sdm": "master-key", "sdm-meta-read-key": String(masterKey.metaReadKey),
            "sdm-file-read-key": String(masterKey.fileReadKey), "sdm-key-version": String(keyVersion),
            "sdm-lock-ndef": locksNDEF ? "yes" : "no", Self.keyCheckOption: keyCheckValue,
        ]
    }

    /// The journal option that holds the master key's check value.
    public static let keyCheckOption = "sdm-master-key-check"

    public var description: String {
        "NTAG 424 DNA SDM, keys diversified per tag (AN10922), PICCData key \(masterKey.metaReadKey) (shared), "
            + "SDMMAC key \(masterKey.fileReadKey), key version \(keyVersion)"
            + (locksNDEF ? ", NDEF file writable with key 0 only" : "")
    }
}
