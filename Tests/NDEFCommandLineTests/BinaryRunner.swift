import Foundation
import Testing

/// Runs the built `ndeftool` executable, as a user would.
enum BinaryRunner {
    /// The executable: next to this test bundle in the build's products folder (where
    /// `swift build` and `swift test` put it), else in `.build/debug` of the package.
    static let executable: URL? = {
        let fileManager = FileManager.default
        var folders: [URL] = []
        let runningExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        folders.append(runningExecutable.deletingLastPathComponent())
        if let first = CommandLine.arguments.first {
            folders.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        folders.append(Bundle.main.bundleURL)
        folders.append(Bundle.main.bundleURL.deletingLastPathComponent())
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        for folder in folders {
            // The products folder itself, or the one holding an .xctest bundle.
            for candidate in [folder, folder.deletingLastPathComponent().deletingLastPathComponent()] {
                let url = candidate.appendingPathComponent("ndeftool")
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                    fileManager.isExecutableFile(atPath: url.path)
                {
                    return url
                }
            }
        }
        return nil
    }()

    /// Runs `ndeftool` (or `program`) with `arguments`, `input` on standard input, in `directory`.
    static func run(
        _ arguments: [String],
        input: [UInt8] = [],
        environment: [String: String] = [:],
        directory: URL? = nil,
        program: URL? = nil
    ) throws -> RunResult {
        let executable = try #require(program ?? executable, "ndeftool was not built next to the tests")
        let scratch = try TemporaryDirectory()
        let inputPath = try scratch.file("stdin", input)
        let outputPath = scratch.path("stdout")
        let errorPath = scratch.path("stderr")
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errorPath, contents: nil)

        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var variables = ProcessInfo.processInfo.environment
        // libnfc's nfc_init in this test process (the libnfc tests) sets LIBNFC_LOG_LEVEL in its
        // environment; children start without it, as from a shell, unless a test sets it.
        variables["LIBNFC_LOG_LEVEL"] = nil
        variables.merge(environment) { $1 }
        process.environment = variables
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let error = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardOutput = output
        process.standardError = error
        try process.run()
        process.waitUntilExit()
        try output.close()
        try error.close()
        return RunResult(
            status: process.terminationStatus,
            output: [UInt8](try Data(contentsOf: URL(fileURLWithPath: outputPath))),
            error: String(decoding: try Data(contentsOf: URL(fileURLWithPath: errorPath)), as: UTF8.self)
        )
    }
}
