/// The commands nfcpy 1.0.4 sends for the same operations, derived from its source (a live run
/// needs a reader and comes with the libnfc backend): src/nfc/tag/tt2.py, tt2_nxp.py and tt4.py.
///
/// Type 2 reads and writes are counted with ``NfcpyType2Model``; the rest is worked out here.
/// Polling, activation and re-activation (`clf.sense`) are not counted, as for this library.
enum NfcpyReference {
    /// The column heading.
    static let label = "nfcpy 1.0.4 (derived from source)"

    /// `tt2_nxp.activate` for a tag whose UID starts with 04h (NXP): AUTHENTICATE `1A 00` first,
    /// to find a MIFARE Ultralight C (an NTAG refuses it and is sensed again), then GET_VERSION,
    /// whose answer picks the class (VERSION_MAP).
    static let identification: [CommandBudget.Part] = [
        .init(count: 1, command: "AUTHENTICATE", reason: "1A 00, the Ultralight C probe, refused"),
        .init(count: 1, command: "GET_VERSION", reason: "the NTAG21x class"),
    ]

    /// `tag.ndef` (capacity and writability come with it): the CC and the TLVs through the NDEF
    /// Message TLV's value, in 16-byte READs.
    static func status(image: [UInt8]) -> CommandBudget {
        var model = NfcpyType2Model(tag: image)
        _ = model.readNDEF()
        return CommandBudget(
            parts: identification + [
                .init(count: model.reads, command: "READ", reason: "tag.ndef: CC, TLV through the message")
            ])
    }

    /// `tag.ndef.records`: the same reads as ``status(image:)``.
    static func read(image: [UInt8]) -> CommandBudget { status(image: image) }

    /// `tag.ndef.records = [...]` then `tag.ndef.has_changed` to read it back.
    static func write(image: [UInt8], message: [UInt8]) -> CommandBudget {
        var model = NfcpyType2Model(tag: image)
        guard let found = model.readNDEF() else { return CommandBudget(parts: [], note: "no NDEF TLV") }
        let firstReads = model.reads
        model.writeNDEF(message, at: found.address)
        let writeReads = model.reads - firstReads
        let writes = model.writes
        let written = model.readNDEF()
        let readBack = model.reads - firstReads - writeReads
        return CommandBudget(
            parts: identification + [
                .init(count: firstReads, command: "READ", reason: "tag.ndef: CC, TLV through the old message"),
                .init(count: writeReads, command: "READ", reason: "the rest of the pages the new TLV covers"),
                .init(count: writes, command: "WRITE", reason: "length 0, the changed pages in order, the length"),
                .init(count: readBack, command: "READ", reason: "has_changed: a new read of CC and TLV"),
            ],
            note: written?.message == message ? nil : "the model does not read back the message written")
    }

    /// The hand derivation the model must reproduce: a 100-byte message written to a factory
    /// NTAG215 (`03 00 FE` at byte 16) and read back.
    /// - `tag.ndef`: CC byte 12 needs READ 0 (bytes 0-15); the TLV's T and L (`03 00`) at bytes
    ///   16-17 need READ 4: 2 READs.
    /// - the write: length 0 changes nothing (no WRITE); the message goes to bytes 18-117 and the
    ///   Terminator to 118, which needs READ 8, 12, 16, 20, 24, 28 (bytes 32-127): 6 READs; the
    ///   pages that now differ, 4 to 29: 26 WRITEs; the length 64h in page 4: 1 WRITE.
    /// - `has_changed`: a new reader reads bytes 0-117 again: READ 0 to 28, 8 READs.
    /// With the 2 identification commands: 2 + 2 + 6 + 27 + 8 = 45.
    static let handDerivedFactoryWrite = [2, 2, 6, 27, 8]

    /// The counts of ``write(image:message:)`` for the hand-derived case, to compare with
    /// ``handDerivedFactoryWrite``.
    static func modelledFactoryWrite(image: [UInt8], message: [UInt8]) -> [Int] {
        [2] + write(image: image, message: message).parts.dropFirst(identification.count).map(\.count)
    }

    /// `tag.protect()` on an NTAG21x (`_protect_with_lockbits`): READ of page 3, WRITE of the CC
    /// with access 0Fh, WRITE `00 00 FF FF` to page 2, WRITE `FF FF FF 00` to the page before
    /// CFG0 (the dynamic lock bytes), READ of CFG0, and WRITE of CFG1 with CFGLCK. No read-back.
    static let lock = CommandBudget(
        parts: identification + [
            .init(count: 1, command: "READ", reason: "page 3, the CC"),
            .init(count: 3, command: "WRITE", reason: "CC, static lock bytes, dynamic lock bytes"),
            .init(count: 1, command: "READ", reason: "CFG0-PACK"),
            .init(count: 1, command: "WRITE", reason: "CFG1 with CFGLCK, which it always sets"),
        ],
        note: "no read-back, no check of what is locked")

    /// `tag.protect(password, protect_from=4)` on an NTAG21x (`_protect_with_password`): READ of
    /// CFG0-PACK, WRITE of CFG0, CFG1, PWD and PACK in that order (each page, changed or not:
    /// AUTH0 before the password), then the tag is sensed again and authenticated once.
    /// With the default `protect_from=0` (page 3) it also reads and writes the CC: 2 more.
    static let password = CommandBudget(
        parts: identification + [
            .init(count: 1, command: "READ", reason: "CFG0, CFG1, PWD, PACK"),
            .init(count: 4, command: "WRITE", reason: "CFG0 (AUTH0 first), CFG1, PWD, PACK"),
            .init(count: 1, command: "PWD_AUTH", reason: "authenticate with the new password"),
        ],
        note: "no read-back of CFG0 and CFG1")

    /// `tag.ndef.records = [...]` and `tag.ndef.has_changed` on a Type 4 tag (tt4.py) whose NLEN
    /// is 0: `_discover_ndef` (SELECT the version 2 application, SELECT CC, READ BINARY of CCLEN,
    /// READ BINARY of the rest of the CC), SELECT NDEF and READ BINARY of NLEN; the write is one
    /// UPDATE BINARY of NLEN and the message when they fit MLc, else MLc-sized pieces from offset 0
    /// (NLEN 00 00 first) and NLEN last; the read-back selects the NDEF file and reads NLEN and
    /// then the message in MLe-sized pieces.
    static func type4Write(messageLength length: Int, mlc: Int, mle: Int) -> CommandBudget {
        let single = 2 + length <= mlc
        let updates = single ? 1 : (2 + length + mlc - 1) / mlc + 1
        return CommandBudget(parts: [
            .init(count: 1, command: "SELECT_APPLICATION", reason: "D2760000850101"),
            .init(count: 1, command: "SELECT_FILE", reason: "E103, the CC"),
            .init(count: 2, command: "READ_BINARY", reason: "CCLEN, then the CC"),
            .init(count: 1, command: "SELECT_FILE", reason: "the NDEF file"),
            .init(count: 1, command: "READ_BINARY", reason: "NLEN"),
            .init(
                count: updates, command: "UPDATE_BINARY",
                reason: single ? "NLEN and the message" : "pieces, NLEN last"),
            .init(count: 1, command: "SELECT_FILE", reason: "has_changed: the NDEF file"),
            .init(count: 1 + (length + mle - 1) / mle, command: "READ_BINARY", reason: "NLEN, the message"),
        ])
    }
}
