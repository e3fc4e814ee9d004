import Foundation
import NDEF
import TagMemory
import TestSupport
import Testing

/// A folder for one `ndeftool batch` job run through the built binary: its journal, reports,
/// plans and the directories its simulated tag supplies keep their tags in.
final class BatchFolder: Sendable {
    let folder: TemporaryDirectory

    init() throws {
        folder = try TemporaryDirectory("batch")
    }

    /// The folder's path.
    var root: String { folder.url.path }

    /// A path in the folder.
    func path(_ name: String) -> String { folder.path(name) }

    /// Creates the directory `name` for a supply's tags; returns its path ending in `/`, as
    /// `file=DIR/` takes it.
    func tagDirectory(_ name: String = "tags") throws -> String {
        try folder.directory(name) + "/"
    }

    /// Writes `text` to `name`; returns its path.
    func file(_ name: String, _ text: String) throws -> String { try folder.file(name, text: text) }

    /// Runs `ndeftool` with `arguments` in the folder, and waits for it (at most `timeout`: then
    /// it is killed and the test fails).
    func run(
        _ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(180),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> BatchResult {
        try await start(arguments, environment: environment).finish(timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Starts `ndeftool` with `arguments` in the folder.
    func start(_ arguments: [String], environment: [String: String] = [:]) throws -> BackgroundRun {
        try BackgroundRun(arguments, directory: folder.url, environment: environment)
    }
}

/// How a run of the binary ended.
struct BatchResult {
    /// The exit status, or the signal number when `signalled`.
    var status: Int32
    /// Whether a signal ended the process.
    var signalled: Bool
    var output: String
    var error: String

    /// `status`, with 128 + N for a process ended by signal N, as a shell shows it.
    var shellStatus: Int32 { signalled ? 128 + status : status }
}

/// The built `ndeftool` started in the background (standard input /dev/null, not a terminal),
/// to be signalled or killed while it runs; awaited without holding a thread.
final class BackgroundRun: Sendable {
    let child: ChildProcess

    init(_ arguments: [String], directory: URL, environment: [String: String] = [:]) throws {
        let executable = try #require(BinaryRunner.executable, "ndeftool was not built next to the tests")
        var variables: [String: String?] = ["NDEFTOOL_MASTER_SECRET": nil, "NDEFTOOL_READER": "", "NO_COLOR": "1"]
        for (name, value) in environment { variables[name] = value }
        child = try ChildProcess(executable, arguments, environment: variables, directory: directory)
    }

    var isRunning: Bool { child.isRunning }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { child.send(signal) }

    /// Waits for the process to end, killing it after `timeout` (an issue then).
    func finish(
        timeout: Duration = .seconds(180), sourceLocation: SourceLocation = #_sourceLocation
    ) async -> BatchResult {
        let result = await child.finish(timeout: timeout, sourceLocation: sourceLocation)
        return BatchResult(
            status: result.status, signalled: result.signalled, output: result.outputText, error: result.error)
    }
}

/// What tests read from a job's journal, its reports and its tags.
enum BatchFiles {
    /// The complete lines of the journal at `path` as JSON objects, the header first.
    static func events(_ path: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        var lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
        // The part after the last line feed is a line not yet complete.
        lines.removeLast()
        return try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any], "not an object")
        }
    }

    /// The `(row, UID)` of every `done` event of the journal at `path`, in order.
    static func doneEvents(_ path: String) throws -> [(row: Int, uid: String)] {
        try events(path).compactMap { event in
            guard event["event"] as? String == "done", let row = event["row"] as? Int, let uid = event["uid"] as? String
            else { return nil }
            return (row, uid)
        }
    }

    /// Checks that every row 1...`rows` is done exactly once in the journal at `path`, on
    /// distinct tags, and that no tag was bound (`writing`) to two rows (a tag refused before
    /// anything was written holds none afterwards); returns row → UID.
    @discardableResult
    static func expectEveryRowDoneOnce(_ path: String, rows: Int) throws -> [Int: String] {
        let done = try doneEvents(path)
        var byRow: [Int: String] = [:]
        for (row, uid) in done {
            #expect(byRow[row] == nil, "row \(row) is done twice")
            byRow[row] = uid
        }
        #expect(Set(byRow.keys) == Set(1...rows), "rows not done: \(Set(1...rows).subtracting(byRow.keys).sorted())")
        #expect(Set(byRow.values).count == byRow.count, "a tag holds two rows")
        var bound: [String: Int] = [:]
        for event in try events(path) {
            guard let row = event["row"] as? Int, let uid = event["uid"] as? String else { continue }
            if event["event"] as? String == "refused" { bound[uid] = nil }
            guard event["event"] as? String == "writing" else { continue }
            #expect(
                bound[uid] == nil || bound[uid] == row, "tag \(uid) was bound to rows \(bound[uid] ?? 0) and \(row)")
            bound[uid] = row
        }
        return byRow
    }

    /// Checks that no row is left claimed or part way in the journal at `path`: each row's
    /// last event closes it (done, failed, released or refused).
    static func expectNoRowInProgress(_ path: String) throws {
        var last: [Int: String] = [:]
        for event in try events(path) {
            if let row = event["row"] as? Int, let name = event["event"] as? String { last[row] = name }
        }
        for (row, name) in last.sorted(by: { $0.key < $1.key }) {
            #expect(["done", "failed", "released", "refused"].contains(name), "row \(row) ends with '\(name)'")
        }
    }

    /// The data rows of the CSV report at `path` (header left out), split at commas (the
    /// tests' values hold none).
    static func reportRows(_ path: String) throws -> [[String]] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\r\n").map(String.init)
        #expect(lines.first?.hasPrefix("row,uid,outcome,time,reason") == true, "\(lines.first ?? "")")
        return lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// The simulated tag kept in the Flipper file at `path`.
    static func dump(ofTagFile path: String) throws -> TagDump {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return try TagDump(decoding: bytes, fileName: URL(fileURLWithPath: path).lastPathComponent)
    }

    /// The memory of the simulated tag kept in the Flipper file at `path`.
    static func memory(ofTagFile path: String) throws -> Type2Memory {
        Type2Memory(bytes: try dump(ofTagFile: path).memory)
    }

    /// The tag files a supply left in `directory` (a kill during a save may leave a hidden
    /// temporary file, left out), by UID.
    static func tagFiles(in directory: String) throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        var files: [String: String] = [:]
        for name in names where !name.hasPrefix(".") && name.hasSuffix(".nfc") {
            files[String(name.dropLast(4))] = directory + name
        }
        return files
    }

    /// The bytes of the NDEF message of one URI record.
    static func uriMessage(_ uri: String) throws -> [UInt8] {
        try NFCNDEFMessage(records: [try URIRecord(uri: uri).makeRecord()]).encoded()
    }

    /// Checks that the tag in `file` holds exactly the message `expected`: a whole NDEF TLV,
    /// not a half-written one.
    static func expectTag(_ file: String, holds expected: [UInt8], _ what: String) throws {
        let memory = try memory(ofTagFile: file)
        #expect(memory.problem == nil, "\(what): \(memory.problem.map { "\($0)" } ?? "")")
        #expect(memory.ndefMessageBytes == expected, "\(what) does not hold its row's message")
    }
}

/// The batch tests that run the built binary, one at a time: each runs jobs of up to 200 rows
/// in child processes, and several at once would take the machine's cores from the other tests.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BatchBinaryTests {}
