import Foundation
import NFCReaders
import NFCSession
import TestSupport
import Testing

@testable import NDEFCommandLine

/// The reader chosen when `--reader` gives a number or nothing: PC/SC readers and libnfc devices
/// together, numbered from 1, the remembered one of any backend, a question on a terminal.
@Suite struct ReaderChoiceTests {
    static func remembered(_ url: String? = nil) async throws -> (RememberedReader, TemporaryDirectory) {
        let directory = try TemporaryDirectory("cli")
        let remembered = RememberedReader(io: TestIO(variables: ["XDG_CONFIG_HOME": directory.path("config")]))
        if let url { #expect(await remembered.save(url) == nil) }
        return (remembered, directory)
    }

    @Test("Readers are numbered from 1: pcscd's first, then libnfc's")
    func numbering() async throws {
        let (readers, problems) = await ReaderChoice.candidates(
            pcsc: fakePCSC(["Reader 0", "Reader 1"]), libnfc: fakeLibNFC(["pn532_uart:/dev/ttyUSB0"]))
        #expect(problems.isEmpty)
        #expect(readers.map(\.number) == [1, 2, 3])
        #expect(
            readers.map(\.address.description) == [
                "pcsc:Reader%200", "pcsc:Reader%201", "libnfc:pn532_uart:/dev/ttyUSB0",
            ])
        let third = try await ReaderChoice.numbered(
            3, pcsc: fakePCSC(["Reader 0", "Reader 1"]), libnfc: fakeLibNFC(["pn532_uart:/dev/ttyUSB0"]))
        #expect(third.description == "libnfc:pn532_uart:/dev/ttyUSB0")
        let missing = await #expect(throws: CommandLineError.self) {
            try await ReaderChoice.numbered(4, pcsc: fakePCSC(["Reader 0"]), libnfc: .none)
        }
        #expect(missing?.status == .usage)
        #expect(missing?.message == "There is no reader 4; the readers are:\n  --reader 1  pcsc:Reader%200  (Reader 0)")
        let none = await #expect(throws: CommandLineError.self) {
            try await ReaderChoice.numbered(1, pcsc: .unavailable, libnfc: .none)
        }
        #expect(none?.message.contains("no PC/SC reader or libnfc device is connected (PC/SC: pcscd") == true)
    }

    @Test("The only reader is chosen, whatever its backend")
    func onlyReader() async throws {
        let (remembered, _) = try await Self.remembered()
        let libnfc = try await ReaderChoice.automatic(
            remembered: remembered, pcsc: .unavailable, libnfc: fakeLibNFC(["acr122_usb:001:004"]))
        #expect(libnfc.description == "libnfc:acr122_usb:001:004")
        let pcsc = try await ReaderChoice.automatic(remembered: remembered, pcsc: fakePCSC(["Reader 0"]))
        #expect(pcsc.description == "pcsc:Reader%200")
    }

    @Test("Several readers in a script: exit 64 with each reader's --reader")
    func severalInAScript() async throws {
        let (remembered, _) = try await Self.remembered()
        let error = await #expect(throws: CommandLineError.self) {
            try await ReaderChoice.automatic(
                remembered: remembered, pcsc: fakePCSC(["Reader 0"]), libnfc: fakeLibNFC(["pn532_uart:/dev/x"]))
        }
        #expect(error?.status == .usage)
        #expect(
            error?.message == """
                No reader given, and 2 readers are connected: choose one with --reader (or NDEFTOOL_READER):
                  --reader 1  pcsc:Reader%200  (Reader 0)
                  --reader 2  libnfc:pn532_uart:/dev/x
                """)
    }

    @Test("A remembered libnfc device is chosen when libnfc lists it; a gone one is not")
    func rememberedLibNFC() async throws {
        let (remembered, directory) = try await Self.remembered("libnfc:pn532_uart:/dev/x")
        defer { withExtendedLifetime(directory) {} }
        let pcsc = fakePCSC(["Reader 0", "Reader 1"])
        let chosen = try await ReaderChoice.automatic(
            remembered: remembered, pcsc: pcsc, libnfc: fakeLibNFC(["pn532_uart:/dev/x"]))
        #expect(chosen.description == "libnfc:pn532_uart:/dev/x")
        await #expect(throws: CommandLineError.self) {
            try await ReaderChoice.automatic(remembered: remembered, pcsc: pcsc, libnfc: .none)
        }
    }

    @Test("A remembered PN532 on a serial port, which libnfc never scans for, is listed while its device exists")
    func rememberedSerialDevice() async throws {
        let device = try TemporaryDirectory("cli")
        let port = try device.file("ttyUSB0", [])
        let (remembered, directory) = try await Self.remembered("libnfc:pn532_uart:" + port)
        defer { withExtendedLifetime(directory) {} }
        let pcsc = fakePCSC(["Reader 0", "Reader 1"])
        let chosen = try await ReaderChoice.automatic(remembered: remembered, pcsc: pcsc, libnfc: .none)
        #expect(chosen.description == "libnfc:pn532_uart:" + port)
        let third = try await ReaderChoice.numbered(3, pcsc: pcsc, libnfc: .none, remembered: remembered.load())
        #expect(third == chosen)
        // A USB device is found by libnfc's scan: remembered, it is not listed unless libnfc lists it.
        #expect(ReaderChoice.unscannedDevice("libnfc:acr122_usb:001:004", listed: []) == nil)
        #expect(ReaderChoice.unscannedDevice("libnfc:pn532_uart:" + port, listed: [chosen]) == nil)

        let io = TestIO(variables: ["XDG_CONFIG_HOME": directory.path("config")])
        io.pcsc = pcsc
        #expect(await NDEFCommandLine.run(["readers"], io: io) == .success)
        #expect(
            io.outputText.contains(
                "  3 libnfc  libnfc:pn532_uart:\(port)  (remembered; libnfc does not scan serial ports, tag unknown)  [default]"
            ))
        device.remove()
        #expect(ReaderChoice.unscannedDevice("libnfc:pn532_uart:" + port, listed: []) == nil)
    }

    @Test("readers lists NDEFTOOL_READER's reader, and with it succeeds though pcscd is not running")
    func environmentReaderListed() async {
        let io = TestIO(variables: ["NDEFTOOL_READER": "sim:ntag213"])
        #expect(await NDEFCommandLine.run(["readers"], io: io) == .success)
        #expect(io.outputText.contains("Default reader (NDEFTOOL_READER): sim:ntag213\n"))
        #expect(io.error.contains("Warning: PC/SC readers cannot be listed"))
        let without = TestIO()
        #expect(await NDEFCommandLine.run(["readers"], io: without) == .unavailable)
    }

    @Test("On a terminal, several readers are a numbered question; the answer chooses")
    func question() async throws {
        let (remembered, _) = try await Self.remembered()
        let io = TerminalTestIO(answers: [" 2 "])
        let console = TagConsole(
            io: io, settings: TagSettings(reader: nil, wait: .zero, isQuiet: false, isVerbose: false))
        let chosen = try await ReaderChoice.automatic(
            remembered: remembered, pcsc: fakePCSC(["Reader 0", "Reader 1"]), libnfc: .none, console: console)
        #expect(chosen.description == "pcsc:Reader%201")
        #expect(
            io.error
                == "Several readers are connected:\n  --reader 1  pcsc:Reader%200  (Reader 0)\n  --reader 2  pcsc:Reader%201  (Reader 1)\n"
                + "Which one (1-2)? ")
        let wrong = TerminalTestIO(answers: ["7"])
        let error = await #expect(throws: CommandLineError.self) {
            try await ReaderChoice.automatic(
                remembered: remembered, pcsc: fakePCSC(["Reader 0", "Reader 1"]), libnfc: .none,
                console: TagConsole(
                    io: wrong, settings: TagSettings(reader: nil, wait: .zero, isQuiet: false, isVerbose: false)))
        }
        #expect(error?.message == "No reader chosen ('7' is not one of 1 to 2)")
    }

    @Test("--reader N and NDEFTOOL_READER=N select by number; 0 and words are refused")
    func readerNumberOption() async throws {
        // Kept until the test ends: a folder removed before the command writes in it would come back.
        let folder = try TemporaryDirectory("config")
        defer { folder.remove() }
        let io = TestIO(variables: ["XDG_CONFIG_HOME": folder.path("config")])
        io.pcsc = fakePCSC(["Reader 0"])
        #expect(await NDEFCommandLine.run(["read", "--reader", "2", "--wait", "0"], io: io) == .usage)
        #expect(io.error.contains("There is no reader 2; the readers are:\n  --reader 1  pcsc:Reader%200  (Reader 0)"))
        let zero = await runInProcess(["read", "--reader", "0"])
        #expect(zero.status == 64)
        #expect(zero.error.contains("readers are numbered from 1"))
        let variable = TestIO(variables: ["NDEFTOOL_READER": "3"])
        #expect(await NDEFCommandLine.run(["read", "--wait", "0"], io: variable) == .unavailable)
        #expect(variable.error.contains("There is no reader 3"))
    }
}
