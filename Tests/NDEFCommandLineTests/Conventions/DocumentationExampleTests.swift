import Foundation
import TestSupport
import Testing

/// Every runnable example of the documentation, run against simulated readers with the built
/// `ndeftool`: the `console` blocks of README.md and of the DocC articles, and the examples of
/// each command's help (the man page prints them).
@Suite struct DocumentationExampleTests {
    @Test(arguments: DocumentationExamples.markdownDocuments())
    func markdownExamplesRun(_ document: ExampleDocument) async throws {
        try await ExampleRun(document: document).run()
    }

    @Test(arguments: DocumentationExamples.helpDocuments())
    func helpExamplesRun(_ document: ExampleDocument) async throws {
        try await ExampleRun(document: document).run()
    }

    /// The documents with examples are found: the README's tour and most commands' help.
    @Test func examplesAreFound() {
        #expect(DocumentationExamples.markdownDocuments().contains { $0.name == "README.md" })
        let commands = DocumentationExamples.helpDocuments().map(\.name)
        for name in ["ndeftool encode", "ndeftool write", "ndeftool lock", "ndeftool batch"] {
            #expect(commands.contains(name), "\(name) has examples")
        }
    }

    /// Every Swift example of README.md and the DocC catalogs is the code of a test: its lines
    /// (imports aside, whitespace at either end ignored) appear in order, one after another,
    /// between `// Example begin` and `// Example end` in a file under Tests/. A package manifest
    /// (`// swift-tools-version`) is not code a test runs, and is left out.
    @Test func swiftExamplesAreTested() throws {
        let regions = try DocumentationExamples.testedRegions()
        var count = 0
        for file in DocumentationExamples.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for block in DocumentationExamples.swiftBlocks(text) where !block.hasPrefix("// swift-tools-version") {
                count += 1
                let lines = DocumentationExamples.significantLines(block)
                let found = regions.contains { region in
                    region.count >= lines.count
                        && (0...(region.count - lines.count)).contains {
                            Array(region[$0..<($0 + lines.count)]) == lines
                        }
                }
                #expect(found, "\(file.lastPathComponent): the example starting '\(lines.first ?? "")' is in no test")
            }
        }
        #expect(count >= 20)
    }

    /// The parser of `console` blocks: commands, continuation lines, outputs; other blocks skipped.
    @Test func consoleBlocksAreParsed() {
        let text = """
            ```sh
            $ not run
            ```
            ```console
            $ ndeftool encode text hi \\
                --hex
            d1010550...
            $ false
            $ echo $?
            1
            ```
            """
        let examples = DocumentationExamples.markdownExamples(text, name: "t")
        #expect(examples.map(\.command) == ["ndeftool encode text hi \\\n    --hex", "false", "echo $?"])
        #expect(examples.map(\.expectedOutput) == [["d1010550..."], [], ["1"]])
        #expect(examples.first?.location == "t:5")
    }

    /// Outputs compare line by line, `...` matching any lines or any text within a line.
    @Test func outputsMatchWithEllipses() {
        #expect(ExampleRun.matches(["a", "b", "c"], ["a", "...", "c"]))
        #expect(ExampleRun.matches(["a", "c"], ["a", "...", "c"]))
        #expect(!ExampleRun.matches(["a", "b"], ["a", "c"]))
        #expect(!ExampleRun.matches(["a", "b", "x"], ["a", "..."] + ["c"]))
        #expect(ExampleRun.matches(["UID 04:A1:B2"], ["UID 04:..."]))
        #expect(!ExampleRun.matches(["UID 05:A1"], ["UID 04:..."]))
        #expect(ExampleRun.matches(["x  "], ["x"]))
    }
}
