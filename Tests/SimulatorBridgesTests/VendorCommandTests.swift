import TestSupport
import Testing

@testable import SimulatorBridges

/// The ACR122U's own pseudo-APDUs (ACR122U API 2.04, 6) and the profiles that offer them.
@Suite struct VendorCommandTests {
    @Test("FF 00 48 00 00 answers the firmware version alone, without status word")
    func firmwareVersion() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF 00 48 00 00") == hexText(Array("ACR122U207".utf8)))
    }

    @Test("LED control: the masked LEDs take their final state; SW2 is the LED state")
    func ledControl() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF 00 40 0F 04 00 00 00 00") == "9003")
        #expect(bench.send("FF 00 40 04 04 00 00 00 00") == "9002")
        #expect(bench.send("FF 00 40 00 04 00 00 00 00") == "9002")
        #expect(bench.send("FF 00 40 0F 02 00 00") == "6300")
        #expect(ContactlessReaderEmulator.ledState(after: 0x0A, from: 0x01) == 0x03)
    }

    @Test("PICC operating parameter echoes P2; buzzer on detection answers 90 00; other P1 6A 81")
    func otherVendorCommands() {
        var bench = ReaderBench.ntag215()
        #expect(bench.send("FF 00 51 FF 00") == "90FF")
        #expect(bench.send("FF 00 52 00 00") == "9000")
        #expect(bench.send("FF 00 99 00 00") == "6A81")
    }

    @Test("The acr122u profile has no transparent session")
    func acr122uProfile() {
        var bench = ReaderBench.ntag215(profile: .acr122u)
        #expect(bench.send("FF C2 00 00 02 81 00") == "6A81")
        #expect(bench.send("FF 00 00 00 02 D4 02") == "D503320106079000")
    }

    @Test("The pcsc202 profile has neither Direct Transmit nor the ACR122U's vendor commands")
    func pcsc202Profile() {
        var bench = ReaderBench.ntag215(profile: .pcsc202)
        #expect(bench.send("FF 00 00 00 02 D4 02") == "6A81")
        #expect(bench.send("FF 00 48 00 00") == "6A81")
        #expect(bench.send("FF 00 40 0F 04 00 00 00 00") == "6A81")
        #expect(bench.send("FF C2 00 00 02 81 00") == "C00300900090" + "00")
    }

    @Test("Profiles are found by name, case-insensitive")
    func profileNames() {
        #expect(ContactlessReaderProfile.named("ACR122U") == .acr122u)
        #expect(ContactlessReaderProfile.named("pcsc202") == .pcsc202)
        #expect(ContactlessReaderProfile.named("combined") == .combined)
        #expect(ContactlessReaderProfile.named("omnikey") == nil)
    }
}
