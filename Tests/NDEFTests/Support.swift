import NDEF

/// Bytes from hex text written in tests; spaces allowed. A typo in a test literal traps the test, not the library.
func hex(_ text: String) -> [UInt8] {
    do { return try NDEFHex.decode(text) } catch { fatalError("bad hex literal in test: \(error)") }
}

/// The repository's top-level Fixtures folder, found from this file's path.
let fixturesDirectory: String = {
    var path = #filePath
    for _ in 0..<3 {  // Support.swift, NDEFTests, Tests
        guard let slash = path.lastIndex(of: "/") else { break }
        path = String(path[..<slash])
    }
    return path + "/Fixtures"
}()
