import Foundation
import TestSupport
import Testing

@testable import CommandLineKit
@testable import NDEFCommandLine

/// One shell command of the documentation, with the output printed under it (if any).
struct DocumentationExample: Sendable, CustomStringConvertible {
    /// The command as a shell reads it (continuation lines joined).
    var command: String
    /// The lines printed under the command (standard output and error together); empty when the
    /// documentation shows none, and then the output is not compared. A line `...` stands for any
    /// number of lines.
    var expectedOutput: [String]
    /// Where the command is: `README.md:42` or `ndeftool encode`.
    var location: String

    var description: String { "\(location): $ \(command)" }
}

/// A document whose examples run in order in one folder of their own: a Markdown file, or the
/// examples of one command's help (which the man page prints).
struct ExampleDocument: Sendable, CustomTestStringConvertible {
    var name: String
    var examples: [DocumentationExample]

    var testDescription: String { name }
}

/// Finds the runnable examples of the documentation.
///
/// In Markdown (README.md, the DocC articles), a fenced block marked `console` is run: lines that
/// start with `$ ` are commands (a line ending in `\` continues on the next), the lines under a
/// command are what it prints. Other blocks (`sh`, `text`, `swift`) are not run here (the Swift
/// examples run in the tests of their modules). In help texts, the indented lines under
/// `Examples:` are commands; a trailing `# comment` is part of the shell text.
enum DocumentationExamples {
    /// The Markdown documents of the package: README.md and every DocC article.
    static func markdownFiles() -> [URL] {
        var files = [PackagePaths.root.appendingPathComponent("README.md")]
        let sources = PackagePaths.root.appendingPathComponent("Sources")
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        for module in modules.sorted() {
            let catalog = sources.appendingPathComponent(module).appendingPathComponent("Documentation.docc")
            guard let enumerator = FileManager.default.enumerator(atPath: catalog.path) else { continue }
            for case let path as String in enumerator where path.hasSuffix(".md") {
                files.append(catalog.appendingPathComponent(path))
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The documents with runnable examples: each Markdown file that has some.
    static func markdownDocuments() -> [ExampleDocument] {
        markdownFiles().compactMap { url in
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let name = String(url.path.dropFirst(PackagePaths.root.path.count + 1))
            let examples = markdownExamples(text, name: name)
            return examples.isEmpty ? nil : ExampleDocument(name: name, examples: examples)
        }
    }

    /// The `console` examples of one Markdown text.
    static func markdownExamples(_ text: String, name: String) -> [DocumentationExample] {
        var examples: [DocumentationExample] = []
        var inConsole = false
        var inOtherBlock = false
        var continuing = false
        var fenceIndent = 0
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let indent = rawLine.prefix { $0 == " " }.count
            let line = String(rawLine.dropFirst(min(indent, fenceIndent)))
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if inConsole || inOtherBlock {
                    inConsole = false
                    inOtherBlock = false
                    fenceIndent = 0
                } else if trimmed == "```console" {
                    inConsole = true
                    fenceIndent = indent
                } else {
                    inOtherBlock = true
                }
                continuing = false
                continue
            }
            guard inConsole else { continue }
            if continuing, var last = examples.popLast() {
                last.command += "\n" + line
                continuing = line.hasSuffix("\\")
                examples.append(last)
            } else if line.hasPrefix("$ ") {
                examples.append(
                    DocumentationExample(
                        command: String(line.dropFirst(2)), expectedOutput: [], location: "\(name):\(index + 1)"))
                continuing = line.hasSuffix("\\")
            } else if var last = examples.popLast() {
                last.expectedOutput.append(line)
                examples.append(last)
            }
        }
        return examples
    }

    /// The ```swift blocks of a Markdown text (at any indentation), as they are printed.
    static func swiftBlocks(_ text: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if let lines = current {
                    blocks.append(lines.joined(separator: "\n"))
                    current = nil
                } else if trimmed == "```swift" {
                    current = []
                }
            } else {
                current?.append(String(line))
            }
        }
        return blocks
    }

    /// The lines of Swift code that a comparison looks at: runs of spaces as one (the formatter
    /// aligns comments its own way), without blank lines and imports.
    static func significantLines(_ code: String) -> [String] {
        code.split(separator: "\n")
            .map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
            .filter { !$0.isEmpty && !$0.hasPrefix("import ") }
    }

    /// The code between `// Example begin` and `// Example end` in every Swift file under
    /// Tests/, as significant lines: one list per file, its regions one after another (so an
    /// example may be split where a test steps in, as a tag put back on the reader).
    static func testedRegions() throws -> [[String]] {
        let tests = PackagePaths.root.appendingPathComponent("Tests")
        var regions: [[String]] = []
        guard let enumerator = FileManager.default.enumerator(atPath: tests.path) else { return [] }
        for case let path as String in enumerator where path.hasSuffix(".swift") {
            let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
            var inRegion = false
            var lines: [String] = []
            for line in significantLines(text) {
                if line == "// Example begin" {
                    inRegion = true
                } else if line == "// Example end" {
                    inRegion = false
                } else if inRegion {
                    lines.append(line)
                }
            }
            if !lines.isEmpty { regions.append(lines) }
        }
        return regions
    }

    /// One document per command with examples in its help (what the man page prints).
    static func helpDocuments() -> [ExampleDocument] {
        var documents: [ExampleDocument] = []
        let root = RootCommand.spec
        for path in [[root]] + ManPage.commandPaths(root) {
            guard let command = path.last else { continue }
            let name = path.map(\.name).joined(separator: " ")
            let examples = helpExamples(command.discussion, name: name)
            if !examples.isEmpty { documents.append(ExampleDocument(name: name, examples: examples)) }
        }
        return documents
    }

    /// The example commands of one help text: the indented lines of its `Examples:` paragraph.
    static func helpExamples(_ discussion: String, name: String) -> [DocumentationExample] {
        var examples: [DocumentationExample] = []
        var inExamples = false
        var continuing = false
        for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
            let text = line.trimmingCharacters(in: .whitespaces)
            if !line.hasPrefix(" ") {
                inExamples = line.hasSuffix("Examples:")
                continuing = false
            } else if continuing, var last = examples.popLast() {
                last.command += "\n" + text
                continuing = text.hasSuffix("\\")
                examples.append(last)
            } else if inExamples && !text.isEmpty {
                examples.append(DocumentationExample(command: text, expectedOutput: [], location: name))
                continuing = text.hasSuffix("\\")
            }
        }
        return examples
    }
}

/// Runs the examples of one document in order, in one shell (so `export` and `cd` carry over),
/// in a new folder holding the files of `Fixtures/examples/`, with the built `ndeftool` first in
/// `PATH`, a configuration folder of its own and `NDEFTOOL_READER` set to a simulated NTAG215
/// kept in `tag.nfc`.
///
/// A command that exits with a status other than 0 fails the test unless the next command is
/// `echo $?`, which shows the status expected. A command that serves or watches until
/// interrupted (`sim serve`, `--watch`) runs until it has printed its first line, then gets
/// SIGINT and must end with status 0, or 130 (128 + SIGINT): `batch status --watch` ends by itself
/// with 0 once the job is complete and with 130 when Ctrl-C came first, and which of the two
/// happens first after its first line is not the example's to decide.
///
/// The database URL ``databasePlaceholder`` stands for a new database of the tests' PostgreSQL
/// server (a URI over its Unix socket, which a command in a network namespace of its own reaches
/// too); without a server, a document that names it is skipped, and says so.
struct ExampleRun {
    /// Marks the start of each command's output in the shell's output.
    static let marker = "@@@ndeftool-example"
    /// The database URL the documentation's examples use.
    static let databasePlaceholder = "postgresql://db.example/provisioning"

    let document: ExampleDocument
    /// The URI that replaces ``databasePlaceholder``, nil when no server runs for the tests.
    var databaseURI: String? = nil

    /// Whether `example` needs a database.
    static func needsDatabase(_ example: DocumentationExample) -> Bool {
        example.command.contains(databasePlaceholder)
    }

    /// Whether `command` runs until interrupted.
    /// A command the documentation itself puts in the background (`... &`) runs as written.
    static func runsUntilInterrupted(_ command: String) -> Bool {
        let code = command.split(separator: "#", maxSplits: 1).first.map(String.init) ?? command
        if code.trimmingCharacters(in: .whitespaces).hasSuffix("&") { return false }
        return command.contains("sim serve") || command.contains("--watch")
    }

    /// The shell script.
    func script(binFolder: String) -> String {
        var lines = [
            "exec 2>&1",
            // Job control: background commands keep SIGINT (a shell without it ignores SIGINT in
            // them), so Ctrl-C's signal reaches a server started with `&`.
            "set -m",
            "export PATH=\(ShellQuoting.word(binFolder)):\"$PATH\"",
            "export HOME=\"$PWD/.home\" XDG_CONFIG_HOME=\"$PWD/.config\" XDG_STATE_HOME=\"$PWD/.state\" NO_COLOR=1",
            "export NDEFTOOL_READER='sim:ntag215?file=tag.nfc'",
            "unset NDEFTOOL_PASSWORD NDEFTOOL_DATABASE_URL",
            "mkdir -p \"$HOME\" \"$XDG_CONFIG_HOME\"",
            "isolated=''",
            "if unshare -n true 2>/dev/null; then isolated='unshare -n'; "
                + "elif unshare -rn true 2>/dev/null; then isolated='unshare -rn'; fi",
        ]
        lines.append("example_status=0")
        for (index, example) in document.examples.enumerated() {
            // The marker, then the status of the command before (for an `echo $?`).
            lines.append("printf '\\n\(Self.marker) \(index)\\n'")
            lines.append("(exit $example_status)")
            var example = example
            if let databaseURI {
                example.command = example.command.replacingOccurrences(of: Self.databasePlaceholder, with: databaseURI)
            }
            if Self.runsUntilInterrupted(example.command) {
                // In a network namespace of its own where one can be made: a served tag must not
                // reach the vpcd readers of the tests that run meanwhile.
                lines += [
                    "$isolated bash -c \(ShellQuoting.word(example.command)) > .example-output 2>&1 &",
                    "example_pid=$!",
                    "for _ in $(seq 6000); do [ -s .example-output ] && break; "
                        + "kill -0 $example_pid 2>/dev/null || break; sleep 0.05; done",
                    "kill -INT $example_pid 2>/dev/null; wait $example_pid; example_status=$?",
                    "[ $example_status -eq 130 ] && example_status=0",
                    "head -n 1 .example-output; rm -f .example-output",
                ]
            } else {
                lines.append(example.command)
                lines.append("example_status=$?")
            }
            lines.append("printf '\\n\(Self.marker) status %d\\n' $example_status")
        }
        // Nothing the examples started in the background outlives them.
        lines.append("kill $(jobs -p) 2>/dev/null; wait")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Runs the document; records an issue for each command that failed or printed something
    /// other than what the documentation shows.
    func run(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        guard document.examples.contains(where: Self.needsDatabase) else {
            return try await runHere(sourceLocation: sourceLocation)
        }
        // The examples after a database command rely on it: without a server, none runs.
        guard PostgresTest.isAvailable else {
            print("SKIPPED: the examples of \(document.name), which need a database: no PostgreSQL for the tests")
            return
        }
        try await TestDatabase.with { database in
            var run = self
            run.databaseURI = database.uri
            try await run.runHere(sourceLocation: sourceLocation)
        }
    }

    /// Runs the document with ``databaseURI`` as it is.
    private func runHere(sourceLocation: SourceLocation) async throws {
        let binary = try #require(BinaryRunner.executable, "ndeftool was not built next to the tests")
        let folder = try Self.exampleFolder("examples")
        defer { folder.remove() }
        let script = try folder.file(".examples.sh", text: script(binFolder: binary.deletingLastPathComponent().path))
        let process = try ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), [script], environment: [:], directory: folder.url)
        let result = await process.finish(timeout: .seconds(600), sourceLocation: sourceLocation)
        let outputs = Self.outputs(String(decoding: result.output, as: UTF8.self))
        for (index, example) in document.examples.enumerated() {
            guard let output = outputs[index] else {
                Issue.record("\(example): did not run", sourceLocation: sourceLocation)
                continue
            }
            let nextShowsStatus =
                document.examples.indices.contains(index + 1)
                && document.examples[index + 1].command.hasPrefix("echo $?")
            if output.status != 0 && !nextShowsStatus {
                Issue.record(
                    "\(example): exit status \(output.status)\n\(output.lines.joined(separator: "\n"))",
                    sourceLocation: sourceLocation)
            }
            if !example.expectedOutput.isEmpty && !Self.matches(output.lines, example.expectedOutput) {
                Issue.record(
                    """
                    \(example): printed
                    \(output.lines.joined(separator: "\n"))
                    where the documentation shows
                    \(example.expectedOutput.joined(separator: "\n"))
                    """,
                    sourceLocation: sourceLocation)
            }
        }
    }

    /// A new folder holding the files the examples use (`Fixtures/examples/`: message.ndef,
    /// tag.nfc, pw.txt, tags.csv, ...).
    static func exampleFolder(_ prefix: String) throws -> TemporaryDirectory {
        let folder = try TemporaryDirectory(prefix)
        let fixtures = PackagePaths.fixtures.appendingPathComponent("examples")
        for name in try FileManager.default.contentsOfDirectory(atPath: fixtures.path) {
            try FileManager.default.copyItem(
                atPath: fixtures.appendingPathComponent(name).path, toPath: folder.path(name))
        }
        return folder
    }

    /// Each command's output lines and exit status, by the command's index.
    static func outputs(_ text: String) -> [Int: (lines: [String], status: Int32)] {
        var result: [Int: (lines: [String], status: Int32)] = [:]
        var current: Int?
        var lines: [String] = []
        // "\r\n" is one Character: a CSV's line ends are line ends too.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            if line.hasPrefix(marker + " status "), let index = current {
                let status = Int32(line.dropFirst(marker.count + 8)) ?? -1
                while lines.last?.isEmpty == true { lines.removeLast() }
                result[index] = (lines, status)
                current = nil
            } else if line.hasPrefix(marker + " "), let index = Int(line.dropFirst(marker.count + 1)) {
                current = index
                lines = []
            } else if current != nil {
                lines.append(String(line).replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression))
            }
        }
        return result
    }

    /// Whether `actual` is what `expected` shows: line by line (trailing spaces aside), where an
    /// expected line `...` matches any number of lines and `...` inside a line any text.
    static func matches(_ actual: [String], _ expected: [String]) -> Bool {
        let actual = actual.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        var expected = expected.map { $0.replacingOccurrences(of: "\\s+$", with: "", options: .regularExpression) }
        while expected.last?.isEmpty == true { expected.removeLast() }
        func match(_ a: Int, _ e: Int) -> Bool {
            if e == expected.count { return a == actual.count }
            if expected[e] == "..." { return (a...actual.count).contains { match($0, e + 1) } }
            guard a < actual.count, lineMatches(actual[a], expected[e]) else { return false }
            return match(a + 1, e + 1)
        }
        return match(0, 0)
    }

    /// One line against its pattern (`...` inside it matches any text).
    static func lineMatches(_ actual: String, _ pattern: String) -> Bool {
        let parts = pattern.components(separatedBy: "...")
        guard parts.count > 1 else { return actual == pattern }
        var rest = Substring(actual)
        guard let first = parts.first, rest.hasPrefix(first) else { return false }
        rest = rest.dropFirst(first.count)
        for part in parts.dropFirst().dropLast() {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last ?? "")
    }
}
