import HexText
import NDEF
import NFCCrypto
import NFCSession
import TagMemory

/// How a job provisions each tag and how long its readers wait.
public struct ProvisioningJobSettings: Sendable {
    /// Whether each tag is made read-only for good after its verified write. The caller
    /// confirms this once for the job (``ProvisioningLockConfirmation``) before running it.
    public var locks: Bool
    /// The password each tag gets, or nil.
    public var password: ProvisioningPasswordPlan?
    /// The NTAG 424 DNA secure messages each tag gets (the template holds `{picc}` and `{mac}`),
    /// or nil. Changing a tag's keys is for good to whoever lacks them: the caller confirms the
    /// job once (``ProvisioningLockConfirmation``) before running it.
    public var sdm: ProvisioningSDMPlan?
    /// How long a station waits for its next tag before it stops; nil: until the job ends or
    /// is stopped. Measured from the moment the station is ready to poll, and a station
    /// decides that no tag came only after a poll made when the time was up: a station that
    /// waited for a thread polls again before it gives up. A station whose reader brings a
    /// known supply (``ProvisioningStation/hasNoMoreTags``) needs no tag wait: it stops when the
    /// supply is used up.
    public var tagWait: Duration?
    /// How often a waiting station checks whether the job ended or was stopped.
    public var checkInterval: Duration
    /// How the readers' sessions poll.
    public var sessionOptions: NFCTagReaderSession.Options
    /// The clock stations wait on and measure ``tagWait`` with: by default the continuous clock
    /// with dispatch timers (``NFCSession/DispatchTimerClock``), so a station's pauses end on
    /// its own executor even when every thread of the cooperative pool is busy; in tests one
    /// whose waits take no time.
    public var clock: any Clock<Duration>
    /// The largest NDEF message any tag the job's readers can bring holds, when known (the chips
    /// of simulated readers): a row whose message is larger fails at its first refusal. Nil:
    /// unknown, as for real readers.
    public var largestTagCapacity: Int?
    /// How many tags may refuse a row as too large before the row is marked failed ("fits no
    /// tag the job gets") and the job goes on without it; each refusal gives the row back for
    /// the next tag, which may be larger.
    public var sizeRefusalLimit: Int = 3
    /// When set, a tag gets a fresh row only when its originality signature (READ_SIG) verifies
    /// under one of these keys (``NFCSession/NFCOriginalityKey``); any other tag is refused
    /// before anything is written, and the row goes to the next tag. Nil: no check.
    public var genuineKeys: [NFCOriginalityKey]?
    /// The keys for MIFARE Classic cards, or nil. With them a card that is not NDEF formatted is
    /// formatted for NDEF first (NXP AN1304: the MAD, the NFC Forum key A, the keyring's key B in
    /// every sector; ``NFCSession/NFCMiFareClassicTag/format(keys:confirmation:)``), and
    /// ``locks`` uses their key B (AN1305). Installing a key B is for good to whoever lacks it:
    /// the caller confirms the job once (``ProvisioningLockConfirmation``). A journal holds only
    /// the key B's check value (``classicKeysCheck(_:)``), never a key.
    public var classicKeys: MifareClassicKeyring? {
        didSet { classicKeyBCheck = classicKeys?.keyBToInstall.flatMap(Self.classicKeysCheck) }
    }
    /// The check value of ``classicKeys``' key B (``classicKeysCheck(_:)``), computed once.
    public private(set) var classicKeyBCheck: String?

    /// Settings: no lock, no password, waiting for tags until the job ends.
    public init(
        locks: Bool = false, password: ProvisioningPasswordPlan? = nil, tagWait: Duration? = nil,
        checkInterval: Duration = .milliseconds(200),
        sessionOptions: NFCTagReaderSession.Options = NFCTagReaderSession.Options(),
        clock: any Clock<Duration> = DispatchTimerClock()
    ) {
        self.clock = clock
        self.locks = locks
        self.password = password
        self.tagWait = tagWait
        self.checkInterval = checkInterval
        self.sessionOptions = sessionOptions
    }

    /// Whether the job does something irreversible to every tag (``locks``, or ``sdm``'s key
    /// change) and so needs the job's confirmation (``ProvisioningLockConfirmation``).
    public var needsConfirmation: Bool { locks || sdm != nil || classicKeys != nil }

    /// The options a journal header records for these settings (never a secret).
    public var journalOptions: [String: String] {
        var options = ["lock": locks ? "yes" : "no"]
        if let password {
            options.merge(password.journalOptions) { first, _ in first }
        } else {
            options["password"] = "none"
        }
        if let sdm { options.merge(sdm.journalOptions) { first, _ in first } }
        if classicKeys != nil { options[Self.classicKeysOption] = classicKeyBCheck ?? "none" }
        if let genuineKeys {
            options[Self.requireGenuineOption] = "yes"
            if let check = Self.keysCheck(genuineKeys) { options[Self.signatureKeysOption] = check }
        }
        return options
    }

    /// The journal option that records a job refusing tags that are not genuine.
    public static let requireGenuineOption = "require-genuine"
    /// The journal option that identifies the keys a job accepts beyond NXP's.
    public static let signatureKeysOption = "signature-keys"

    /// The journal option that records the check value of the MIFARE Classic key B a job
    /// installs (``classicKeysCheck(_:)``).
    public static let classicKeysOption = "classic-key-b-check"

    /// What a journal records to recognise a MIFARE Classic key B on a resume without revealing
    /// it: the first 8 bytes (hex) of scrypt (RFC 7914; N 2^15, r 8, p 1) of the key with the
    /// salt "ndeftool classic key B check". A key has only 48 bits: a plain hash of it could be
    /// searched through; scrypt makes each guess cost some 50 ms and 32 MiB. Nil when
    /// libcrypto fails.
    public static func classicKeysCheck(_ keyB: MifareClassicKey) -> String? {
        guard
            let derived = try? PasswordHash.scrypt(
                password: keyB.bytes, salt: Array("ndeftool classic key B check".utf8), length: 8)
        else { return nil }
        return Hex.encode(derived)
    }

    /// The first 8 bytes (hex) of the SHA-256 of the DER forms, sorted, of the keys among `keys`
    /// that are not NXP's; nil when all are NXP's. Identifies the keys without their files.
    public static func keysCheck(_ keys: [NFCOriginalityKey]) -> String? {
        let nxp = Set(NFCOriginalityKey.nxpKeys.map(\.key.derRepresentation))
        let extra = Set(keys.map(\.key.derRepresentation)).subtracting(nxp).sorted { $0.lexicographicallyPrecedes($1) }
        guard !extra.isEmpty, let digest = try? SHA256.hash(extra.flatMap { $0 }) else { return nil }
        return Hex.encode(digest.prefix(8))
    }
}
