import Glibc
import Provisioning

/// Bytes from hex text written in tests.
func hex(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8.filter { $0 != 0x20 })
    var out: [UInt8] = []
    var index = 0
    while index + 1 < digits.count {
        out.append(UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) ?? 0xEE)
        index += 2
    }
    return out
}

/// Upper-case hex of bytes.
func hexText(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
}

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

/// A fresh temporary directory.
func temporaryDirectory() -> String {
    var template = Array("/tmp/provisioning-tests-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        guard let base = buffer.baseAddress, let made = mkdtemp(base) else { return "/tmp" }
        return String(cString: made)
    }
}

/// A deterministic generator for seeded random tests (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
