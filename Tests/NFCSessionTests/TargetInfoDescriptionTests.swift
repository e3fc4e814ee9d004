import NFCSession
import Testing

/// Targets print as people read them: the UID with colons, the other bytes as hex.
@Suite struct TargetInfoDescriptionTests {
    @Test func hexNotDecimal() {
        let target = NFCTargetInfo(
            index: 0, uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6], atqa: [0x44, 0x00], sak: 0)
        #expect("\(target)" == "UID 04:A1:B2:C3:D4:E5:F6, ATQA 00 44, SAK 00")
        let card = NFCTargetInfo(index: 1, uid: [1, 2, 3, 4], atqa: [], sak: 0x20, ats: [0x05, 0x78])
        #expect("\(card)" == "UID 01:02:03:04, ATQA not reported, SAK 20, ATS 05 78")
    }
}
