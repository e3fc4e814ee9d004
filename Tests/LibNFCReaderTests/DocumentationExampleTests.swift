import LibNFCReader
import NFCSession
import SimulatorBridges
import TagMemory
import Testing

/// The Swift example of the LibNFCReader DocC catalog, as printed there, through libnfc's real
/// pn532_uart driver to a simulated PN532.
@Suite struct LibNFCReaderDocumentationExampleTests {
    @Test("LibNFCReader.md: the chip on a PN532, named by GET_VERSION")
    func overview() async throws {
        // Example begin
        /// The chip on the libnfc device `url` names, for example "libnfc:pn532_uart:/dev/ttyUSB0".
        func identifyChip(at url: String) async throws -> String {
            print(try await LibNFCDevices.connstrings())  // for example ["pn532_uart:/dev/ttyUSB0"]
            let reader = try await LibNFCDevices.open(url: url)
            let session = NFCTagReaderSession(reader: reader)
            var name = "no tag"
            if let tag = try await session.nextTag(timeout: .seconds(10)) as? NFCMiFareTag {
                let version = try await tag.readVersion()  // GET_VERSION, 8 bytes
                name = tag.chip?.name ?? "unknown chip"
                print(name, version)
            }
            await session.invalidate()
            await reader.close()
            return name
        }
        // Example end
        let bench = try PN532Bench(.ntag215)
        #expect(try await identifyChip(at: "libnfc:" + bench.simulator.connstring) == "NTAG215")
        bench.stop()
    }
}
