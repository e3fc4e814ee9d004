import Foundation
import Provisioning
import SystemSupport
import TestSupport
import Testing

/// Files under the repository's `Fixtures/provisioning`.
enum ProvisioningFixtures {
    static let directory: String = {
        let path = #filePath
        guard let tests = path.ranges(of: "/Tests/").last else { return "Fixtures/provisioning" }
        return String(path[..<tests.lowerBound]) + "/Fixtures/provisioning"
    }()

    static func load(_ name: String) -> [UInt8] { readFile(directory + "/" + name) }
}

/// The bytes of the file at `path` (empty if it cannot be read).
func readFile(_ path: String) -> [UInt8] {
    guard let file = fopen(path, "rb") else { return [] }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { return bytes }
        bytes += buffer[0..<count]
    }
}

/// Writes `bytes` to `path`, replacing it.
func writeFile(_ path: String, _ bytes: [UInt8]) {
    guard let file = fopen(path, "wb") else { return }
    _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
    fclose(file)
}

/// A journal opened (`open`) right after this process closed it: retried while it is refused
/// with `journalInUse`, at most 60 s.
///
/// The refusal can be this process's own: a program another test starts at that moment is a
/// copy of this process until it executes its program (the journal's descriptor is
/// close-on-exec), and meanwhile its copy of the descriptor keeps the journal's `flock`. The
/// lock is free once the program runs; a journal truly in use stays refused.
func whenFree(_ open: () throws -> ProvisioningJournal) async throws -> ProvisioningJournal {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(60))
    while true {
        do {
            return try open()
        } catch let error as ProvisioningError where error.code == .journalInUse {
            // Looked after the time was up, and still in use: truly in use.
            if clock.now >= deadline { throw error }
        }
        try await Task.sleep(for: .milliseconds(1))
    }
}
