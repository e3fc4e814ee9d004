import TestSupport
import Testing

@testable import SimulatorBridges

/// The vpcd message framing.
@Suite struct WireFormatTests {
    @Test("vpcd control messages 00, 01, 02, 04; anything longer is an APDU")
    func messages() {
        #expect(VirtualPCDMessage(payload: [0x00]) == .powerOff)
        #expect(VirtualPCDMessage(payload: [0x01]) == .powerOn)
        #expect(VirtualPCDMessage(payload: [0x02]) == .reset)
        #expect(VirtualPCDMessage(payload: [0x04]) == .getATR)
        #expect(VirtualPCDMessage(payload: [0x03]) == .unknownControl(0x03))
        #expect(VirtualPCDMessage(payload: hex("FFCA0000")) == .apdu(hex("FFCA0000")))
    }

    @Test("vpcd framing: a 2-byte big-endian length, never an empty or over-long message")
    func framing() {
        #expect(VirtualPCDMessage.framed(hex("9000")) == hex("0002 9000"))
        #expect(VirtualPCDMessage.framed([UInt8](repeating: 1, count: 300))?.prefix(2) == [0x01, 0x2C])
        #expect(VirtualPCDMessage.framed([]) == nil)
        #expect(VirtualPCDMessage.framed([UInt8](repeating: 0, count: 65_536)) == nil)
        #expect(VirtualPCDMessage.framed([UInt8](repeating: 0, count: 65_535)) != nil)
    }
}
