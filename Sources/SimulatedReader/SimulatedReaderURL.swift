import HexText
import NDEF
import NFCSession
import TagMemory
import TagSimulator

/// A simulated reader named as a URL: `sim:CHIP` with options after `?`, `&`-separated.
///
/// `sim:ntag215?file=/tmp/tag.nfc&remove-after=12&in-flight=tear`,
/// `sim:type4?version=3&ndef-size=4096&file=/tmp/tag.t4t`
///
/// Chips (case-insensitive): the Type 2 chips of ``chipNames``, `ntag210`, `ntag212`,
/// `ntag213`, `ntag215`, `ntag216`, `ultralight` (MF0ICU1), `ultralight-c` (MF0ICU2),
/// `ultralight-ev1` or `ultralight-ev1-48` (MF0UL11, 48 bytes of user memory),
/// `ultralight-ev1-128` (MF0UL21), and every Type 2 chip's NXP type code (`nt2h1511`,
/// `mf0ul21`, …), as in ``TagMemory/Type2ChipCatalogue``; and `type4` (``type4ChipName``), an
/// NFC Forum Type 4 tag configured like an NTAG 424 DNA as delivered unless its options say
/// otherwise; `ntag424`, an NTAG 424 DNA; `ntag424tt`, an NTAG 424 DNA TT with its tamper loop; `classic1k`, `classic4k` and `classic-mini`, MIFARE
/// Classic cards (``TagSimulator/SimulatedClassicTag``) in the transport configuration unless
/// loaded from a file (a raw image such as libnfc's `.mfd`, or hex text for `.txt`).
///
/// Options (each at most once; values may be percent-encoded, `%20`):
/// - `file=PATH`: keep the tag in this file (see ``SimulatedReader``): a dump for a Type 2
///   chip, the tag's state text for `type4` (in a `.t4t` file, though the extension is not
///   checked; loading tells the kinds apart by content). With `supply=N`, a directory ending
///   in `/`: each tag is kept in `DIR/UID.nfc` (`UID.t4t`), loaded from there when the reader
///   opens (``Supply``).
/// - `supply=N`, `seed=S`, `duplicate=K`, `swap-ms=MS`: a stack of tags presented one after
///   another (``Supply``).
/// - `uid=HEX`: the UID of a new tag: 7 bytes for a Type 2 chip, 4 or 7 for MIFARE Classic,
///   4, 7 or 10 for `type4`
///   (`04A1B2C3D4E5F6`, `:` or `-` between bytes allowed).
/// - `signature=HEX` (Type 2 and `ntag424`): the 32 bytes READ_SIG answers (56 for an NTAG 424
///   DNA's Read_Sig), instead of the dump's; without it and without a dump, zero bytes, as an
///   unsigned clone answers.
/// - `signing-key=FILE` (Type 2 and `ntag424`): a PEM private key on secp128r1 (secp224r1 for
///   `ntag424`) that signs each tag's UID for its READ_SIG answer (NTAG213/215/216 10.8,
///   NT4H2421Gx 10.10.1: ECDSA over the UID), for tests against a key of one's own.
/// - `remove-after=N`: the tags leave the field during the N-th command
///   (``TagSimulator/SimulatedField/Faults/removeAfterCommands``; 0: no tag from the start).
/// - `in-flight=complete|none|tear`: what that command does
///   (``TagSimulator/SimulatedField/InFlightOutcome``); `tear=1` is `in-flight=tear`.
///   Both need `remove-after`.
/// - `second-tag=1`: a second tag is in the field.
/// - `latency-ms=N`: each command takes N ms (at most 60000).
/// - `corrupt-every=N`: every N-th answer arrives corrupted (N ≥ 1).
/// - `nak-write=N`: the N-th write (a Type 2 WRITE, a Type 4 UPDATE BINARY; other commands are
///   not counted) is refused without being carried out
///   (``TagSimulator/SimulatedField/Faults/nakWrite``): NAK 5h (EEPROM write error), or the
///   hex digit of `nak-code=H`, for a Type 2 chip; status word `6581` (memory failure), or
///   `nak-status=HHHH`, for `type4`.
/// - `lose-write=N`: the N-th write is acknowledged but not stored
///   (``TagSimulator/SimulatedField/Faults/loseWrite``): only reading back reveals it.
/// - `unplug-after=N`: the reader is pulled out after N tag commands (frames and APDUs, across
///   every tag of a supply; 0: from the start), and `unplug-ms=M`: it is back M ms later, with
///   the field as it was (``Unplug``, ``SimulatedReader/unplug(afterCommands:for:)``).
/// - `signal-after=N` (N ≥ 1) and `signal=KILL|INT|TERM|STOP` (default `KILL`): the process
///   sends itself the signal once the N-th tag command (frames and APDUs, across every tag of a
///   supply) is carried out and the tag saved, before the answer reaches the program: a power cut
///   of the host, a Ctrl-C, a service stop or a halt until `SIGCONT` at an exact, repeatable
///   point of a job (``ProcessSignal``).
/// - `get-version=HEX`: a Type 2 chip answers GET_VERSION with these bytes (1 to 64) instead of
///   its own (``TagSimulator/SimulatedField/Faults/versionAnswer``): a chip outside the
///   catalogue, or a garbled answer.
///
/// Options of `type4` only (``Type4Settings``; an error for a Type 2 chip):
/// - `version=1|2|3`: the mapping version of the CC, 1.0, 2.0 (default) or 3.0; `v1=1` is
///   `version=1` (the tag answers to the Type 4 Tag 1.0 application identifier).
/// - `mle=N` (15 to 65535, default 256), `mlc=N` (1 to 65535, default 255).
/// - `ndef-size=N`: the NDEF file size in bytes (default 256; 5 to 32767, or 7 to 1048576
///   for version 3).
/// - `read-access=HH`, `write-access=HH`: `00` (default), `FF` or `80`-`FE`.
/// - `cc-writable=1`: UPDATE BINARY may change the CC file.
///
/// Booleans are `1`/`0`, `true`/`false` or `yes`/`no`; numbers are decimal.
public struct SimulatedReaderURL: Sendable, Hashable, CustomStringConvertible {
    /// The kind of tag a URL names.
    public enum TagKind: Sendable, Hashable {
        /// A Type 2 chip of the catalogue.
        case type2(Type2Chip)
        /// A Type 4 tag with these options.
        case type4(Type4Settings)
        /// A MIFARE Classic card of this product.
        case classic(MifareClassicType)

        /// What a file of this kind of tag holds.
        var holding: SimulatedTagFile.Holding {
            switch self {
            case .type2: .type2
            case .type4: .type4
            case .classic: .classic
            }
        }
    }

    /// The tag simulated.
    public var tagKind: TagKind
    /// The file the tag is kept in.
    public var filePath: String?
    /// The UID of a new tag (one not loaded from a file); nil: ``TagSimulator/SimulatedType2Tag/defaultUID``
    /// or ``TagSimulator/SimulatedType4Tag/defaultUID``.
    public var uid: [UInt8]?
    /// The READ_SIG answer of a Type 2 tag or the Read_Sig answer of an NTAG 424 DNA
    /// (`signature=HEX`), instead of its file's or zero bytes.
    public var signature: [UInt8]?
    /// A PEM file with the private key (secp128r1) that signs each Type 2 tag's UID for its
    /// READ_SIG answer (`signing-key=FILE`): a test key, so that tools can be tried against a
    /// signature that verifies only with its public key.
    public var signingKeyPath: String?
    /// Whether the MIFARE Classic card answers the Gen1a backdoor of magic clones (`gen1a=1`;
    /// ``TagSimulator/SimulatedClassicTag/answersGen1aBackdoor``).
    public var gen1a = false
    /// Whether each NTAG 424 DNA speaks LRP (`mode=lrp`), as after SetConfiguration option 05h.
    public var lrpMode = false
    /// An NTAG 424 DNA TT (`sim:ntag424tt`), with its tamper loop (`tamper=closed|open`); nil
    /// for other tags.
    public var tagTamper: TagTamperSetting?

    /// The TagTamper of `sim:ntag424tt`.
    public struct TagTamperSetting: Sendable, Hashable {
        /// `tamper=open` (true) or `closed` (false); nil keeps a tag file's loop (a new tag's is
        /// closed).
        public var loopOpen: Bool?
    }
    /// The faults to arm (for each tag of a supply as it goes in).
    public var faults: SimulatedField.Faults
    /// A supply of tags presented one after another instead of one tag; nil: one tag.
    public var supply: Supply?
    /// When the reader is unplugged and for how long; nil: never.
    public var unplug: Unplug?
    /// The signal the process sends itself after a number of tag commands; nil: none.
    public var processSignal: ProcessSignal?

    /// The scheme, with its colon.
    public static let scheme = "sim:"

    /// The chip names the URL accepts, in the order they are listed in messages.
    public static let chipNames: [(name: String, chip: Type2Chip)] = [
        ("ntag210", .ntag210), ("ntag212", .ntag212), ("ntag213", .ntag213), ("ntag215", .ntag215),
        ("ntag216", .ntag216), ("ultralight", .mifareUltralight), ("ultralight-c", .mifareUltralightC),
        ("ultralight-ev1", .mifareUltralightEV1MF0UL11), ("ultralight-ev1-48", .mifareUltralightEV1MF0UL11),
        ("ultralight-ev1-128", .mifareUltralightEV1MF0UL21),
    ]

    /// The chip name of a Type 4 tag.
    public static let type4ChipName = "type4"
    /// The chip name of an NTAG 424 DNA.
    public static let ntag424ChipName = "ntag424"
    /// The chip name of an NTAG 424 DNA TT (NT4H2421Tx): an NTAG 424 DNA with TagTamper.
    public static let ntag424TTChipName = "ntag424tt"

    /// The MIFARE Classic products the URL accepts, by name.
    public static let classicNames: [(name: String, type: MifareClassicType)] = [
        ("classic1k", .classic1K), ("classic4k", .classic4K), ("classic-mini", .mini),
    ]

    /// Every chip name the URL accepts (NXP type codes aside), in the order messages list them.
    public static var allChipNames: [String] {
        chipNames.map(\.name) + [type4ChipName, ntag424ChipName, ntag424TTChipName] + classicNames.map(\.name)
    }

    /// The largest latency accepted, in milliseconds.
    public static let maximumLatencyMilliseconds = 60_000

    /// Creates a URL value for a Type 2 chip.
    public init(chip: Type2Chip, filePath: String? = nil, uid: [UInt8]? = nil, faults: SimulatedField.Faults = .none) {
        self.tagKind = .type2(chip)
        self.filePath = filePath
        self.uid = uid
        self.faults = faults
    }

    /// Creates a URL value for a MIFARE Classic card.
    public init(
        classic type: MifareClassicType, filePath: String? = nil, uid: [UInt8]? = nil,
        faults: SimulatedField.Faults = .none
    ) {
        self.tagKind = .classic(type)
        self.filePath = filePath
        self.uid = uid
        self.faults = faults
    }

    /// The MIFARE Classic product simulated; nil for other tags.
    public var classicType: MifareClassicType? {
        if case .classic(let type) = tagKind { return type }
        return nil
    }

    /// Creates a URL value for a Type 4 tag.
    public init(
        type4 settings: Type4Settings, filePath: String? = nil, uid: [UInt8]? = nil,
        faults: SimulatedField.Faults = .none
    ) {
        self.tagKind = .type4(settings)
        self.filePath = filePath
        self.uid = uid
        self.faults = faults
    }

    /// The Type 2 chip simulated; nil for a Type 4 tag.
    public var chip: Type2Chip? {
        if case .type2(let chip) = tagKind { return chip }
        return nil
    }

    /// The configuration of a new Type 4 tag (the options and ``uid`` applied to the defaults);
    /// nil for a Type 2 chip.
    public var type4Configuration: SimulatedType4Tag.Configuration? {
        if case .type4(let settings) = tagKind { return settings.configuration(uid: uid) }
        return nil
    }

    /// Parses `text`.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/invalidParameter`` naming the part that is
    ///   wrong: the scheme, the chip (with the list of known ones), an option (unknown,
    ///   repeated, without `=`, or a Type 4 option for a Type 2 chip), or a value.
    public init(parsing text: String) throws(NFCReaderError) {
        guard text.lowercased().hasPrefix(Self.scheme) else {
            throw Self.error(text, "a simulated reader is named \"\(Self.scheme)CHIP\", for example sim:ntag215")
        }
        let rest = text.dropFirst(Self.scheme.count)
        let chipText = rest.prefix { $0 != "?" }
        let query = rest.dropFirst(chipText.count + 1)
        let chipName = chipText.lowercased()
        let isTagTamper = chipName == Self.ntag424TTChipName
        let isNTAG424 = chipName == Self.ntag424ChipName || isTagTamper
        let isType4 = chipName == Self.type4ChipName || isNTAG424
        let chip = Self.chip(named: chipName)
        let classic = Self.classicNames.first { $0.name == chipName }?.type
        guard isType4 || chip != nil || classic != nil else {
            let known = Self.allChipNames.joined(separator: ", ")
            let what = chipText.isEmpty ? "names no chip" : "chip \"\(chipText)\" is not one the simulator has"
            throw Self.error(text, "\(what); known chips: \(known), or an NXP type code such as nt2h1511")
        }
        var options = SimulatedReaderOptions(
            url: text, isType4: isType4, isNTAG424: isNTAG424, isClassic: classic != nil, isTagTamper: isTagTamper)
        if rest.contains("?") {
            for item in query.split(separator: "&", omittingEmptySubsequences: false) {
                try options.take(item)
            }
        }
        if let chip {
            self.init(chip: chip)
        } else if let classic {
            self.init(classic: classic)
        } else {
            var settings = try options.type4Settings()
            if isNTAG424 {
                guard settings == Type4Settings() else {
                    throw Self.error(text, "sim:ntag424 has the chip's own files and CC: no Type 4 option applies")
                }
                if let uid = options.uid, uid.count != 7 {
                    throw Self.error(text, "an NTAG 424 DNA has a 7-byte UID, not \(uid.count) bytes")
                }
                settings.isNTAG424 = true
            }
            self.init(type4: settings)
        }
        filePath = options.filePath
        uid = options.uid
        try options.checkSignatureOptions()
        signature = options.signature
        signingKeyPath = options.signingKeyPath
        gen1a = options.gen1a
        lrpMode = options.lrpMode
        if isTagTamper { tagTamper = TagTamperSetting(loopOpen: options.tamperLoopOpen) }
        faults = try options.faults()
        supply = try options.supplySettings()
        unplug = try options.unplugSettings()
        processSignal = try options.processSignalSettings()
    }

    /// The Type 2 chip a name denotes: one of ``chipNames`` or a catalogue type code,
    /// case-insensitive.
    public static func chip(named name: String) -> Type2Chip? {
        let lower = name.lowercased()
        return chipNames.first { $0.name == lower }?.chip
            ?? Type2ChipCatalogue.all.first { $0.typeCode.lowercased() == lower }
    }

    /// The chip name of the URL that simulates `tag` (`ntag215`, `ntag424`, `classic1k`).
    public static func name(of tag: SimulatedTag) -> String {
        switch tag {
        case .type2(let tag): chipNames.first { $0.chip == tag.chip }?.name ?? tag.chip.typeCode.lowercased()
        case .type4(let tag):
            tag.ntag424 == nil ? type4ChipName : tag.ntag424?.tagTamper == nil ? ntag424ChipName : ntag424TTChipName
        case .classic(let tag): classicNames.first { $0.type == tag.type }?.name ?? "classic1k"
        }
    }

    /// The same reader without its fault injection (faults, unplugging, process signals): the
    /// tag or supply it serves, as a resume names it again and as a batch station is known.
    public var withoutFaults: SimulatedReaderURL {
        var plain = self
        plain.faults = .none
        plain.unplug = nil
        plain.processSignal = nil
        return plain
    }

    /// The URL in canonical form: the first name of the chip, then the options given (the
    /// faults only where they differ from none), values percent-encoded where needed.
    public var description: String {
        let name: String
        var type4Items: [String] = []
        switch tagKind {
        case .type2(let chip):
            name = Self.chipNames.first { $0.chip == chip }?.name ?? chip.typeCode.lowercased()
        case .type4(let settings):
            name = settings.isNTAG424 ? Self.ntag424ChipName : Self.type4ChipName
            type4Items = settings.items
        case .classic(let type):
            name = Self.classicNames.first { $0.type == type }?.name ?? "classic1k"
        }
        var items: [String] = []
        if let filePath { items.append("file=" + SimulatedReaderOptions.percentEncoded(filePath)) }
        if let uid { items.append("uid=" + Hex.encode(uid, uppercase: true)) }
        if let signature { items.append("signature=" + Hex.encode(signature, uppercase: true)) }
        if let signingKeyPath { items.append("signing-key=" + SimulatedReaderOptions.percentEncoded(signingKeyPath)) }
        if gen1a { items.append("gen1a=1") }
        items += type4Items
        if let supply { items += supply.items }
        if let count = faults.removeAfterCommands {
            items.append("remove-after=\(count)")
            items.append("in-flight=\(faults.inFlight.rawValue)")
        }
        if faults.secondTag { items.append("second-tag=1") }
        if let latency = faults.latencyMilliseconds { items.append("latency-ms=\(latency)") }
        if let every = faults.corruptEveryNthResponse { items.append("corrupt-every=\(every)") }
        items += SimulatedReaderOptions.writeFaultItems(faults, isType4: type4Configuration != nil)
        if let unplug { items += unplug.items }
        if let processSignal { items += processSignal.items }
        return Self.scheme + name + (items.isEmpty ? "" : "?" + items.joined(separator: "&"))
    }

    /// An ``NFCSession/NFCReaderError/Code/invalidParameter`` error about `url`.
    static func error(_ url: String, _ reason: String) -> NFCReaderError {
        NFCReaderError(.invalidParameter, "simulated reader \"\(url)\": \(reason)")
    }
}

extension SimulatedReaderURL {
    /// The reader pulled out of its socket mid-job and plugged back (`unplug-after=N`, with
    /// `unplug-ms=M`): see ``SimulatedReader/unplug(afterCommands:for:)``.
    public struct Unplug: Sendable, Hashable {
        /// The tag commands (Type 2 frames and APDUs that reach the field, counted across every
        /// tag of a supply) carried out and answered before the reader goes away; 0: it is away
        /// from the start.
        public var afterCommands: Int
        /// How long the reader stays away, in milliseconds; nil: it never comes back.
        public var milliseconds: Int?

        /// Creates an unplug description.
        public init(afterCommands: Int, milliseconds: Int? = nil) {
            self.afterCommands = afterCommands
            self.milliseconds = milliseconds
        }

        /// How long the reader stays away; nil: for good.
        public var duration: Duration? { milliseconds.map { .milliseconds($0) } }

        /// The URL items, in canonical order.
        var items: [String] {
            ["unplug-after=\(afterCommands)"] + (milliseconds.map { ["unplug-ms=\($0)"] } ?? [])
        }
    }
}

extension SimulatedReaderURL {
    /// A stack of fresh tags presented one after another (`supply=N`, with `seed=S`,
    /// `duplicate=K` and `swap-ms=MS`): see ``TagSimulator/SimulatedTagSupply``.
    public struct Supply: Sendable, Hashable {
        /// The seed used when none is given.
        public static let defaultSeed: UInt64 = 1

        /// How many distinct tags the supply holds.
        public var count: Int
        /// The seed of the UIDs (``TagSimulator/SimulatedTagSupply/uids(count:seed:)``).
        public var seed: UInt64
        /// The 1-based position of the tag presented a second time, right after the next one.
        public var duplicate: Int?
        /// How long after a tag is taken away the next one goes in, in milliseconds.
        public var swapMilliseconds: Int

        /// Creates a supply description.
        public init(count: Int, seed: UInt64 = defaultSeed, duplicate: Int? = nil, swapMilliseconds: Int = 0) {
            self.count = count
            self.seed = seed
            self.duplicate = duplicate
            self.swapMilliseconds = swapMilliseconds
        }

        /// The URL items, in canonical order.
        var items: [String] {
            var items = ["supply=\(count)"]
            if seed != Self.defaultSeed { items.append("seed=\(seed)") }
            if let duplicate { items.append("duplicate=\(duplicate)") }
            if swapMilliseconds != 0 { items.append("swap-ms=\(swapMilliseconds)") }
            return items
        }
    }
}

extension SimulatedReaderURL {
    /// The Type 4 options of a `sim:type4` URL. Each is nil when the URL leaves it out: a new
    /// tag then has the default of ``TagSimulator/SimulatedType4Tag/Configuration`` (an
    /// NTAG 424 DNA as delivered: mapping version 2.0, MLe 256, MLc 255, a 256-byte NDEF file
    /// with free read and write access), and a tag loaded from a file keeps the file's value.
    public struct Type4Settings: Sendable, Hashable {
        /// `version=1|2|3` (or `v1=1` for 1): the major mapping version of the capability
        /// container, 1.0, 2.0 or 3.0 (NFC Forum Type 4 Tag 3.0, 5.1). A 1.0 tag answers to the
        /// NDEF Tag Application identifier `D2760000850100`, later ones to `D2760000850101`
        /// (5.4.2); a 3.0 tag describes its NDEF file with an Extended NDEF File Control TLV and
        /// takes READ and UPDATE BINARY with offset data objects (`B1`, `D7`).
        public var majorVersion: Int?
        /// `mle=N`: MLe, the most data one READ BINARY response carries, 15 to 65535 (5.1).
        public var maximumResponseDataSize: Int?
        /// `mlc=N`: MLc, the most command data one UPDATE BINARY carries, 1 to 65535 (5.1).
        public var maximumCommandDataSize: Int?
        /// `ndef-size=N`: the NDEF file size in bytes, NLEN (or ENLEN) included: 5 to 32767
        /// for versions 1.0 and 2.0, 7 to ``TagSimulator/SimulatedType4Tag/Configuration/maximumSimulatedFileSize``
        /// for 3.0 (5.1.2).
        public var maximumNDEFFileSize: Int?
        /// `read-access=HH`: the NDEF file's read access condition, `00` (granted), `FF` or a
        /// proprietary `80`-`FE` (refused: no authentication is simulated); `01`-`7F` are
        /// reserved (5.1.2).
        public var readAccess: Type4AccessCondition?
        /// `write-access=HH`: the NDEF file's write access condition, `00` (granted), `FF`
        /// (read-only) or a proprietary `80`-`FE` (refused); `01`-`7F` are reserved (5.1.2).
        public var writeAccess: Type4AccessCondition?
        /// `cc-writable=1`: UPDATE BINARY may change the CC file, so the read-only procedure of
        /// 5.5.8 (write access `FF` at CC offset `0E`) works (most tags refuse it).
        public var isCapabilityContainerWritable: Bool?
        /// Whether the tag is an NTAG 424 DNA (`sim:ntag424`): its own CC, files, keys, native
        /// commands and SDM (``TagSimulator/SimulatedNTAG424Chip``); no other Type 4 option applies.
        public var isNTAG424 = false

        /// Creates settings; nil leaves an option out.
        public init(
            majorVersion: Int? = nil,
            maximumResponseDataSize: Int? = nil,
            maximumCommandDataSize: Int? = nil,
            maximumNDEFFileSize: Int? = nil,
            readAccess: Type4AccessCondition? = nil,
            writeAccess: Type4AccessCondition? = nil,
            isCapabilityContainerWritable: Bool? = nil
        ) {
            self.majorVersion = majorVersion
            self.maximumResponseDataSize = maximumResponseDataSize
            self.maximumCommandDataSize = maximumCommandDataSize
            self.maximumNDEFFileSize = maximumNDEFFileSize
            self.readAccess = readAccess
            self.writeAccess = writeAccess
            self.isCapabilityContainerWritable = isCapabilityContainerWritable
        }

        /// The configuration of a new tag: the defaults, with every option given and `uid`
        /// (``TagSimulator/SimulatedType4Tag/defaultUID`` when nil) applied.
        public func configuration(uid: [UInt8]?) -> SimulatedType4Tag.Configuration {
            var configuration = SimulatedType4Tag.Configuration(uid: uid ?? SimulatedType4Tag.defaultUID)
            if let majorVersion { configuration.mappingVersion = UInt8(truncatingIfNeeded: majorVersion << 4) }
            if let maximumResponseDataSize { configuration.maximumResponseDataSize = maximumResponseDataSize }
            if let maximumCommandDataSize { configuration.maximumCommandDataSize = maximumCommandDataSize }
            if let maximumNDEFFileSize { configuration.maximumNDEFFileSize = maximumNDEFFileSize }
            if let readAccess { configuration.readAccess = readAccess }
            if let writeAccess { configuration.writeAccess = writeAccess }
            if let isCapabilityContainerWritable {
                configuration.isCapabilityContainerWritable = isCapabilityContainerWritable
            }
            return configuration
        }

        /// The options given whose value differs from `configuration` (a tag's, loaded from a
        /// file), each as `key=value` with the tag's value after it.
        func conflicts(with configuration: SimulatedType4Tag.Configuration) -> [String] {
            var conflicts: [String] = []
            func check(_ key: String, _ given: String?, _ actual: String) {
                if let given, given != actual { conflicts.append("\(key)=\(given) (the file's tag has \(actual))") }
            }
            check("version", majorVersion.map { "\($0)" }, "\(configuration.majorVersion)")
            check("mle", maximumResponseDataSize.map { "\($0)" }, "\(configuration.maximumResponseDataSize)")
            check("mlc", maximumCommandDataSize.map { "\($0)" }, "\(configuration.maximumCommandDataSize)")
            check("ndef-size", maximumNDEFFileSize.map { "\($0)" }, "\(configuration.maximumNDEFFileSize)")
            check("read-access", readAccess.map(Self.hex), Self.hex(configuration.readAccess))
            check("write-access", writeAccess.map(Self.hex), Self.hex(configuration.writeAccess))
            check(
                "cc-writable", isCapabilityContainerWritable.map { $0 ? "1" : "0" },
                configuration.isCapabilityContainerWritable ? "1" : "0")
            return conflicts
        }

        /// The options given, as URL items in canonical order.
        var items: [String] {
            var items: [String] = []
            if let majorVersion { items.append("version=\(majorVersion)") }
            if let maximumResponseDataSize { items.append("mle=\(maximumResponseDataSize)") }
            if let maximumCommandDataSize { items.append("mlc=\(maximumCommandDataSize)") }
            if let maximumNDEFFileSize { items.append("ndef-size=\(maximumNDEFFileSize)") }
            if let readAccess { items.append("read-access=" + Self.hex(readAccess)) }
            if let writeAccess { items.append("write-access=" + Self.hex(writeAccess)) }
            if let isCapabilityContainerWritable {
                items.append("cc-writable=\(isCapabilityContainerWritable ? 1 : 0)")
            }
            return items
        }

        private static func hex(_ condition: Type4AccessCondition) -> String {
            Hex.byte(condition.rawValue)
        }
    }
}
