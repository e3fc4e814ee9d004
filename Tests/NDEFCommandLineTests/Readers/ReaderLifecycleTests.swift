import Foundation
import NFCReaders
import NFCSession
import TestSupport
import Testing

@testable import NDEFCommandLine

/// The remembered reader file (`$XDG_CONFIG_HOME/ndeftool/last-reader`) and `ndeftool readers`,
/// in process; no pcscd needed.
@Suite struct RememberedReaderTests {
    @Test("The file lives under XDG_CONFIG_HOME, else ~/.config; nothing without either")
    func location() async {
        let xdg = RememberedReader(io: TestIO(variables: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]))
        #expect(xdg.path == "/c/ndeftool/last-reader")
        let home = RememberedReader(io: TestIO(variables: ["HOME": "/h"]))
        #expect(home.path == "/h/.config/ndeftool/last-reader")
        // The XDG Base Directory Specification ignores a relative XDG_CONFIG_HOME.
        let relative = RememberedReader(io: TestIO(variables: ["XDG_CONFIG_HOME": "c", "HOME": "/h"]))
        #expect(relative.path == "/h/.config/ndeftool/last-reader")
        let none = RememberedReader(io: TestIO())
        #expect(none.path == nil)
        #expect(none.load() == nil)
        #expect(await none.save("pcsc:x") != nil)
    }

    @Test("Saving creates the folder, replaces the URL whole, and leaves no temporary file")
    func saveAndLoad() async throws {
        let directory = try TemporaryDirectory("cli")
        let io = TestIO(variables: ["XDG_CONFIG_HOME": directory.path("config")])
        let remembered = RememberedReader(io: io)
        #expect(remembered.load() == nil)
        #expect(await remembered.save("pcsc:ACS%20ACR122U%20PICC%20Interface%2000%2000") == nil)
        #expect(remembered.load() == "pcsc:ACS%20ACR122U%20PICC%20Interface%2000%2000")
        #expect(await remembered.save("pcsc:Virtual%20PCD%2000%2001?profile=acr122u") == nil)
        #expect(remembered.load() == "pcsc:Virtual%20PCD%2000%2001?profile=acr122u")
        let folder = directory.path("config/ndeftool")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["last-reader"])
        let text = try String(contentsOfFile: folder + "/last-reader", encoding: .utf8)
        #expect(text == "pcsc:Virtual%20PCD%2000%2001?profile=acr122u\n")
    }

    @Test("A file that cannot be written is reported, not fatal")
    func unwritable() async throws {
        let directory = try TemporaryDirectory("cli")
        let blocker = try directory.file("config", text: "a file where the folder should be")
        let remembered = RememberedReader(io: TestIO(variables: ["XDG_CONFIG_HOME": blocker]))
        #expect(await remembered.save("pcsc:x")?.contains("cannot create") == true)
    }

    @Test("readers --json lists the simulated examples and the remembered reader")
    func readersJSON() async throws {
        let directory = try TemporaryDirectory("cli")
        let config = directory.path("config")
        #expect(
            await RememberedReader(io: TestIO(variables: ["XDG_CONFIG_HOME": config])).save("pcsc:Gone%20Reader") == nil
        )
        let result = await runInProcess(["readers", "--json"], variables: ["XDG_CONFIG_HOME": config])
        // In process there is no pcscd (TestIO): a warning with the reason, and 0, since the
        // remembered reader is listed.
        #expect(result.status == 0)
        #expect(result.error.contains("Warning: PC/SC readers cannot be listed"), "\(result.error)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(result.output)) as? [String: Any])
        #expect(json["remembered"] as? String == "pcsc:Gone%20Reader")
        let readers = try #require(json["readers"] as? [[String: Any]])
        let simulated = readers.filter { $0["kind"] as? String == "sim" }.compactMap { $0["url"] as? String }
        #expect(simulated.contains("sim:ntag215"))
        #expect(simulated.contains("sim:type4"))
        #expect(result.error.contains("pcscd is not running"))
    }

    static func directory(_ names: [String]) -> PCSCDirectory {
        PCSCDirectory(names: { () throws(NFCReaderError) in names }, tagPresent: { $0.hasSuffix("1") })
    }

    @Test("readers marks the remembered reader and the tags present")
    func readersText() async throws {
        let directory = try TemporaryDirectory("cli")
        let config = directory.path("config")
        let io = TestIO(variables: ["XDG_CONFIG_HOME": config])
        #expect(await RememberedReader(io: io).save("pcsc:Reader%201") == nil)
        io.pcsc = Self.directory(["Reader 0", "Reader 1"])
        let status = await NDEFCommandLine.run(["readers"], io: io)
        #expect(status == .success)
        #expect(io.outputText.contains("  1 pcsc    pcsc:0  Reader 0  (no tag)\n"))
        #expect(io.outputText.contains("pcsc:1  Reader 1  (tag present)  [default]"))
    }

    @Test("readers lists libnfc's devices with the backend first, and how to name a serial board when there is none")
    func readersLibNFC() async throws {
        // Kept until the test ends: a folder removed before the command writes in it would come back.
        let folder = try TemporaryDirectory("config")
        defer { folder.remove() }
        let io = TestIO(variables: ["XDG_CONFIG_HOME": folder.path("config")])
        io.pcsc = Self.directory(["Reader 0"])
        io.libnfc = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in
            ["pn532_uart:/dev/ttyUSB0", "acr122_usb:001:004"]
        })
        #expect(await NDEFCommandLine.run(["readers"], io: io) == .success)
        #expect(io.outputText.contains("  1 pcsc    pcsc:0  Reader 0  (no tag)\n"))
        #expect(
            io.outputText.contains(
                "libnfc devices:\n  2 libnfc  libnfc:pn532_uart:/dev/ttyUSB0  (libnfc:0, tag unknown)\n"))
        #expect(io.outputText.contains("  3 libnfc  libnfc:acr122_usb:001:004  (libnfc:1, tag unknown)\n"))
        #expect(io.outputText.contains("      sim     sim:ntag215  a simulated NTAG215"))
        let json = TestIO()
        json.pcsc = io.pcsc
        json.libnfc = io.libnfc
        #expect(await NDEFCommandLine.run(["readers", "--json"], io: json) == .success)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        let readers = try #require(object["readers"] as? [[String: Any]])
        let libnfc = readers.filter { $0["kind"] as? String == "libnfc" }
        #expect(
            libnfc.compactMap { $0["url"] as? String } == [
                "libnfc:pn532_uart:/dev/ttyUSB0", "libnfc:acr122_usb:001:004",
            ])
        #expect(libnfc.compactMap { $0["index"] as? Int } == [0, 1])

        let none = TestIO()
        none.pcsc = io.pcsc
        #expect(await NDEFCommandLine.run(["readers"], io: none) == .success)
        #expect(none.outputText.contains("libnfc devices:\n  (none found; a PN532 on a serial port is named"))
        let broken = TestIO()
        broken.pcsc = io.pcsc
        broken.libnfc = LibNFCDirectory(connstrings: { () throws(NFCReaderError) in
            throw NFCReaderError(.readerUnavailable, "libnfc cannot start")
        })
        #expect(await NDEFCommandLine.run(["readers"], io: broken) == .success)
        #expect(broken.error.contains("Warning: libnfc devices cannot be listed: libnfc cannot start"))
        #expect(broken.outputText.contains("  1 pcsc    pcsc:0  Reader 0"))
    }

    @Test("The choice without --reader: the remembered reader when connected, else the only one, else an error")
    func choice() async throws {
        let directory = try TemporaryDirectory("cli")
        let remembered = RememberedReader(io: TestIO(variables: ["XDG_CONFIG_HOME": directory.path("config")]))
        let two = Self.directory(["Reader 0", "Reader 1"])
        let several = await #expect(throws: CommandLineError.self) {
            try await ReaderChoice.automatic(remembered: remembered, pcsc: two)
        }
        #expect(several?.status == .usage)
        #expect(several?.message.contains("--reader 2  pcsc:Reader%201") == true)
        let only = try await ReaderChoice.automatic(remembered: remembered, pcsc: Self.directory(["Reader 0"]))
        #expect(only.description == "pcsc:Reader%200")
        #expect(await remembered.save("pcsc:Reader%201?profile=acr122u") == nil)
        let chosen = try await ReaderChoice.automatic(remembered: remembered, pcsc: two)
        #expect(chosen.description == "pcsc:Reader%201?profile=acr122u")
        let none = await #expect(throws: CommandLineError.self) {
            try await ReaderChoice.automatic(remembered: remembered, pcsc: .unavailable)
        }
        #expect(
            none?.message.contains(
                "No reader given, and no PC/SC reader or libnfc device is connected (PC/SC: pcscd is not running)")
                == true)
    }
}
