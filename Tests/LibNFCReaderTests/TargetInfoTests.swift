import CLibNFC
import NFCSession
import Testing

@testable import LibNFCReader

/// libnfc's nfc_iso14443a_info becomes NFCTargetInfo: SENS_RES in air order, TL put back in
/// front of the ATS, lengths clamped to libnfc's arrays.
@Suite("targets from libnfc")
struct TargetInfoTests {
    /// An ISO/IEC 14443 A target as libnfc fills it from a PN532's InListPassiveTarget answer.
    static func target(atqa: (UInt8, UInt8), sak: UInt8, uid: [UInt8], ats: [UInt8] = [], uidLength: Int? = nil)
        -> nfc_target
    {
        var target = nfc_target()
        target.nm = nfc_modulation(nmt: NMT_ISO14443A, nbr: NBR_106)
        target.nti.nai.abtAtqa = atqa
        target.nti.nai.btSak = sak
        target.nti.nai.szUidLen = uidLength ?? uid.count
        withUnsafeMutableBytes(of: &target.nti.nai.abtUid) { bytes in
            for (index, byte) in uid.prefix(bytes.count).enumerated() { bytes[index] = byte }
        }
        target.nti.nai.szAtsLen = ats.count
        withUnsafeMutableBytes(of: &target.nti.nai.abtAts) { bytes in
            for (index, byte) in ats.prefix(bytes.count).enumerated() { bytes[index] = byte }
        }
        return target
    }

    @Test("an NTAG215: UID, ATQA 44 00 in air order (the PN532 reports 00 44), SAK 00, no ATS")
    func ntag() {
        let uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
        let info = NFCTargetInfo(libnfc: Self.target(atqa: (0x00, 0x44), sak: 0x00, uid: uid), index: 1)
        #expect(info.index == 1)
        #expect(info.uid == uid)
        #expect(info.atqa == [0x44, 0x00])
        #expect(info.sak == 0x00)
        #expect(info.ats == nil)
        #expect(info.kind == .type2)
    }

    @Test("an ISO-DEP tag: its ATS gets back the length byte TL (ISO/IEC 14443-4 5.2.1)")
    func isoDEP() {
        let ats: [UInt8] = [0x75, 0x77, 0x81, 0x02, 0x80]
        let info = NFCTargetInfo(
            libnfc: Self.target(atqa: (0x03, 0x44), sak: 0x20, uid: [1, 2, 3, 4, 5, 6, 7], ats: ats), index: 0)
        #expect(info.ats == [0x06] + ats)
        #expect(info.atqa == [0x44, 0x03])
        #expect(info.kind == .type4)
    }

    @Test("a UID length beyond libnfc's 10-byte array is clamped")
    func clamped() {
        let info = NFCTargetInfo(
            libnfc: Self.target(atqa: (0, 0x44), sak: 0, uid: Array(1...10), uidLength: 200), index: 0)
        #expect(info.uid == Array(1...10))
    }
}
