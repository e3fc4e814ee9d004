import NFCSession
import NFCWireFormat
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import Testing

@testable import PCSCReader

/// The LED and buzzer pseudo-APDU (ACR122U API 2.04, 6.2) as built, and as it reaches the vpcd
/// card's ACR122U emulation through the test run's pcscd.
@Suite("ACR122U LED and buzzer commands")
struct ACR122ULightCommandTests {
    @Test(
        "ACR122U API 2.04, 6.2: the bytes of each signal",
        arguments: [
            (NFCReaderSignal.success, "FF 00 40 0E 04 01 01 01 01"),
            (NFCReaderSignal.failure, "FF 00 40 0D 04 05 01 01 01"),
            (NFCReaderSignal.identify, "FF 00 40 E0 04 02 02 05 00"),
        ])
    func bytes(_ signal: NFCReaderSignal, _ expected: String) {
        let command = ACR122ULightCommand.showing(signal)
        #expect(command.description == expected)
        #expect(ACR122ULightCommand(apdu: command.apdu) == command)
        #expect(command.signal == signal)
    }

    @Test("6.2: only LEDs whose state mask is set take their final state (bit 0 red, bit 1 green)")
    func ledState() {
        #expect(ACR122ULightCommand.success.ledState(after: 0x01) == 0x02)  // red off, green on
        #expect(ACR122ULightCommand.failure.ledState(after: 0x02) == 0x01)  // red on, green off
        #expect(ACR122ULightCommand.identify.ledState(after: 0x03) == 0x03)  // no mask: unchanged
        // libnfc's (disabled) red LED command, FF 00 40 05 04 00 00 00 00: red on, green kept.
        let red = ACR122ULightCommand(control: 0x05, t1: 0, t2: 0, repetitions: 0, buzzer: 0)
        #expect(red.ledState(after: 0x02) == 0x03)
    }

    @Test("Not the LED command: another P1, a wrong Lc or length")
    func notLightCommands() {
        #expect(ACR122ULightCommand(apdu: [0xFF, 0x00, 0x48, 0x00, 0x00]) == nil)
        #expect(ACR122ULightCommand(apdu: [0xFF, 0x00, 0x40, 0x0E, 0x03, 0x01, 0x01, 0x01]) == nil)
        #expect(ACR122ULightCommand(apdu: [0xFF, 0x00, 0x40, 0x0E, 0x04, 0x01, 0x01, 0x01]) == nil)
        #expect(ACR122ULightCommand(apdu: []) == nil)
    }

    @Test("Only the acr122u profile drives lights")
    func profiles() {
        #expect(PCSCReaderDevice(readerName: "ACS ACR122U PICC Interface 00 00").supportsSignals)
        #expect(!PCSCReaderDevice(readerName: "ACS ACR1252 1S CL Reader PICC 00 00").supportsSignals)
        #expect(!PCSCReaderDevice(readerName: "x", profile: .generic).supportsSignals)
    }
}

extension PCSCDaemonTests {
    /// ``PCSCReaderDevice/signal(_:)`` through pcscd to the vpcd card's ACR122U emulation.
    @Suite("reader signals through pcscd and the vpcd card")
    struct Signals {
        @Test("success, failure, identify reach the ACR122U emulation as 6.2's bytes, in order, answered 90 xx")
        func signalsInOrder() async throws {
            let bench = try await CardBench(
                SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215))), profile: .acr122u)
            let device = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: .acr122u)
            _ = try await bench.poll(device)  // a card connection is open
            #expect(await device.signal(.success))
            #expect(await device.signal(.failure))
            await device.releaseTargets()  // no connection: the device makes one for the command
            #expect(await device.signal(.identify))
            await device.close()
            #expect(!(await device.signal(.success)))  // closed
            let commands = bench.card.status.lightCommands
            #expect(
                commands.map(\.apdu) == [
                    [0xFF, 0x00, 0x40, 0x0E, 0x04, 0x01, 0x01, 0x01, 0x01],
                    [0xFF, 0x00, 0x40, 0x0D, 0x04, 0x05, 0x01, 0x01, 0x01],
                    [0xFF, 0x00, 0x40, 0xE0, 0x04, 0x02, 0x02, 0x05, 0x00],
                ])
            #expect(bench.card.status.signals == [.success, .failure, .identify])
            await bench.stop()
        }

        @Test("A reader without the acr122u profile sends nothing; no tag on the reader: not shown")
        func refused() async throws {
            let bench = try await CardBench(
                SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215))), profile: .pcsc202)
            let generic = PCSCReaderDevice(readerName: PCSCTestReaders.cardReader, profile: .pcscTransparent)
            _ = try await bench.poll(generic)
            #expect(!(await generic.signal(.identify)))
            await generic.close()
            #expect(bench.card.status.lightCommands.isEmpty)
            await bench.stop()
            let empty = PCSCReaderDevice(readerName: PCSCTestReaders.emptyReader, profile: .acr122u)
            #expect(!(await empty.signal(.identify)))
            await empty.close()
        }
    }
}
