import NDEF
import TagMemory
import TestSupport
import Testing

/// What a fixture image must parse to.
struct Type2Expectation: Sendable, CustomTestStringConvertible {
    /// The fixture file name.
    var name: String
    /// The specification clause or datasheet section the expectation checks.
    var clause: String
    /// The expected NDEF status.
    var status: NFCNDEFStatus
    /// The expected capacity.
    var capacity: Int
    /// The expected message (nil: none, e.g. an empty NDEF TLV or an unreadable one).
    var message: NFCNDEFMessage?
    /// The expected problem code, if any.
    var problem: TagMemoryError.Code?

    var testDescription: String { "\(name): \(clause)" }
}

/// Every fixture image of `Fixtures/tags/`, parsed with its chip.
@Suite("Type 2 memory images")
struct Type2FixtureTests {
    static let uri = exampleURIMessage
    static let expectations: [Type2Expectation] = [
        // Factory images.
        .init(
            name: "ultralight-mf0icu1-factory.hex", clause: "MF0ICU1 8.5: CC 00 00 00 00, not formatted (T2T 6.1)",
            status: .notSupported, capacity: 0, problem: .notFormatted),
        .init(
            name: "ultralight-c-mf0icu2-factory.hex", clause: "MF0ICU2 7.5.10 Table 13: CC 00 00 00 00",
            status: .notSupported, capacity: 0, problem: .notFormatted),
        .init(
            name: "ultralight-ev1-mf0ul11-factory.hex", clause: "MF0ULX1 8.5: page 3 00 00 00 00",
            status: .notSupported, capacity: 0, problem: .notFormatted),
        .init(
            name: "ultralight-ev1-mf0ul21-factory.hex", clause: "MF0ULX1 8.5: page 3 00 00 00 00",
            status: .notSupported, capacity: 0, problem: .notFormatted),
        .init(
            name: "ntag210-factory.hex", clause: "NTAG210 8.5: 48-byte area, empty NDEF TLV at 16: 48 - 2 = 46",
            status: .readWrite, capacity: 46),
        .init(
            name: "ntag212-factory.hex", clause: "NTAG212 8.5: 128 bytes less Lock Control TLV (5) less 2 = 121",
            status: .readWrite, capacity: 121),
        .init(
            name: "ntag213-factory.hex", clause: "NTAG213 8.5.6: 144 bytes less Lock Control TLV (5) less 2 = 137",
            status: .readWrite, capacity: 137),
        .init(
            name: "ntag215-factory.hex", clause: "NTAG215 8.5.6: 496 bytes less T and 3 length bytes = 492",
            status: .readWrite, capacity: 492),
        .init(
            name: "ntag216-factory.hex", clause: "NTAG216 8.5.6: 872 bytes less T and 3 length bytes = 868",
            status: .readWrite, capacity: 868),
        // Messages.
        .init(
            name: "ntag213-short-message.hex", clause: "T2T 2.3.4: NDEF TLV 03 10 after the Lock Control TLV",
            status: .readWrite, capacity: 137, message: uri),
        .init(
            name: "ntag215-short-message.hex", clause: "T2T 2.3.4: NDEF TLV 03 10", status: .readWrite,
            capacity: 492, message: uri),
        .init(
            name: "ntag216-short-message.hex", clause: "T2T 2.3.4: NDEF TLV 03 10", status: .readWrite,
            capacity: 868, message: uri),
        .init(
            name: "ntag215-long-message.hex", clause: "T2T 2.3.4: three-byte length 03 FF 01 36", status: .readWrite,
            capacity: 492, message: textMessage(count: 300)),
        .init(
            name: "ntag216-long-message.hex", clause: "T2T 2.3.4: three-byte length 03 FF 01 36", status: .readWrite,
            capacity: 868, message: textMessage(count: 300)),
        .init(
            name: "ntag213-full-message.hex", clause: "T2T 6.4.3: a 137-byte message fills the area, no Terminator",
            status: .readWrite, capacity: 137, message: textMessage(count: 130)),
        .init(
            name: "ntag215-full-message.hex", clause: "T2T 6.4.3: a 492-byte message fills the area, no Terminator",
            status: .readWrite, capacity: 492, message: textMessage(count: 482)),
        .init(
            name: "ntag216-full-message.hex", clause: "T2T 6.4.3: an 868-byte message fills the area, no Terminator",
            status: .readWrite, capacity: 868, message: textMessage(count: 858)),
        .init(
            name: "ntag213-null-proprietary.hex", clause: "T2T 2.3.1, 2.3.5: NDEF TLV at 29: 160 - 29 - 2 = 129",
            status: .readWrite, capacity: 129, message: uri),
        .init(
            name: "ntag215-null-proprietary.hex", clause: "T2T 2.3.1, 2.3.5: NDEF TLV at 24: 512 - 24 - 4 = 484",
            status: .readWrite, capacity: 484, message: uri),
        .init(
            name: "ntag216-null-proprietary.hex", clause: "T2T 2.3.1, 2.3.5: NDEF TLV at 24: 888 - 24 - 4 = 860",
            status: .readWrite, capacity: 860, message: uri),
        .init(
            name: "ntag213-memory-control.hex", clause: "T2T 2.3.3, 2.2.1: 160 - 26 - 4 reserved - 2 = 128",
            status: .readWrite, capacity: 128, message: uri),
        .init(
            name: "ntag215-memory-control.hex", clause: "T2T 2.3.3, 2.2.1: 512 - 21 - 4 reserved - 4 = 483",
            status: .readWrite, capacity: 483, message: uri),
        .init(
            name: "ntag216-memory-control.hex", clause: "T2T 2.3.3, 2.2.1: 888 - 21 - 4 reserved - 4 = 859",
            status: .readWrite, capacity: 859, message: uri),
        // Read-only and locked.
        .init(
            name: "ntag213-read-only.hex", clause: "T2T 6.3.3: CC write access Fh", status: .readOnly,
            capacity: 137, message: uri),
        .init(
            name: "ntag215-read-only.hex", clause: "T2T 6.3.3: CC write access Fh", status: .readOnly,
            capacity: 492, message: uri),
        .init(
            name: "ntag216-read-only.hex", clause: "T2T 6.3.3: CC write access Fh", status: .readOnly,
            capacity: 868, message: uri),
        .init(
            name: "ntag215-dynamic-lock-bit.hex", clause: "NTAG215 8.5.3: lock bit 0 locks pages 16-31",
            status: .readOnly, capacity: 492, message: textMessage(count: 100)),
        .init(
            name: "ntag213-static-lock-bit.hex", clause: "NTAG213 8.5.2: L6 locks page 6", status: .readOnly,
            capacity: 137, message: uri),
        // Password: not a lock, and the CC is untouched.
        .init(
            name: "ntag213-password-protected.hex", clause: "NTAG213 8.5.7: AUTH0 does not change the CC",
            status: .readWrite, capacity: 137, message: uri),
        .init(
            name: "ntag215-password-protected.hex", clause: "NTAG215 8.5.7: AUTH0 does not change the CC",
            status: .readWrite, capacity: 492, message: uri),
        .init(
            name: "ntag216-password-protected.hex", clause: "NTAG216 8.5.7: AUTH0 does not change the CC",
            status: .readWrite, capacity: 868, message: uri),
        // Half-written: INITIALIZED state.
        .init(
            name: "ntag213-half-written.hex", clause: "T2T 6.3.1, 6.4.3: NDEF length 0 is an empty message",
            status: .readWrite, capacity: 137),
        .init(
            name: "ntag215-half-written.hex", clause: "T2T 6.3.1, 6.4.3: NDEF length 0 is an empty message",
            status: .readWrite, capacity: 492),
        .init(
            name: "ntag216-half-written.hex", clause: "T2T 6.3.1, 6.4.3: NDEF length 0 is an empty message",
            status: .readWrite, capacity: 868),
        // Hostile.
        .init(
            name: "ntag213-hostile-length-past-end.hex", clause: "T2T 2.3.4: the value must fit the data area",
            status: .readWrite, capacity: 137, problem: .malformedTLV),
        .init(
            name: "ntag215-hostile-length-past-end.hex", clause: "T2T 2.3.4: the value must fit the data area",
            status: .readWrite, capacity: 492, problem: .malformedTLV),
        .init(
            name: "ntag213-hostile-truncated.hex", clause: "Partial image: the NDEF TLV is there, its value is not",
            status: .readWrite, capacity: 137, problem: .truncatedImage),
        .init(
            name: "ntag213-hostile-truncated-before-cc.hex", clause: "T2T 6.1: no CC, no NDEF",
            status: .notSupported, capacity: 0, problem: .truncatedImage),
        .init(
            name: "ntag216-hostile-truncated-long-message.hex", clause: "Partial image inside a long message",
            status: .readWrite, capacity: 868, problem: .truncatedImage),
        .init(
            name: "ntag213-hostile-bad-magic.hex", clause: "T2T 6.1: magic number E1h", status: .notSupported,
            capacity: 0, problem: .notFormatted),
        .init(
            name: "ntag215-hostile-version-2.hex", clause: "T2T 6.1.1: unknown major version",
            status: .notSupported, capacity: 0, problem: .notFormatted),
        .init(
            name: "ntag216-hostile-three-byte-length-under-ff.hex",
            clause: "T2T 2.3: FF form under 00FFh, unambiguous: read, with a warning",
            status: .readWrite, capacity: 868, message: uri),
        .init(
            name: "ntag213-hostile-cc-overclaims.hex", clause: "The chip bounds the CC's data area (144 bytes)",
            status: .readWrite, capacity: 137, message: uri),
        .init(
            name: "ntag215-hostile-lock-control-length.hex",
            clause: "T2T 2.3.2: a Lock Control TLV of another length than 3 is skipped, with a warning",
            status: .readWrite, capacity: 488, message: uri),
    ]

    @Test("Every fixture file has an expectation")
    func everyFixtureCovered() {
        #expect(Set(TagFixtures.names) == Set(Self.expectations.map(\.name)))
        #expect(TagFixtures.names.count == 44)
    }

    @Test("Status, capacity, message and problem", arguments: expectations)
    func fixture(_ expected: Type2Expectation) throws {
        let memory = try TagFixtures.memory(expected.name)
        #expect(memory.chip != nil)
        #expect(memory.ndefStatus == NDEFTagStatus(status: expected.status, capacity: expected.capacity))
        #expect(memory.message == expected.message)
        #expect(memory.problem?.code == expected.problem)
        #expect((memory.ndefStatusReason == nil) == (expected.status == .readWrite))
        if let message = memory.message {
            #expect(memory.ndefMessageBytes == (try message.encoded()))
            #expect(message.length <= memory.ndefStatus.capacity)
        }
        // The UID and its check bytes are right in every image that holds them (ISO/IEC 14443-3).
        if memory.bytes.count >= 9 {
            #expect(memory.uid?.first == 0x04 && memory.isBCC0Valid == true && memory.isBCC1Valid == true)
        }
    }

    @Test("A full message leaves no room: capacity equals the message length")
    func fullMessages() throws {
        for name in ["ntag213", "ntag215", "ntag216"] {
            let memory = try TagFixtures.memory("\(name)-full-message.hex")
            #expect(memory.ndefMessageBytes?.count == memory.ndefStatus.capacity)
            #expect(memory.tlvScan?.terminatorAddress == nil)
        }
    }

    @Test("T2T 2.3.1, 2.3.5: NULL and proprietary TLVs before the NDEF TLV, each with its addresses")
    func nullAndProprietary() throws {
        let memory = try TagFixtures.memory("ntag213-null-proprietary.hex")
        #expect(
            memory.tlvs.map(\.kind) == [.lockControl, .null, .null, .proprietary, .null, .ndefMessage, .terminator])
        let proprietary = memory.tlvs[3]
        #expect(
            proprietary.typeAddress == 23 && proprietary.lengthAddress == 24 && proprietary.valueRanges == [25..<28])
        #expect(proprietary.value(in: memory.bytes[...]) == hex("cafe01"))
        #expect(
            memory.ndefTLVAddress == 29 && memory.ndefTLV?.lengthAddress == 30 && memory.ndefTLV?.valueAddress == 31)
    }

    @Test("T2T 2.2.1, 2.3.3: the NDEF value skips the reserved bytes; usable ranges for a writer")
    func memoryControl() throws {
        let memory = try TagFixtures.memory("ntag213-memory-control.hex")
        #expect(memory.reservedRanges.ranges == [40..<44, 160..<162])
        #expect(memory.ndefTLV?.valueRanges == [28..<40, 44..<48])
        #expect(memory.dataRanges(from: 26) == [26..<40, 44..<160])
        #expect(memory.ndefTLVWriteAddress == 26)
        let n215 = try TagFixtures.memory("ntag215-memory-control.hex")
        #expect(n215.ndefTLV?.valueRanges == [23..<24, 28..<43])
        #expect(n215.reservedRanges(before: 21).ranges == [24..<28])
        #expect(n215.reservedRanges(before: 16).isEmpty)
    }

    @Test("Lock bits: static 2.1.2, dynamic (datasheet 8.5.3), UID pages always locked")
    func locks() throws {
        let readOnly = try TagFixtures.memory("ntag213-read-only.hex")
        #expect(readOnly.lockedPages == Array(0...1) + Array(3...39))
        #expect(readOnly.dynamicLockBytes == hex("ff0f3f"))
        #expect(readOnly.staticLock == Type2StaticLock(lock0: 0xFF, lock1: 0xFF))
        let n216 = try TagFixtures.memory("ntag216-read-only.hex")
        #expect(n216.lockedPages == Array(0...1) + Array(3...225))
        let n215 = try TagFixtures.memory("ntag215-dynamic-lock-bit.hex")
        #expect(n215.lockedPages == [0, 1] + Array(16...31))
        #expect(n215.ndefStatusReason == "page 16 of the NDEF area is locked")
        let factory = try TagFixtures.memory("ntag215-factory.hex")
        #expect(factory.lockedPages == [0, 1])
    }

    @Test("T2T 6.3.1: a half-written tag shows an empty message but keeps the bytes behind it")
    func halfWritten() throws {
        let memory = try TagFixtures.memory("ntag213-half-written.hex")
        #expect(memory.ndefTLV?.length == 0 && memory.ndefMessageBytes == [] && memory.message == nil)
        #expect(memory.problem == nil)
        // The next block read is the first byte of the stale message (D1), an unknown TLV.
        #expect(memory.tlvs.count >= 3 && memory.tlvs[2].kind == .unknown(0xD1))
    }

    @Test("T2T 2.3, 2.3.2: what is unusual but unambiguous is read, and said in the scan's warnings")
    func unusualButUnambiguous() throws {
        let threeByte = try TagFixtures.memory("ntag216-hostile-three-byte-length-under-ff.hex")
        #expect(threeByte.tlvScan?.warnings.map(\.offset) == [16])
        #expect(threeByte.tlvScan?.warnings.first?.reason.contains("three-byte length form for 16 bytes") == true)
        let lockControl = try TagFixtures.memory("ntag215-hostile-lock-control-length.hex")
        let warning = try #require(lockControl.tlvScan?.warnings.first)
        #expect(warning.offset == 16)
        #expect(warning.reason.contains("Lock Control TLV at byte 16 has 2 value bytes"), "\(warning.reason)")
        #expect(warning.reason.contains("the lock bytes it names are unknown"))
        #expect(lockControl.tlvs.first?.lockControl == nil)
    }

    @Test("Without the chip, the CC rules: an over-claiming CC gives a larger data area")
    func withoutChip() throws {
        let bytes = try TagFixtures.load("ntag213-hostile-cc-overclaims.hex")
        let memory = Type2Memory(bytes: bytes)
        #expect(memory.dataArea == 16..<2048)
        #expect(memory.ndefStatus == NDEFTagStatus(status: .readWrite, capacity: 2048 - 21 - 4 - 2))
        #expect(memory.message == exampleURIMessage)
        // The generic lock model comes from the Lock Control TLV: 12 bits of 8 bytes at 160.
        #expect(memory.genericDynamicLock == .init(byteAddress: 160, lockBitCount: 12, bytesLockedPerBit: 8))
        let withChip = Type2Memory(bytes: bytes, chip: .ntag213)
        #expect(withChip.dataArea == 16..<160 && withChip.genericDynamicLock == nil)
    }

    @Test("T2T 2.2.2: for an unknown chip without a Lock Control TLV, the default lock bytes follow the data area")
    func defaultLockLocation() throws {
        var bytes = try TagFixtures.load("ntag215-short-message.hex")
        let memory = Type2Memory(bytes: bytes)
        // 496-byte data area: lock bytes at 16 + 496 = 512 (page 80h, inside NTAG215 user memory), 56 bits.
        #expect(memory.genericDynamicLock == .init(byteAddress: 512, lockBitCount: 56, bytesLockedPerBit: 8))
        #expect(memory.ndefStatus.status == .readWrite)
        bytes[512] = 0x01  // default model: bit 0 locks bytes 64-71, pages 16-17
        let locked = Type2Memory(bytes: bytes)
        #expect(locked.isPageLocked(16) && locked.isPageLocked(17) && !locked.isPageLocked(18))
        #expect(locked.ndefStatus.status == .readOnly)
        // With the chip, byte 512 is user memory: nothing is locked.
        #expect(!Type2Memory(bytes: bytes, chip: .ntag215).isPageLocked(16))
    }
}

/// T2T 1.1, 6.1: a CC that denies read access leaves the tag unreadable, but it still announces
/// the data area's size.
@Suite("Type 2 status when the CC denies reading")
struct Type2ReadAccessTests {
    @Test("Read access 8h (proprietary): notSupported, with the capacity the CC announces")
    func readAccessDenied() throws {
        var bytes = try TagFixtures.load("ntag215-factory.hex")
        bytes[15] = 0x80  // CC3: read access 8h, write access 0h
        let memory = Type2Memory(bytes: bytes, chip: .ntag215)
        #expect(memory.ndefStatus == NDEFTagStatus(status: .notSupported, capacity: 492))
        #expect(memory.ndefStatusReason == "the capability container does not grant read access")
    }

    /// Found by the type2 fuzz target (its invariant, not the parser, was out of date): a CC
    /// announcing 1,952 bytes with access F4h in an image of 273 bytes and no known chip.
    @Test("Read access Fh in a short image of no known chip: notSupported, the capacity the CC announces")
    func readAccessDeniedShortImage() throws {
        var bytes = hex("04 17 28 b3 39 4a 5b 6c 44 48 40 00 e1 10 f4 f4")
        bytes += [UInt8](repeating: 0xF4, count: 273 - bytes.count)
        let memory = Type2Memory(bytes: bytes)
        // F4h × 8 = 1,952 bytes of data area, less an NDEF TLV's 4 header bytes (3-byte length form).
        #expect(memory.ndefStatus == NDEFTagStatus(status: .notSupported, capacity: 1_948))
        #expect(memory.ndefStatusReason == "the capability container does not grant read access")
    }
}
