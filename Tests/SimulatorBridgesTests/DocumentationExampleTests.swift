import Foundation
import SimulatedReader
import SimulatorBridges
import TestSupport
import Testing

/// The Swift example of the SimulatorBridges DocC catalog, as printed there: pcscd sees the card
/// (nested in the serialized suite of the vpcd reader on port 35963) and the PN532's link exists.
extension PCSCDaemonTests {
    @Test("SimulatorBridges.md: a card in pcscd's vpcd reader and a PN532 on a pseudo-terminal")
    func documentationExample() async throws {
        // Example begin
        /// Serves a simulated NTAG215 to pcscd's vpcd reader on `port` (35963: "Virtual PCD 00 00") and
        /// a Type 4 tag on a simulated PN532 at `linkPath` ("/tmp/pn532") while `work` runs.
        func serveTags(
            vpcdPort port: UInt16, pn532At linkPath: String, while work: () async throws -> Void
        ) async throws {
            let tag = try await SimulatedReader(url: "sim:ntag215")
            let configuration = VirtualPCDCard.Configuration(port: port, profile: .acr122u)
            let card = try VirtualPCDCard(reader: tag, configuration: configuration)
            try card.start()  // pcscd shows the tag in its vpcd reader

            let other = try await SimulatedReader(url: "sim:type4")
            let chip = try PN532SerialSimulator(reader: other, linkPath: linkPath)
            try chip.start()
            print(chip.connstring)  // pn532_uart:/tmp/pn532, for libnfc and nfcpy

            try await work()
            await card.shutDown()
            await chip.shutDown()
        }
        // Example end
        let folder = try TemporaryDirectory("bridges-example")
        defer { folder.remove() }
        let client = try PCSCClient()
        try await serveTags(vpcdPort: 35963, pn532At: folder.path("pn532")) { () async throws in
            #expect(try await client.sees("present"), "pcscd did not see the card")
            #expect(FileManager.default.fileExists(atPath: folder.path("pn532")))
        }
        #expect(try await client.sees("absent"), "the card is still there")
        await client.close()
    }
}
