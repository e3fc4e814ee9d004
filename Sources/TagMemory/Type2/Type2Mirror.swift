/// The ASCII mirror of NTAG213/215/216 (datasheet NTAG213/215/216 Rev. 3.2, 8.7): the chip shows,
/// in READ and FAST_READ answers only, its UID (14 upper-case hex characters, 8.7.1), its NFC
/// counter (6, most significant byte first, 8.7.2), or both as `UID x counter` (21, 8.7.3) in
/// place of the user memory bytes from MIRROR_PAGE, byte MIRROR_BYTE on. Memory keeps its own
/// bytes; WRITE is not affected.
extension Type2Configuration.MirrorMode {
    /// The characters the mirror shows: 14, 6 or 21 (0 for ``none``).
    public var textLength: Int {
        switch self {
        case .none: 0
        case .uid: 14
        case .nfcCounter: 6
        case .uidAndNFCCounter: 21
        }
    }

    /// What a writer puts in memory where the mirror goes: `0`s, with the `x` of the UID and
    /// counter mode in place, so that the message is whole and the same length as what a reader
    /// sees.
    public var placeholder: [UInt8] {
        switch self {
        case .none: []
        case .uid: Array(repeating: UInt8(ascii: "0"), count: 14)
        case .nfcCounter: Array(repeating: UInt8(ascii: "0"), count: 6)
        case .uidAndNFCCounter:
            Array(repeating: UInt8(ascii: "0"), count: 14) + [UInt8(ascii: "x")]
                + Array(repeating: UInt8(ascii: "0"), count: 6)
        }
    }

    /// Whether the NFC counter is part of the mirror.
    public var includesCounter: Bool { self == .nfcCounter || self == .uidAndNFCCounter }

    /// The mode's name in words: `UID`, `NFC counter`, `UID and NFC counter`, `none`.
    public var name: String {
        switch self {
        case .none: "none"
        case .uid: "UID"
        case .nfcCounter: "NFC counter"
        case .uidAndNFCCounter: "UID and NFC counter"
        }
    }
}

extension Type2Configuration {
    /// The byte addresses the chip replaces in READ answers now, or nil when the mirror is off:
    /// MIRROR_CONF 00b, MIRROR_PAGE below 04h, or text that would not end inside user memory
    /// ("the data will not be mirrored", 8.7). The counter shows only with NFC_CNT_EN set, and
    /// with NFC_CNT_PWD_PROT set only after PWD_AUTH (`authenticated`); in the UID and counter
    /// mode the UID alone then shows. The placement of that mode is checked for all 21
    /// characters.
    public func mirroredBytes(authenticated: Bool) -> Range<Int>? {
        guard let mirror, mirror.page >= chip.userPages.lowerBound, mirror.mode != .none else { return nil }
        let start = mirror.page * Type2Page.size + mirror.byte
        guard start + mirror.mode.textLength <= chip.userBytes.upperBound else { return nil }
        let showsCounter = isNFCCounterEnabled && (!isNFCCounterPasswordProtected || authenticated)
        switch mirror.mode {
        case .none: return nil
        case .uid: return start..<(start + 14)
        case .nfcCounter: return showsCounter ? start..<(start + 6) : nil
        case .uidAndNFCCounter: return start..<(start + (showsCounter ? 21 : 14))
        }
    }

    /// The last byte address (exclusive) a mirror a writer sets up may reach: byte 2 of the last
    /// user page, as the datasheet's tables of valid MIRROR_PAGE and MIRROR_BYTE values give it
    /// (8.7.1-8.7.3: on NTAG213 the UID from page 24h byte 1 at the latest, the counter from 26h
    /// byte 1, both from 22h byte 2).
    public var mirrorLimit: Int { chip.userBytes.upperBound - 1 }
}

/// A mirror asked for in a message written to an NTAG213/215/216: which one, and where its
/// placeholder text (``Type2Configuration/MirrorMode/placeholder``) starts among the bytes of
/// the encoded NDEF message. ``Type2MirrorTemplate`` makes one from `{uid-mirror}` and
/// `{counter-mirror}` in record specifications.
public struct Type2MirrorRequest: Sendable, Hashable {
    /// The mirror: UID, NFC counter, or both.
    public var mode: Type2Configuration.MirrorMode
    /// The offset of the first placeholder character in the encoded message.
    public var messageOffset: Int
    /// Whether to set NFC_CNT_PWD_PROT: READ_CNT needs PWD_AUTH, and the counter is not
    /// mirrored without it (8.7.2, 8.5.7).
    public var isCounterPasswordProtected: Bool

    /// A request.
    public init(mode: Type2Configuration.MirrorMode, messageOffset: Int, isCounterPasswordProtected: Bool = false) {
        self.mode = mode
        self.messageOffset = messageOffset
        self.isCounterPasswordProtected = isCounterPasswordProtected
    }
}

extension Type2Memory {
    /// Where the mirror of `request` goes when `message` is written as the NDEF message by
    /// ``writePlan(messageBytes:)``: MIRROR_PAGE and MIRROR_BYTE of the first placeholder
    /// character.
    ///
    /// - Throws: ``TagMemoryError/Code/unsupportedChip`` for a chip without the mirror;
    ///   ``TagMemoryError/Code/invalidArgument`` when the message does not hold the placeholder at
    ///   the offset, when reserved bytes (Lock or Memory Control TLV) split it, or when it would
    ///   end past byte 2 of the last user page (``Type2Configuration/mirrorLimit``), naming the
    ///   byte address; ``TagMemoryError/Code/insufficientCapacity`` and the other errors of
    ///   ``writePlan(messageBytes:)`` when the message cannot be written at all.
    public func mirrorPlacement(
        for request: Type2MirrorRequest, messageBytes message: [UInt8]
    ) throws(TagMemoryError) -> Type2Configuration.Mirror {
        guard let chip, chip.features.contains(.asciiMirror), let configuration else {
            throw TagMemoryError(
                .unsupportedChip,
                "\(chip?.name ?? "this unidentified chip") has no UID or NFC counter mirror (NTAG213/215/216 have)")
        }
        let length = request.mode.textLength
        let offset = request.messageOffset
        guard length > 0, offset >= 0, offset + length <= message.count,
            Array(message[offset..<(offset + length)]) == request.mode.placeholder
        else {
            throw TagMemoryError(
                .invalidArgument,
                "the message does not hold the \(request.mode.name) mirror's placeholder at byte \(offset)")
        }
        _ = try writePlan(messageBytes: message)
        guard let typeAddress = ndefTLVAddress,
            let layout = Type2MessageLayout(
                message: message, typeAddress: typeAddress, free: dataRanges(from: typeAddress))
        else {
            throw TagMemoryError(.notFormatted, "the tag has no NDEF Message TLV")
        }
        let addresses = Array(layout.valueAddresses[offset..<(offset + length)])
        let start = addresses[0]
        guard addresses.last == start + length - 1 else {
            throw TagMemoryError(
                .invalidArgument, at: start,
                "the \(request.mode.name) mirror from byte \(start) would be split by bytes a Lock or Memory Control "
                    + "TLV reserves: the chip mirrors into consecutive bytes")
        }
        guard start >= chip.userBytes.lowerBound, start + length <= configuration.mirrorLimit else {
            let page = Type2Page.containing(byte: start)
            throw TagMemoryError(
                .invalidArgument, at: start,
                "the \(request.mode.name) mirror would start at page \(page) byte \(start % Type2Page.size) and end "
                    + "past byte 2 of \(chip.name)'s last user page \(chip.userPages.upperBound) (NTAG213/215/216 8.7): "
                    + "move the placeholder nearer the start of the message")
        }
        return Type2Configuration.Mirror(
            mode: request.mode, byte: start % Type2Page.size, page: Type2Page.containing(byte: start))
    }

    /// This image with the bytes the mirror shows now replaced by the mirror's placeholder (the
    /// UID and counter text of a READ answer back to `0`s and `x`): the content a writer put, as
    /// far as it can be known through the mirror. Lock codes and comparisons of a tag's message
    /// use it, so that a counter going up does not make a tag look changed.
    public func unmirrored(authenticated: Bool = false) -> Type2Memory {
        guard let configuration, let mirror = configuration.mirror,
            let range = configuration.mirroredBytes(authenticated: authenticated), range.upperBound <= bytes.count
        else { return self }
        var copy = bytes
        let placeholder = mirror.mode.placeholder
        for (index, address) in range.enumerated() where index < placeholder.count {
            copy[address] = placeholder[index]
        }
        return Type2Memory(bytes: copy, chip: chip)
    }

    /// The configuration writes that set the mirror to `mirror` (nil: off): CFG1 first when the
    /// counter bits change (NFC_CNT_EN set for a mirror with the counter, NFC_CNT_PWD_PROT as
    /// `counterPasswordProtected` asks; left alone otherwise), then CFG0 with MIRROR_CONF,
    /// MIRROR_BYTE and MIRROR_PAGE (STRG_MOD_EN, the RFUI byte and AUTH0 kept). Writes that
    /// would change nothing are left out.
    ///
    /// - Throws: ``TagMemoryError/Code/unsupportedChip`` for a chip without the mirror,
    ///   ``TagMemoryError/Code/truncatedImage`` when the image does not hold CFG0 and CFG1,
    ///   ``TagMemoryError/Code/notWritable`` when CFGLCK locks a page that must change.
    public func mirrorPlan(
        _ mirror: Type2Configuration.Mirror?, counterPasswordProtected: Bool = false
    ) throws(TagMemoryError) -> TagWritePlan {
        guard let chip, chip.features.contains(.asciiMirror), let pages = chip.configurationPages else {
            throw TagMemoryError(
                .unsupportedChip, "\(chip?.name ?? "this unidentified chip") has no UID or NFC counter mirror")
        }
        guard var wanted = configuration else {
            throw TagMemoryError(.truncatedImage, "the image does not hold CFG0 and CFG1")
        }
        let current = wanted
        if let mirror, mirror.mode.includesCounter {
            wanted.isNFCCounterEnabled = true
            wanted.isNFCCounterPasswordProtected = counterPasswordProtected
        }
        wanted.mirror = mirror
        var builder = Type2PlanBuilder(memory: self)
        for (page, old, new) in [(pages.cfg1, current.cfg1, wanted.cfg1), (pages.cfg0, current.cfg0, wanted.cfg0)]
        where old != new {
            if current.isConfigurationLocked {
                throw TagMemoryError(
                    .notWritable, at: Type2Page.firstByte(of: page),
                    "CFGLCK locks CFG0 and CFG1 for good: the mirror cannot be "
                        + (mirror == nil ? "turned off" : "set up"))
            }
            let reason =
                page == pages.cfg1
                ? "CFG1: NFC_CNT_EN \(wanted.isNFCCounterEnabled ? 1 : 0), NFC_CNT_PWD_PROT "
                    + "\(wanted.isNFCCounterPasswordProtected ? 1 : 0) (NTAG213/215/216 8.5.7)"
                : mirror.map {
                    "CFG0: \($0.mode.name) mirror at page \($0.page) byte \($0.byte), after the message is verified "
                        + "(NTAG213/215/216 8.7)"
                } ?? "CFG0: mirror off before the message changes (NTAG213/215/216 8.7)"
            builder.write(page: page, data: new, reason: reason)
        }
        return builder.plan
    }
}
