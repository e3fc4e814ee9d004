import NFCSession
import TestSupport
import Testing

@testable import PCSCReader

/// PC/SC part 3 supplement 3.1.3.2.3 ATRs of contactless cards, decoded by ISO/IEC 7816-3 8.2;
/// the real ATRs are those pcsc-tools' smartcard_list.txt lists for these cards.
@Suite("ATR decoding")
struct AnswerToResetTests {
    @Test(
        "storage-card ATRs give the card name and a SAK",
        arguments: [
            ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68", 0x0003, 0x00),  // Ultralight / NTAG
            ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 01 00 00 00 00 6A", 0x0001, 0x08),  // Classic 1K
            ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 02 00 00 00 00 69", 0x0002, 0x18),  // Classic 4K
            ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 26 00 00 00 00 4D", 0x0026, 0x09),  // Mini
            ("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 FF 00 00 00 00 94", 0x00FF, 0x04),  // Sony "NFC Tag"
        ] as [(String, UInt16, UInt8)])
    func storage(atr text: String, name: UInt16, sak: UInt8) throws {
        let atr = try #require(PCSCAnswerToReset(hex(text)))
        #expect(atr.card == .storage(standard: 0x03, cardName: name))
        #expect(atr.derivedSAK == sak)
        #expect(atr.checkByteValid == true)
        #expect(atr.historicalBytes.count == 15)
        #expect(atr.historicalBytes.prefix(8) == [0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06])
    }

    @Test("an Ultralight ATR is a Type 2 target")
    func ultralightKind() throws {
        let atr = try #require(PCSCAnswerToReset(hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")))
        let target = NFCTargetInfo(index: 0, uid: [], atqa: [], sak: atr.derivedSAK)
        #expect(target.kind == .type2)
        #expect(atr.cardDescription == "MIFARE Ultralight or NTAG (standard 03h, card name 0003h)")
    }

    @Test("ISO/IEC 14443-4 ATRs are Type 4 (SAK 20h)")
    func isoDEP() throws {
        let desfire = try #require(PCSCAnswerToReset(hex("3B 81 80 01 80 80")))
        #expect(desfire.card == .isoDEP)
        #expect(desfire.historicalBytes == [0x80])
        #expect(desfire.checkByteValid == true)
        #expect(desfire.derivedSAK == 0x20)
        #expect(NFCTargetInfo(index: 0, uid: [], atqa: [], sak: desfire.derivedSAK).kind == .type4)
        let plus = try #require(PCSCAnswerToReset(hex("3B 87 80 01 C1 05 2F 2F 01 BC D6 A9")))
        #expect(plus.card == .isoDEP)
        #expect(plus.historicalBytes == hex("C1 05 2F 2F 01 BC D6"))
        #expect(plus.checkByteValid == true)
    }

    @Test("other ATRs: contact cards and unknown standards get the unknown SAK")
    func others() throws {
        let contact = try #require(PCSCAnswerToReset(hex("3B 02 14 50")))  // T=0 only: no TCK
        #expect(contact.card == .other)
        #expect(contact.checkByteValid == nil)
        #expect(contact.historicalBytes == [0x14, 0x50])
        #expect(contact.derivedSAK == PCSCAnswerToReset.unknownSAK)
        #expect(NFCTargetInfo(index: 0, uid: [], atqa: [], sak: PCSCAnswerToReset.unknownSAK).kind == .unknown)
        let typeB = try #require(PCSCAnswerToReset(hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 07 00 00 00 00 00 00 6F")))
        #expect(typeB.card == .storage(standard: 0x07, cardName: 0x0000))
        #expect(typeB.derivedSAK == PCSCAnswerToReset.unknownSAK)
    }

    @Test("a wrong check byte is reported, truncated ATRs are rejected")
    func malformed() throws {
        let wrongTCK = try #require(
            PCSCAnswerToReset(hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 69")))
        #expect(wrongTCK.checkByteValid == false)
        let ultralight = hex("3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68")
        for end in 0..<19 {
            #expect(PCSCAnswerToReset(Array(ultralight.prefix(end))) == nil, "\(end) bytes")
        }
        #expect(PCSCAnswerToReset(Array(ultralight.prefix(19)))?.checkByteValid == false)  // TCK missing
        #expect(PCSCAnswerToReset(hex("3C 81 80 01 80 80")) == nil)
        #expect(PCSCAnswerToReset(hex("3B FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF FF")) == nil)
    }

    @Test("ATS for ISO-DEP targets: whole ATS kept, historical bytes wrapped, ATR as fallback")
    func ats() throws {
        let atr = try #require(PCSCAnswerToReset(hex("3B 81 80 01 80 80")))
        #expect(PCSCAnswerToReset.syntheticATS(historicalBytes: [0x80]) == hex("03 00 80"))
        #expect(PCSCAnswerToReset.syntheticATS(historicalBytes: []) == hex("02 00"))
        #expect(PCSCAnswerToReset.ats(fromGetData: hex("06 75 77 81 02 80"), atr: atr) == hex("06 75 77 81 02 80"))
        #expect(PCSCAnswerToReset.ats(fromGetData: hex("C1 05 2F"), atr: atr) == hex("05 00 C1 05 2F"))
        #expect(PCSCAnswerToReset.ats(fromGetData: nil, atr: atr) == hex("03 00 80"))
        #expect(PCSCAnswerToReset.syntheticATS(historicalBytes: [UInt8](repeating: 0, count: 254)) == nil)
    }
}
