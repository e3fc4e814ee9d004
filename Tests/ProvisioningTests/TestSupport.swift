import Foundation
import Glibc
import Provisioning
import TestSupport
import Testing

/// Upper-case hex of bytes: TestSupport's, for JobTests.swift until it imports TestSupport
/// itself (then this goes).
func hexText(_ bytes: [UInt8]) -> String { TestSupport.hexText(bytes) }

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

/// A fresh, empty folder (its path) for a test that cannot keep a ``TestSupport/TemporaryDirectory``
/// alive: `<temporary folder>/ndeftool-tests-provisioning-<pid>/XXXXXX`. The parent folder, one
/// per test process, is removed with everything in it when the process exits, so a test run
/// leaves nothing behind; prefer a `TemporaryDirectory` held until the test ends.
func temporaryDirectory() -> String {
    var template = Array((ProvisioningScratch.parent + "/XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { buffer in
        buffer.baseAddress.flatMap(mkdtemp).map { String(cString: $0) }
    }
    guard let made else {
        Issue.record("cannot create a folder in \(ProvisioningScratch.parent)")
        return ProvisioningScratch.parent + "/unavailable"
    }
    return made
}

/// The parent of the folders ``temporaryDirectory()`` makes.
enum ProvisioningScratch {
    /// `ndeftool-tests-provisioning-<pid>` in the temporary folder: created at first use (a
    /// folder of that name left by a crashed run whose process ID this one reuses is removed
    /// first), removed at exit.
    static let parent: String = {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("ndeftool-tests-provisioning-\(getpid())").path
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: ProvisioningScratch.parent) }
        return path
    }()
}
