import Foundation
import Testing

/// Text a test compares with a file under `Fixtures/` (help screens, JSON shapes).
///
/// `NDEFTOOL_UPDATE_GOLDEN=1 swift test --filter ...` writes the files anew from what the code
/// prints; review the change with `git diff Fixtures/` before committing it.
public enum GoldenFile {
    /// Checks that `actual` is the content of `Fixtures/<name>`; the issue names the first line
    /// that differs.
    public static func expect(
        _ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let path = PackagePaths.fixture(name)
        if ProcessInfo.processInfo.environment["NDEFTOOL_UPDATE_GOLDEN"] == "1" {
            do {
                try FileManager.default.createDirectory(
                    at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
            } catch {
                Issue.record("cannot write \(path): \(error)", sourceLocation: sourceLocation)
            }
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            Issue.record(
                "no golden file Fixtures/\(name): write it with NDEFTOOL_UPDATE_GOLDEN=1",
                sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var line = 0
        while line < min(expectedLines.count, actualLines.count), expectedLines[line] == actualLines[line] { line += 1 }
        let want = line < expectedLines.count ? String(expectedLines[line]) : "(end of file)"
        let got = line < actualLines.count ? String(actualLines[line]) : "(end of text)"
        let message =
            "differs from Fixtures/\(name) at line \(line + 1):\n  expected: \(want)\n  actual:   \(got)\n"
            + "(NDEFTOOL_UPDATE_GOLDEN=1 writes the file anew)"
        Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
}
