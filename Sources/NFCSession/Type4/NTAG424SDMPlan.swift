import NTAG424

/// What setting up secure dynamic messaging on an NTAG 424 DNA asks for (NT4H2421Gx 9.3;
/// AN12196 4-5): the URL with its placeholders, the keys the tag ends with, the version that
/// marks a key this plan set, which keys read PICCData and MAC the file, and whether the NDEF
/// file's write access goes to key 0.
public struct NTAG424SDMPlan: Sendable, Hashable {
    /// The URL, the NDEF file and the offsets.
    public var template: NTAG424SDMTemplate
    /// Keys 0-4 as the tag ends with them.
    public var keys: [[UInt8]]
    /// The version every changed key gets (1-255): GetKeyVersion then tells which keys this plan
    /// changed, so an interrupted set-up knows what is left.
    public var keyVersion: UInt8
    /// The SDMMetaRead key (PICCData).
    public var metaReadKey: Int
    /// The SDMFileRead key (SDMMAC).
    public var fileReadKey: Int
    /// Whether the NDEF file's Write and ReadWrite rights go to key 0.
    public var locksNDEF: Bool

    /// A plan.
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` unless there are five 16-byte keys,
    ///   the version is 1-255, and the meta-read and file-read keys are 1-4.
    public init(
        template: NTAG424SDMTemplate, keys: [[UInt8]], keyVersion: UInt8 = 1, metaReadKey: Int = 1,
        fileReadKey: Int = 2, locksNDEF: Bool = false
    ) throws(NFCReaderError) {
        guard keys.count == 5, keys.allSatisfy({ $0.count == 16 }) else {
            throw NFCReaderError(.invalidParameter, "an NTAG 424 DNA has five keys of 16 bytes")
        }
        guard keyVersion != 0 else {
            throw NFCReaderError(.invalidParameter, "key version 0 is the factory's: choose 1-255")
        }
        guard (1...4).contains(metaReadKey), (1...4).contains(fileReadKey) else {
            throw NFCReaderError(.invalidParameter, "the SDM keys are keys 1-4 (key 0 is the master key)")
        }
        self.template = template
        self.keys = keys
        self.keyVersion = keyVersion
        self.metaReadKey = metaReadKey
        self.fileReadKey = fileReadKey
        self.locksNDEF = locksNDEF
    }

    /// The NDEF file's settings the plan leads to.
    public var settings: NTAG424FileSettings {
        template.settings(metaReadKey: metaReadKey, fileReadKey: fileReadKey, lockNDEF: locksNDEF)
    }
}

/// The keys an NTAG 424 DNA holds before a set-up changes them: the factory's, or those of an
/// earlier set-up, for moving a tag from one plan to another. ChangeKey of keys 1-4 needs a
/// key's current value (NT4H2421Gx 10.6.1: the new key XORed with the old one, and a CRC32 of
/// the new key that the tag checks, so a wrong old key changes nothing).
public struct NTAG424KeySet: Sendable, Hashable {
    /// Keys 0-4.
    public let keys: [[UInt8]]

    /// Five keys of 16 bytes.
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` unless there are five 16-byte keys.
    public init(_ keys: [[UInt8]]) throws(NFCReaderError) {
        guard keys.count == 5, keys.allSatisfy({ $0.count == 16 }) else {
            throw NFCReaderError(.invalidParameter, "an NTAG 424 DNA has five keys of 16 bytes")
        }
        self.keys = keys
    }

    private init(factory: Void) {
        keys = Array(repeating: NFCNTAG424Tag.factoryKey, count: 5)
    }

    /// The keys as delivered (NT4H2421Gx 8.2.4.2): 16 zero bytes each, version 00h.
    public static let factory = NTAG424KeySet(factory: ())

    /// Whether these are the factory keys.
    public var isFactory: Bool { self == .factory }
}

/// How far a tag is in an ``NTAG424SDMPlan`` (or in a factory reset): the NDEF file and its
/// settings as read, and each key as proven by authenticating with it.
public struct NTAG424SDMProgress: Sendable, Hashable {
    /// Whether the NDEF file holds the plan's message (the mirrored text back to its `0`s).
    public var messageWritten: Bool
    /// Whether the NDEF file's settings are the plan's.
    public var settingsApplied: Bool
    /// For keys 0-4: whether the key is the plan's, with the plan's version (done).
    public var changedKeys: [Bool]
    /// For keys 0-4: whether the key is the plan's (AuthenticateEV2First with it succeeded),
    /// whatever its version.
    public var planKeys: [Bool] = Array(repeating: false, count: 5)
    /// For keys 0-4: whether the key is the one the tag held before the change (the key set the
    /// change starts from): proven by AuthenticateEV2First with it, or, from the factory keys, a
    /// key whose version is still 00h, taken as delivered (a ChangeKey from a wrong old key is
    /// refused by the tag's CRC check and changes nothing).
    public var previousKeys: [Bool] = Array(repeating: false, count: 5)
    /// For keys 0-4: the version GetKeyVersion read (0: as delivered).
    public var keyVersions: [UInt8] = Array(repeating: 0, count: 5)
    /// The keys that are neither the plan's nor those the change starts from: another set-up's
    /// keys (another keys file, or another master key), which this change must not touch. A
    /// change is refused before any command while there is one.
    public var foreignKeys: [Int] { (0..<5).filter { !planKeys[$0] && !previousKeys[$0] } }
    /// Whether the NDEF file holds a message (NLEN not 0), whichever it is.
    public var holdsMessage = true
    /// The offsets in the NDEF file that SDM now mirrors into on a read (PICCData, SDMMAC): a
    /// read shows other bytes there than the file holds.
    public var mirroredRanges: [Range<Int>] = []

    /// How the NDEF file's message can be written now: nil when ISOUpdateBinary may (its Write
    /// or ReadWrite right is free); else the file's CommMode, for WriteData in a session with
    /// key 0, which a tag set up with ``NTAG424SDMPlan/locksNDEF`` gives the write right (a file
    /// whose write right is another key's refuses it, and the set-up says so).
    public var messageWriteMode: NTAG424CommunicationMode?

    /// The progress of a change read from a tag; every key is foreign until
    /// ``planKeys`` or ``previousKeys`` says otherwise.
    public init(messageWritten: Bool, settingsApplied: Bool, changedKeys: [Bool]) {
        self.messageWritten = messageWritten
        self.settingsApplied = settingsApplied
        self.changedKeys = changedKeys
    }

    /// The tag's cipher, when an authentication while reading the progress told it (a tag
    /// whose keys are all as delivered is not authenticated: nil).
    public var tagMode: NTAG424CryptoMode?

    /// For a plan with TagTamper: whether the tag's TagTamper is enabled (GetTTStatus answered
    /// other than `II`); nil when the tag did not say (no TagTamper, or its status needs a key).
    public var tagTamperEnabled: Bool?
    /// For a plan with TagTamper: false when the tag has none (GetTTStatus is an illegal command
    /// on an NTAG 424 DNA that is not a TT).
    public var hasTagTamper = true

    /// Whether nothing is left to do.
    public var isComplete: Bool { messageWritten && settingsApplied && changedKeys.allSatisfy { $0 } }
}
