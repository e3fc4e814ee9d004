/// The repository's top-level Fixtures folder, found from this file's path.
let fixturesDirectory: String = {
    var path = #filePath
    for _ in 0..<3 {  // Support.swift, NDEFTests, Tests
        guard let slash = path.lastIndex(of: "/") else { break }
        path = String(path[..<slash])
    }
    return path + "/Fixtures"
}()
