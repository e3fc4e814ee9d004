import NDEF
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// PWD_AUTH and AUTHLIM (NTAG213/215/216 10.7 and 8.8; MF0ULX1 8.6).
@Suite("Simulated Type 2 tag: PWD_AUTH")
struct SimulatedType2AuthenticationTests {
    /// A selected NTAG213 with PWD 11 22 33 44, PACK AA BB and ACCESS `access`.
    func protectedTag(access: String) -> SimulatedType2Tag {
        var tag = SimulatedType2Tag.selected(.ntag213)
        _ = tag.write(0x2B, "11 22 33 44")
        _ = tag.write(0x2C, "AA BB 00 00")
        _ = tag.write(0x2A, access)
        _ = tag.write(0x29, "04 00 00 10")
        tag.fieldOff()
        tag.select()
        return tag
    }

    @Test("NTAG213/215/216 10.7: the right password answers PACK, a wrong one NAK 0h and IDLE")
    func rightAndWrong() {
        var tag = protectedTag(access: "00 00 00 00")
        #expect(tag.authenticate("11 22 33 45") == .nak(0))
        #expect(tag.state == .idle && !tag.isAuthenticated)
        #expect(tag.authenticate("11 22 33 44") == .silent)
        tag.select()
        #expect(tag.authenticate("11 22 33 44") == .data([0xAA, 0xBB]))
        #expect(tag.isAuthenticated)
        #expect(tag.count(of: .passwordAuthentication) == 3)
    }

    @Test("NTAG213/215/216 8.8.2: AUTHLIM counts each failure by one; at the limit PWD_AUTH is NAK 4h for good")
    func authenticationLimit() {
        var tag = protectedTag(access: "03 00 00 00")
        for attempt in 1...3 {
            #expect(tag.authenticate("00 00 00 00") == .nak(0))
            #expect(tag.failedAuthenticationCount == attempt)
            tag.select()
        }
        #expect(tag.isPasswordDisabled)
        #expect(tag.authenticate("11 22 33 44") == .nak(4))
        tag.fieldOff()
        tag.select()
        #expect(tag.authenticate("11 22 33 44") == .nak(4))
        #expect(tag.failedAuthenticationCount == 3)
        tag.select()
        #expect(tag.write(0x10, "01 02 03 04") == .nak(0))
    }

    @Test("NTAG213/215/216 8.8.2: a right password before the limit resets the failure count")
    func successResetsCount() {
        var tag = protectedTag(access: "03 00 00 00")
        for _ in 1...2 {
            #expect(tag.authenticate("00 00 00 00") == .nak(0))
            tag.select()
        }
        #expect(tag.failedAuthenticationCount == 2)
        #expect(tag.authenticate("11 22 33 44") == .data([0xAA, 0xBB]))
        #expect(tag.failedAuthenticationCount == 0 && !tag.isPasswordDisabled)
    }

    @Test("NTAG213/215/216 8.8.2: AUTHLIM 0 allows unlimited attempts and counts nothing")
    func unlimited() {
        var tag = protectedTag(access: "00 00 00 00")
        for _ in 1...20 {
            #expect(tag.authenticate("00 00 00 00") == .nak(0))
            tag.select()
        }
        #expect(tag.failedAuthenticationCount == 0)
        #expect(tag.authenticate("11 22 33 44") == .data([0xAA, 0xBB]))
    }

    @Test("MF0ULX1 8.6: MIFARE Ultralight EV1 answers PWD_AUTH with the factory PACK 00 00")
    func ultralightEV1() {
        var tag = SimulatedType2Tag.selected(.mifareUltralightEV1MF0UL11)
        #expect(tag.authenticate("FF FF FF FF") == .data([0x00, 0x00]))
        #expect(tag.transceive(hex("39 00")) == .data(hex("00 00 00")))
        #expect(tag.transceive(hex("39 03")) == .nak(0))
    }
}
