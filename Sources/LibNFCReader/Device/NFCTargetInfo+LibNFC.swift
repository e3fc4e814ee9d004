internal import CLibNFC
import NFCSession

/// Target descriptions from libnfc's `nfc_target`.
extension NFCTargetInfo {
    /// The ISO/IEC 14443 Type A identification libnfc decoded from the PN53x's InListPassiveTarget
    /// answer (`nfc_iso14443a_info`), as the target at `index` of a poll.
    ///
    /// libnfc keeps SENS_RES as the PN532 and PN533 send it, most significant byte first
    /// (`00 44` for an NTAG21x): it is reversed into the order of the air interface. The ATS
    /// libnfc keeps lacks its length byte TL (ISO/IEC 14443-4 5.2.1), which is put back. Lengths
    /// are clamped to the arrays libnfc declares.
    init(libnfc target: nfc_target, index: Int) {
        let info = target.nti.nai
        let uidCount = min(max(0, Int(info.szUidLen)), MemoryLayout.size(ofValue: info.abtUid))
        let atsCount = min(max(0, Int(info.szAtsLen)), MemoryLayout.size(ofValue: info.abtAts))
        let uid = withUnsafeBytes(of: info.abtUid) { Array($0.prefix(uidCount)) }
        let atqa = withUnsafeBytes(of: info.abtAtqa) { [$0[1], $0[0]] }
        var ats: [UInt8]?
        if atsCount > 0 {
            ats =
                [UInt8(truncatingIfNeeded: atsCount + 1)]
                + withUnsafeBytes(of: info.abtAts) { Array($0.prefix(atsCount)) }
        }
        self.init(index: index, uid: uid, atqa: atqa, sak: info.btSak, ats: ats)
    }
}
