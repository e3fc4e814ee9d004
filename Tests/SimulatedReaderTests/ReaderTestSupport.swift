import Foundation
import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

/// The fixture dump files, found from this file's path.
enum ReaderFixtures {
    static let dumps: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "Fixtures/dumps" }
        return String(path[..<tests.lowerBound]) + "/Fixtures/dumps"
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: dumps + "/" + name)))
    }
}

extension SimulatedReader {
    /// Polls and selects the first target.
    func selectFirst() async throws {
        guard let target = try await pollTargets().first else { throw NFCReaderError(.timeout, "no tag") }
        try await select(target)
    }

    /// READ 30h `page`: the 16 bytes.
    func read(_ page: UInt8) async throws -> [UInt8] {
        guard case .data(let bytes) = try await transceive([0x30, page]) else {
            throw NFCReaderError(.tagResponseError, "")
        }
        return bytes
    }

    /// WRITE A2h `page` `data`.
    func write(_ page: UInt8, _ data: String) async throws -> NFCRawResponse {
        try await transceive([0xA2, page] + hex(data))
    }

    /// The stored bytes of page `page` of the first tag (in the field or removed).
    func storedPage(_ page: Int) -> [UInt8]? {
        withField { field in (field.tags + field.removedTags).first?.type2Tag?.memory.page(page) }
    }
}

/// Fixtures/tags/type4, found from this file's path.
enum Type4ReaderFixtures {
    static let directory: String = {
        let path = #filePath
        guard let tests = path.range(of: "/Tests/", options: .backwards) else { return "Fixtures/tags/type4" }
        return String(path[..<tests.lowerBound]) + "/Fixtures/tags/type4"
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
    }
}

extension SimulatedReader {
    /// SELECT of the NDEF Tag Application (T4T 3.0 5.4.2; `version1`: the 1.0 identifier), then
    /// of `file` (5.4.3); the two status words.
    func openType4File(_ file: String = "E1 04", version1: Bool = false) async throws -> [[UInt8]] {
        let application = version1 ? "D2 76 00 00 85 01 00" : "D2 76 00 00 85 01 01"
        return [
            try await sendAPDU(hex("00 A4 04 00 07 " + application + " 00")).suffix(2),
            try await sendAPDU(hex("00 A4 00 0C 02 " + file)).suffix(2),
        ].map(Array.init)
    }

    /// The first `count` bytes of the NDEF file of the first Type 4 tag (in the field or removed).
    func storedNDEFFile(_ count: Int) -> [UInt8]? {
        withField { field in
            (field.tags + field.removedTags).lazy.compactMap(\.type4Tag).first.map { Array($0.ndefFile.prefix(count)) }
        }
    }
}
