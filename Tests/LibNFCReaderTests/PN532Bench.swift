import Foundation
import LibNFCReader
import NDEF
import NFCSession
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// A simulated PN532 on a pseudo-terminal with a ``SimulatedReader`` behind it: libnfc's real
/// `pn532_uart` driver talks to it through the terminal's slave, as to a board on a serial port.
/// Each bench has its own terminal (a link in a temporary folder), so benches run in parallel.
final class PN532Bench: Sendable {
    let reader: SimulatedReader
    let simulator: PN532SerialSimulator
    /// The bench's folder, with the terminal's link `pn532`; removed by ``stop()``.
    let folder: TemporaryDirectory

    init(_ field: SimulatedField) throws {
        folder = try TemporaryDirectory("pn532")
        reader = SimulatedReader(field: field)
        simulator = try PN532SerialSimulator(reader: reader, linkPath: folder.path("pn532"))
        try simulator.start()
    }

    /// A bench with one factory tag of `chip`.
    convenience init(_ chip: Type2Chip) throws {
        try self.init(SimulatedField(.type2(SimulatedType2Tag(chip: chip))))
    }

    /// The device, opened through libnfc with the bench's connection string.
    func open() async throws -> LibNFCReaderDevice {
        try await LibNFCReaderDevice.open(connstring: simulator.connstring)
    }

    /// A session on `device` and its first tag.
    func session(_ device: LibNFCReaderDevice) async throws -> (NFCTagReaderSession, any NFCNDEFTag) {
        let session = NFCTagReaderSession(reader: device)
        return (session, try await session.nextTag(timeout: .seconds(5)))
    }

    /// The memory of the first Type 2 tag in the field.
    var memory: Type2Memory? {
        guard case .type2(let tag)? = reader.field.tags.first else { return nil }
        return tag.memory
    }

    /// The PN532 commands received since `before`, by code, for the figures.
    func chipCommands(since before: PN532SerialSimulator.Status) -> [UInt8: Int] {
        var counts = simulator.status.commandCounts
        for (code, count) in before.commandCounts { counts[code, default: 0] -= count }
        return counts.filter { $0.value != 0 }
    }

    func stop() {
        simulator.stop()
        folder.remove()
    }
}

/// A URI message of exactly `length` encoded bytes.
func uriMessage(length: Int, seed: UInt8 = 0) -> NFCNDEFMessage {
    let text = (0..<max(0, length - 5)).map { UInt8(0x61 + (Int(seed) + $0) % 26) }
    return NFCNDEFMessage(records: [NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + text)])
}

/// The Type 2 tag of a session.
func miFare(_ tag: any NFCNDEFTag) throws -> NFCMiFareTag {
    guard let type2 = tag as? NFCMiFareTag else { throw BenchError("not a Type 2 tag") }
    return type2
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The reader error an async `body` throws, or nil.
func asyncReaderError(_ body: () async throws -> Void) async -> NFCReaderError? {
    do {
        try await body()
        return nil
    } catch let error as NFCReaderError {
        return error
    } catch {
        return nil
    }
}
