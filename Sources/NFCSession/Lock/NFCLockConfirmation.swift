import HexText
import NDEF
import NFCCrypto
import NTAG424
import TagMemory

/// What a caller confirms before a tag is made read-only for good: which tag, what it holds, and
/// what the lock will write, summed up in a 6-digit code such as `123-456`.
///
/// Locking is irreversible (lock bits and the CC are one-time programmable, NFC Forum Type 2 Tag
/// 1.1, 2.1 and 6.4.4; a Type 4 write access of `FF` is never granted again, Type 4 Tag 3.0,
/// 5.1.2), so ``NFCMiFareTag/writeLock(_:)`` and ``NFCISO7816Tag/writeLock(_:)`` lock only the tag
/// this confirmation was made for, holding the same content, with the same plan: they re-read the
/// tag and compare. The ``contentDigest`` is SHA-256 (FIPS 180-4) over a domain string naming the
/// tag type, the UID, then for a Type 2 tag the CC and the TLV area up to the end of the NDEF
/// Message TLV and the lock options, for a Type 4 tag the CC file and the NDEF file's length and
/// message, and last the planned writes; the ``code`` is derived from it, for a person to type
/// back (a command line's `--confirm 123-456`). The same tag and content always give the same code.
public struct NFCLockConfirmation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The tag's UID.
    public var uid: [UInt8]
    /// SHA-256 over the tag, its content and the lock plan (32 bytes).
    public var contentDigest: [UInt8]
    /// Six digits from the digest, shown as `123-456`.
    public var code: String
    /// Whether the lock sets the block-lock bits (``TagMemory/Type2LockOptions/setsBlockLockBits``); false
    /// for a Type 4 lock.
    public var setsBlockLockBits: Bool
    /// Whether the lock sets CFGLCK (``TagMemory/Type2LockOptions/locksConfiguration``); false for a Type 4
    /// lock.
    public var locksConfiguration: Bool
    /// The writes the lock makes, in order: Type 2 page writes, or the Type 4 UPDATE BINARY of
    /// the CC file (for showing; a lock plan holds no secret).
    public var plan: TagWritePlan
    /// The length of the NDEF message locked in, in bytes (0 for an empty message).
    public var messageLength: Int

    /// The domain string that starts the digested bytes of a Type 2 lock, so no other digest can
    /// collide with it.
    static let domain = "ndeftool lock confirmation: NFC Forum Type 2 Tag, version 1"
    /// The domain string of a Type 4 lock.
    static let type4Domain = "ndeftool lock confirmation: NFC Forum Type 4 Tag, version 1"

    /// Creates the confirmation of a Type 2 lock from the tag state it stands for.
    init(
        uid: [UInt8], capabilityContainer: [UInt8], tlvArea: [UInt8], options: Type2LockOptions,
        plan: TagWritePlan, messageLength: Int
    ) throws(NFCReaderError) {
        let optionByte: UInt8 = (options.setsBlockLockBits ? 0x01 : 0x00) | (options.locksConfiguration ? 0x02 : 0x00)
        let digest = try Self.digest(
            domain: Self.domain, fields: [uid, capabilityContainer, tlvArea, [optionByte], Self.planBytes(plan)])
        self.init(uid: uid, digest: digest, options: options, plan: plan, messageLength: messageLength)
    }

    /// Creates the confirmation of a Type 4 lock from the CC file and the NDEF file (NLEN or
    /// ENLEN, then the message) it stands for.
    init(
        type4UID uid: [UInt8], capabilityContainer: [UInt8], ndefFile: [UInt8], plan: TagWritePlan,
        messageLength: Int
    ) throws(NFCReaderError) {
        let digest = try Self.digest(
            domain: Self.type4Domain, fields: [uid, capabilityContainer, ndefFile, Self.planBytes(plan)])
        let none = Type2LockOptions(setsBlockLockBits: false, locksConfiguration: false)
        self.init(uid: uid, digest: digest, options: none, plan: plan, messageLength: messageLength)
    }

    init(uid: [UInt8], digest: [UInt8], options: Type2LockOptions, plan: TagWritePlan, messageLength: Int) {
        self.uid = uid
        self.contentDigest = digest
        self.code = Self.code(for: digest)
        self.setsBlockLockBits = options.setsBlockLockBits
        self.locksConfiguration = options.locksConfiguration
        self.plan = plan
        self.messageLength = messageLength
    }

    /// SHA-256 of `domain`, a 00h byte, then each field preceded by its length
    /// (``lengthPrefix(_:)``).
    static func digest(domain: String, fields: [[UInt8]]) throws(NFCReaderError) -> [UInt8] {
        var input = Array(domain.utf8) + [0x00]
        for field in fields { input += lengthPrefix(field.count) + field }
        do { return try SHA256.hash(input) } catch {
            throw NFCReaderError(.unsupportedFeature, "SHA-256 failed: \(error.reason)")
        }
    }

    /// The length of a digested field: two bytes, big-endian, below 65 535; else FFFFh and four bytes.
    private static func lengthPrefix(_ count: Int) -> [UInt8] {
        if count < 0xFFFF { return [UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count)] }
        return [0xFF, 0xFF] + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: count >> $0) }
    }

    /// The plan's steps as digested: for each, its file identifier (when the step names one),
    /// its address in two bytes, then its data.
    private static func planBytes(_ plan: TagWritePlan) -> [UInt8] {
        plan.steps.flatMap { step in
            let file = step.file.map { [UInt8(truncatingIfNeeded: $0 >> 8), UInt8(truncatingIfNeeded: $0)] } ?? []
            return file + [UInt8(truncatingIfNeeded: step.address >> 8), UInt8(truncatingIfNeeded: step.address)]
                + step.data
        }
    }

    /// The lock options the confirmation was made with.
    public var options: Type2LockOptions {
        Type2LockOptions(setsBlockLockBits: setsBlockLockBits, locksConfiguration: locksConfiguration)
    }

    /// The code of `digest`: its first 4 bytes as a big-endian number modulo 1 000 000, as
    /// `ddd-ddd` (the modulo bias, under 0.03 %, does not matter for a typed-back check).
    public static func code(for digest: [UInt8]) -> String {
        let value = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } % 1_000_000
        let digits = String(value)
        let padded = String(repeating: "0", count: max(0, 6 - digits.count)) + digits
        return "\(padded.prefix(3))-\(padded.suffix(3))"
    }

    /// `text` as a code `ddd-ddd` when it holds exactly six digits (spaces and dashes between
    /// them ignored), else nil.
    public static func normalizedCode(_ text: String) -> String? {
        let digits = text.filter { $0 != "-" && $0 != " " }
        guard digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return "\(digits.prefix(3))-\(digits.suffix(3))"
    }

    public var description: String {
        let writes = plan.steps.contains { $0.file != nil } ? "UPDATE BINARY" : "page writes"
        return
            "lock of tag \(Hex.bytes(uid)) (\(plan.steps.count) \(writes), \(messageLength)-byte message): code \(code)"
    }

    private enum CodingKeys: String, CodingKey {
        case uid, contentDigest, code, setsBlockLockBits, locksConfiguration, plan, messageLength
    }

    /// Decodes a confirmation; the UID and the digest are hex strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let uid = try container.decode(String.self, forKey: .uid)
        let digest = try container.decode(String.self, forKey: .contentDigest)
        do {
            self.uid = try Hex.decode(uid, allowSeparators: true)
            self.contentDigest = try Hex.decode(digest, allowSeparators: true)
        } catch {
            throw DecodingError.dataCorruptedError(
                forKey: .uid, in: container, debugDescription: "not hex: \(error.reason)")
        }
        self.code = try container.decode(String.self, forKey: .code)
        self.setsBlockLockBits = try container.decode(Bool.self, forKey: .setsBlockLockBits)
        self.locksConfiguration = try container.decode(Bool.self, forKey: .locksConfiguration)
        self.plan = try container.decode(TagWritePlan.self, forKey: .plan)
        self.messageLength = try container.decode(Int.self, forKey: .messageLength)
    }

    /// Encodes the confirmation, the UID and the digest as lower-case hex strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Hex.encode(uid), forKey: .uid)
        try container.encode(Hex.encode(contentDigest), forKey: .contentDigest)
        try container.encode(code, forKey: .code)
        try container.encode(setsBlockLockBits, forKey: .setsBlockLockBits)
        try container.encode(locksConfiguration, forKey: .locksConfiguration)
        try container.encode(plan, forKey: .plan)
        try container.encode(messageLength, forKey: .messageLength)
    }
}

extension NFCLockConfirmation {
    /// This confirmation when `code` (typed by a person, or given as `--confirm 123-456`) is its
    /// ``code``: pass the result to ``NFCNDEFTag/writeLock(_:)``, which checks against a fresh
    /// read that the confirmation still describes the tag.
    ///
    /// - Throws: ``NFCReaderError/Code/confirmationMismatch`` when `code` is not six digits or
    ///   not this confirmation's code.
    public func confirmed(byCode code: String) throws(NFCReaderError) -> NFCLockConfirmation {
        guard let wanted = Self.normalizedCode(code) else {
            throw NFCReaderError(.confirmationMismatch, "a lock code has six digits, as 123-456")
        }
        guard wanted == self.code else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the code does not match this tag and its content: prepare the lock again to see the current code")
        }
        return self
    }

    /// Throws ``NFCReaderError/Code/confirmationMismatch`` unless the confirmation was made for
    /// the tag with `identifier`: checked before any command is sent.
    func checkTag(_ identifier: [UInt8]) throws(NFCReaderError) {
        guard uid == identifier else {
            throw NFCReaderError(
                .confirmationMismatch,
                "the confirmation is for tag \(Hex.bytes(uid)), this is tag \(Hex.bytes(identifier))"
            )
        }
    }

    /// Throws ``NFCReaderError/Code/confirmationMismatch`` unless `current`, made from a fresh read
    /// of the tag, has the same digest and code; `content` names what may have changed.
    func checkUnchanged(_ current: NFCLockConfirmation, content: String) throws(NFCReaderError) {
        guard current.contentDigest == contentDigest, current.code == code else {
            throw NFCReaderError(
                .confirmationMismatch,
                "\(content) changed since the confirmation was made: prepare the lock again")
        }
    }
}

extension NFCLockConfirmation {
    /// The domain string that starts the digested bytes of a configuration lock (CFGLCK).
    static let configurationDomain = "ndeftool lock confirmation: Type 2 password configuration (CFGLCK), version 1"

    /// Creates the confirmation of setting CFGLCK (ACCESS bit 6, NTAG213/215/216 8.5.7 and 8.8,
    /// MF0ULX1 8.5.7): once set, CFG0 and CFG1 (AUTH0, PROT, AUTHLIM, the mirror) can never change
    /// again.
    ///
    /// The digest stands for the tag (`uid`, the chip's name) and the protection frozen: AUTH0, PROT
    /// and AUTHLIM. No password or PACK goes into it, so the code tells nothing about them. The
    /// plan is empty: the lock is one write of CFG1 with CFGLCK set, its other bytes as the tag
    /// holds them then (see ``NFCMiFareTag/lockConfiguration(_:)``).
    ///
    /// - Throws: ``NFCReaderError/Code/invalidParameter`` for an AUTH0 outside 0-255 or an AUTHLIM
    ///   outside 0-7.
    public init(
        configurationLockOf uid: [UInt8], chip: Type2Chip, firstProtectedPage: Int, protectsReading: Bool,
        authenticationLimit: Int
    ) throws(NFCReaderError) {
        guard let auth0 = UInt8(exactly: firstProtectedPage) else {
            throw NFCReaderError(.invalidParameter, "AUTH0 is a page number 0-255, not \(firstProtectedPage)")
        }
        guard (0...7).contains(authenticationLimit) else {
            throw NFCReaderError(.invalidParameter, "AUTHLIM is 0 to 7, not \(authenticationLimit)")
        }
        let settings: [UInt8] = [auth0, protectsReading ? 0x01 : 0x00, UInt8(truncatingIfNeeded: authenticationLimit)]
        let digest = try Self.digest(
            domain: Self.configurationDomain, fields: [uid, Array(chip.name.utf8), settings])
        self.init(
            uid: uid, digest: digest, options: Type2LockOptions(setsBlockLockBits: false, locksConfiguration: true),
            plan: TagWritePlan(steps: []), messageLength: 0)
    }
}

extension NFCLockConfirmation {
    /// The domain string that starts the digested bytes of an NTAG 424 DNA SDM set-up.
    static let sdmSetUpDomain = "ndeftool lock confirmation: NTAG 424 DNA SDM set-up, version 1"
    /// The domain string of an SDM set-up that starts from keys other than the factory's.
    static let sdmRotationDomain = "ndeftool lock confirmation: NTAG 424 DNA SDM key rotation, version 1"

    /// Creates the confirmation of setting up `plan` on the NTAG 424 DNA with `uid`, starting
    /// from the keys `from`: the keys change (NT4H2421Gx 10.6.1), and only their holder can ever
    /// change the tag again.
    ///
    /// The digest stands for the tag and the plan: the UID, the NDEF file written, the file
    /// settings (ChangeFileSettings' data, 10.7.1), the SDM key numbers, the key version and the
    /// five keys, and, from keys other than the factory's, those five keys too (a code shown for
    /// a move from one keys file to another confirms no other pair). It does not stand for the
    /// tag's progress: an interrupted set-up is finished with the same code. The digest depends
    /// on the keys; show the code, not the digest. The plan lists the NDEF file's one write.
    public init(
        sdmSetUpOf uid: [UInt8], plan: NTAG424SDMPlan, from: NTAG424KeySet = .factory
    ) throws(NFCReaderError) {
        let numbers: [UInt8] = [
            UInt8(truncatingIfNeeded: plan.metaReadKey), UInt8(truncatingIfNeeded: plan.fileReadKey),
            plan.locksNDEF ? 1 : 0, plan.keyVersion,
        ]
        var fields = [uid, plan.template.file, plan.settings.changeCommandData, numbers, plan.keys.flatMap { $0 }]
        if !from.isFactory { fields.append(from.keys.flatMap { $0 }) }
        // LRP is for good: a code for an LRP plan confirms no AES one (and its codes stay apart).
        if plan.template.mode == .lrp { fields.append(Array("LRP".utf8)) }
        // So is TagTamper: its code confirms no plan without it.
        if plan.template.tagTamperOffset != nil { fields.append(Array("TagTamper".utf8)) }
        let digest = try Self.digest(
            domain: from.isFactory ? Self.sdmSetUpDomain : Self.sdmRotationDomain, fields: fields)
        let write = TagWritePlan(steps: [
            PlanStep(file: 0xE104, address: 0, data: plan.template.file, reason: "the NDEF file")
        ])
        self.init(
            uid: uid, digest: digest, options: Type2LockOptions(setsBlockLockBits: false, locksConfiguration: false),
            plan: write, messageLength: plan.template.file.count - 2)
    }

    /// The domain string of an NTAG 424 DNA returned to its factory keys and settings.
    static let factoryResetDomain = "ndeftool lock confirmation: NTAG 424 DNA factory reset, version 1"

    /// Creates the confirmation of returning the NTAG 424 DNA with `uid` from the keys `from` to
    /// its factory keys, settings and an empty NDEF file: the tag's SDM and keys are gone, and
    /// anyone can then set it up. The digest stands for the UID and the five keys of `from`.
    public init(factoryResetOf uid: [UInt8], from: NTAG424KeySet) throws(NFCReaderError) {
        let digest = try Self.digest(domain: Self.factoryResetDomain, fields: [uid, from.keys.flatMap { $0 }])
        let empty = [UInt8](repeating: 0, count: 256)
        let write = TagWritePlan(steps: [PlanStep(file: 0xE104, address: 0, data: empty, reason: "the NDEF file")])
        self.init(
            uid: uid, digest: digest, options: Type2LockOptions(setsBlockLockBits: false, locksConfiguration: false),
            plan: write, messageLength: 0)
    }
}
