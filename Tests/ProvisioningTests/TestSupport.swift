import Foundation
import Glibc
import Provisioning
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
