/// The theoretical minimum number of commands of each operation, computed from the tag's layout
/// and the message, with the reason for each command.
///
/// The minimum keeps every guarantee the operation gives, and asks nothing more:
///
/// | rule | cost |
/// |---|---|
/// | the session names a Type 2 chip before handing the tag out | 1 GET_VERSION |
/// | a read sees the CC and the TLVs through the NDEF Message TLV | FAST_READ 63 pages, READ 4 |
/// | checks before a write: CC access, lock bits, AUTH0 and ACCESS | pages 2-3, lock and CFG pages |
/// | every page a write overwrites is read first (unchanged ones skipped) | the new TLV's pages |
/// | a torn write leaves the old, an empty or the new message (T2T 6.4.3) | length page twice |
/// | every write is read back (PWD and PACK: one PWD_AUTH instead) | the written pages |
/// | a lock is confirmed: read when prepared and again before locking | the reads twice |
/// | Type 4: SELECT application, SELECT CC, READ BINARY CC, SELECT NDEF (T4T 3.0, 5.5) | 4 APDUs |
///
/// FAST_READ windows are 63 pages: a 252-byte frame. The length page is written twice when its
/// other bytes or other pages change: length 0 first, length last.
///
/// Commands are counted as the tag receives them; polling and selection (REQA/WUPA,
/// anticollision, SELECT, RATS) are not commands here.
enum MinimumBudgets {
    /// Page numbers of a chip (NTAG213/215/216 datasheet 8.5, table 5 and 8.5.7).
    struct Layout {
        /// The dynamic lock bytes' page.
        var lockPage: Int
        /// CFG0 (AUTH0) and CFG1 (ACCESS).
        var cfg0: Int
        var cfg1: Int
        /// PWD and PACK.
        var password: Int
        var passwordAcknowledge: Int

        /// NTAG215: 135 pages, dynamic lock bytes at page 130 (82h), CFG0 83h, CFG1 84h, PWD 85h, PACK 86h.
        static let ntag215 = Layout(lockPage: 130, cfg0: 131, cfg1: 132, password: 133, passwordAcknowledge: 134)
        /// NTAG216: 231 pages, dynamic lock bytes at page 226 (E2h), CFG0 E3h, CFG1 E4h, PWD E5h, PACK E6h.
        static let ntag216 = Layout(lockPage: 226, cfg0: 227, cfg1: 228, password: 229, passwordAcknowledge: 230)

        /// The pages every check before a write reads besides the TLV area.
        var controlPages: [Int] { [lockPage, cfg0, cfg1] }
    }

    /// The first byte of the data area, where the NDEF Message TLV of a factory NTAG215 or
    /// NTAG216 starts (their factory data area is `03 00 FE`: no Lock Control TLV).
    static let tlvStart = 16

    static let identification = CommandBudget.Part(
        count: 1, command: "GET_VERSION", reason: "identification before the tag is handed out")

    /// Identification through a reader that passes READ and WRITE only: one READ of pages 0-3,
    /// whose CC data area size (3Eh: 496 bytes) names the NTAG215 among the catalogue's chips.
    static let identificationByCapabilityContainer = CommandBudget.Part(
        count: 1, command: "READ", reason: "identification by the CC's data area size")

    /// The address of the last byte of an NDEF Message TLV of a `length`-byte message.
    static func tlvEnd(messageLength length: Int) -> Int {
        tlvStart + PageArithmetic.tlvHeaderSize(messageLength: length) + length - 1
    }

    /// Read commands for `pages` with FAST_READ or READ.
    static func reads(_ pages: [Int], fastRead: Bool) -> Int {
        PageArithmetic.readCommands(
            pages, window: fastRead ? PageArithmetic.pagesPerFastRead : PageArithmetic.pagesPerRead)
    }

    /// `queryNDEFStatus` of a factory tag: the static lock bytes, the CC and the NDEF TLV's T and
    /// L bytes (pages 2-4), and the dynamic lock bits, whose bits can make the tag read-only.
    static func status(layout: Layout) -> CommandBudget {
        CommandBudget(parts: [
            identification,
            .init(
                count: reads([2, 3, 4, layout.lockPage], fastRead: true), command: "FAST_READ",
                reason: "pages 2-4 and the dynamic lock page \(layout.lockPage)"),
        ])
    }

    /// `readNDEF` of a `length`-byte message: the CC and the TLV through its last byte, the first
    /// read as long as the frame allows (the length is unknown until it is read).
    static func read(messageLength length: Int) -> CommandBudget {
        let last = PageArithmetic.page(ofByte: tlvEnd(messageLength: length))
        return CommandBudget(parts: [
            identification,
            .init(count: reads(Array(3...last), fastRead: true), command: "FAST_READ", reason: "pages 3-\(last)"),
        ])
    }

    /// `writeNDEF` of `new` over a tag whose TLV area holds `old` (nil: the factory `03 00 FE`),
    /// then the read-back.
    ///
    /// The new TLV and its Terminator cover pages 4 to `last`; every page whose content changes is
    /// written once, and the length page (page 4, bytes 16-17 are T and L) a second time when any
    /// other byte changes: first with length 0, last with the new length.
    static func write(
        new: [UInt8], old: [UInt8]?, layout: Layout, fastRead: Bool, identifiedByVersion: Bool = true
    ) -> CommandBudget {
        let newArea = tlvArea(message: new)
        let oldArea = old.map(tlvArea) ?? [0x03, 0x00, 0xFE]
        let last = PageArithmetic.page(ofByte: tlvStart + newArea.count - 1)
        let newPages = (4...last).map { page(of: newArea, $0) }
        let oldPages = (4...last).map { page(of: oldArea, $0) }
        let otherPages = (5...max(5, last)).filter { $0 <= last && newPages[$0 - 4] != oldPages[$0 - 4] }
        // Page 4 holds T, L (byte 17) and the first message bytes. When other pages change it is
        // written first with length 0 and its other bytes final (unless it already holds exactly
        // that), and last with the length; alone, once when only the length changes.
        var staged = newPages[0]
        staged[1] = 0x00
        let lengthPageWrites: Int
        if !otherPages.isEmpty {
            lengthPageWrites = oldPages[0] == staged ? 1 : 2
        } else if newPages[0] != oldPages[0] {
            let onlyLength = [0, 2, 3].allSatisfy { newPages[0][$0] == oldPages[0][$0] }
            lengthPageWrites = onlyLength ? 1 : 2
        } else {
            lengthPageWrites = 0
        }
        let written = (lengthPageWrites > 0 ? [4] : []) + otherPages
        let command = fastRead ? "FAST_READ" : "READ"
        return CommandBudget(parts: [
            identifiedByVersion ? identification : identificationByCapabilityContainer,
            .init(
                count: reads(Array(2...last) + layout.controlPages, fastRead: fastRead), command: command,
                reason: "pages 2-\(last) (locks, CC, the pages to overwrite) and \(layout.lockPage)-\(layout.cfg1)"),
            .init(
                count: otherPages.count + lengthPageWrites, command: "WRITE",
                reason: "\(otherPages.count) data pages, page 4 "
                    + (lengthPageWrites == 2 ? "twice: length 0, length" : "once")),
            .init(
                count: reads(written, fastRead: fastRead), command: command,
                reason: "read-back of pages \(written.first ?? 4)-\(written.last ?? 4)"),
        ])
    }

    /// The 4 bytes of `page` in a TLV area that starts at byte 16 (00h past its end, as on a factory tag).
    private static func page(of area: [UInt8], _ page: Int) -> [UInt8] {
        let start = page * 4 - tlvStart
        return (start..<(start + 4)).map { $0 >= 0 && $0 < area.count ? area[$0] : 0x00 }
    }

    /// `prepareLock` then `writeLock` of a tag holding a `length`-byte message: both read the
    /// CC, the TLV area through the message (the confirmation digests it) and the lock and
    /// configuration pages; the lock writes the CC (write access Fh), the dynamic lock bytes and
    /// the static lock bytes (NTAG213/215/216 8.5.2, 8.5.3, 8.5.6), each read back before the
    /// next: every lock step is one-time programmable, so a WRITE that did not take must be seen
    /// before a later bit is set (one single-page read per step, where one read of pages 2-3 and
    /// one of the lock page would do after all three).
    static func lock(messageLength length: Int, layout: Layout) -> CommandBudget {
        let last = PageArithmetic.page(ofByte: tlvEnd(messageLength: length))
        let state = reads(Array(2...last) + layout.controlPages, fastRead: true)
        return CommandBudget(
            parts: [
                identification,
                .init(
                    count: state, command: "FAST_READ",
                    reason: "prepareLock: pages 2-\(last), \(layout.lockPage)-\(layout.cfg1)"),
                .init(count: state, command: "FAST_READ", reason: "writeLock: the same, to check the confirmation"),
                .init(count: 3, command: "WRITE", reason: "CC, dynamic lock bytes, static lock bytes"),
                .init(
                    count: 3, command: "FAST_READ",
                    reason: "read-back of each step before the next: page 3, \(layout.lockPage), 2"),
            ],
            note: "without the confirmation (one pass): \(1 + state + 3 + 3)"
        )
    }

    /// `writeNDEF(_:mirror:)` of `message` with the UID and counter mirror on a factory tag: the
    /// plain write, then CFG1 (NFC_CNT_EN) and CFG0 (the mirror), which must follow the verified
    /// message, and one read-back of both (NTAG213/215/216 8.7, 8.5.7).
    static func mirroredWrite(message: [UInt8], layout: Layout) -> CommandBudget {
        var budget = write(new: message, old: nil, layout: layout, fastRead: true)
        budget.parts += [
            .init(count: 2, command: "WRITE", reason: "CFG1 (NFC_CNT_EN), then CFG0 (mirror page and byte)"),
            .init(count: 1, command: "FAST_READ", reason: "read-back of CFG0 and CFG1"),
        ]
        return budget
    }

    /// `setPassword` on a factory tag with AUTH0 at page 4, PROT and AUTHLIM 0: CFG1 (ACCESS)
    /// keeps its factory value, so PWD, PACK and CFG0 (AUTH0 last) are written.
    static func password(layout: Layout) -> CommandBudget {
        CommandBudget(parts: [
            identification,
            .init(count: 1, command: "FAST_READ", reason: "CFG0 and CFG1 (AUTH0, ACCESS with CFGLCK)"),
            .init(count: 3, command: "WRITE", reason: "PWD, PACK, then CFG0 with AUTH0"),
            .init(count: 1, command: "PWD_AUTH", reason: "the new password must answer the new PACK"),
            .init(count: 1, command: "FAST_READ", reason: "read-back of CFG0 and CFG1"),
        ])
    }

    /// Type 4 `writeNDEF` of `length` bytes with MLc `mlc` (and a reader carrying 246 command and
    /// 250 response data bytes), then the read-back; the NLEN field is 2 bytes (T4T 3.0, 5.1.2).
    ///
    /// When NLEN and the message fit one UPDATE BINARY, one command writes both (T4T 3.0, 5.5.7
    /// allows it) and nothing needs to be read first. Otherwise NLEN must be 0 before the
    /// message changes and is written last: reading NLEN tells whether the first step is needed
    /// (a factory tag's NLEN is 0; writing 0 blindly costs the same one command).
    static func type4Write(messageLength length: Int, mlc: Int, mle: Int) -> CommandBudget {
        let commandBudget = min(mlc, 246)
        let single = 2 + length <= commandBudget
        let pieces = (length + commandBudget - 1) / commandBudget
        let readBack = (2 + length + min(mle, 250) - 1) / min(mle, 250)
        var parts: [CommandBudget.Part] = [
            .init(count: 1, command: "SELECT_APPLICATION", reason: "the NDEF Tag Application"),
            .init(count: 1, command: "SELECT_FILE", reason: "the CC file"),
            .init(count: 1, command: "READ_BINARY", reason: "the CC: file id, MLe, MLc, access, size"),
            .init(count: 1, command: "SELECT_FILE", reason: "the NDEF file"),
        ]
        if single {
            parts.append(.init(count: 1, command: "UPDATE_BINARY", reason: "NLEN and the message in one"))
        } else {
            parts += [
                .init(count: 1, command: "READ_BINARY", reason: "NLEN: already 0?"),
                .init(count: pieces, command: "UPDATE_BINARY", reason: "the message in \(commandBudget)-byte pieces"),
                .init(count: 1, command: "UPDATE_BINARY", reason: "NLEN last"),
            ]
        }
        parts.append(.init(count: readBack, command: "READ_BINARY", reason: "read-back of NLEN and the message"))
        return CommandBudget(parts: parts)
    }

    /// The TLV area of a message: 03h, the length, the message, the Terminator FEh.
    static func tlvArea(message: [UInt8]) -> [UInt8] {
        let length: [UInt8] =
            message.count < 0xFF
            ? [UInt8(truncatingIfNeeded: message.count)]
            : [0xFF, UInt8(truncatingIfNeeded: message.count >> 8), UInt8(truncatingIfNeeded: message.count)]
        return [0x03] + length + message + [0xFE]
    }
}
