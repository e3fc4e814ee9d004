import CommandLineKit
import Testing

@Suite struct CommandLineParserTests {
    @Test(arguments: [
        ["copy", "src", "--output", "x"],
        ["copy", "src", "--output=x"],
        ["copy", "-o", "x", "src"],
        ["copy", "--output", "x", "--", "src"],
    ])
    func optionForms(_ arguments: [String]) throws {
        let values = try SampleTool.values(arguments)
        #expect(values.value("output") == "x")
        #expect(values.argument("source") == "src")
    }

    @Test func dashIsAValue() throws {
        let values = try SampleTool.values(["copy", "-", "-o", "-"])
        #expect(values.argument("source") == "-")
        #expect(values.value("output") == "-")
    }

    @Test func equalsKeepsTheRestOfTheValue() throws {
        let values = try SampleTool.values(["copy", "src", "--output=a=b", "--tag="])
        #expect(values.value("output") == "a=b")
        #expect(values.values("tag") == [""])
    }

    @Test func negativeNumbersAreValues() throws {
        #expect(try SampleTool.values(["copy", "src", "--tag", "-1"]).values("tag") == ["-1"])
    }

    @Test func terminatorEndsOptions() throws {
        let values = try SampleTool.values(["copy", "--", "--verbose", "-o"])
        #expect(!values.flag("verbose"))
        #expect(values.argument("source") == "--verbose")
        #expect(values.argument("destination") == "-o")
        #expect(values.value("output") == nil)
    }

    @Test func flagsAndDefaults() throws {
        let values = try SampleTool.values(["copy", "-v", "src"])
        #expect(values.flag("verbose"))
        #expect(values.value("mode") == "a")
        #expect(values.argument("destination") == "-")
        #expect(!values.isGiven("mode"))
    }

    @Test func repeatedOptionsKeepEveryValue() throws {
        let values = try SampleTool.values(["copy", "src", "--tag", "a", "--tag=b", "--tag", "c"])
        #expect(values.values("tag") == ["a", "b", "c"])
    }

    @Test func nonRepeatableOptionsAreRefusedTwice() {
        let failure = SampleTool.failure(["copy", "src", "-o", "a", "--output", "b"])
        #expect(failure?.error.message == "The option '--output <file>' can be given only once")
    }

    @Test func allowedValues() throws {
        #expect(try SampleTool.values(["copy", "src", "--mode", "b"]).value("mode") == "b")
        let failure = SampleTool.failure(["copy", "src", "--mode", "c"])
        #expect(
            failure?.error.message == "The value 'c' is invalid for '--mode <m>'. Please provide one of 'a' and 'b'.")
        #expect(failure?.error.help == "--mode <m>  The mode.")
    }

    @Test func unknownOptions() {
        #expect(SampleTool.failure(["copy", "src", "--foo"])?.error.message == "Unknown option '--foo'")
        #expect(SampleTool.failure(["copy", "src", "-x"])?.error.message == "Unknown option '-x'")
        #expect(SampleTool.failure(["copy", "-ox", "src"])?.error.message == "Unknown option '-ox'")
        #expect(
            SampleTool.failure(["copy", "src", "--outptu", "x"])?.error.message
                == "Unknown option '--outptu'. Did you mean '--output'?"
        )
    }

    @Test func missingValues() {
        let failure = SampleTool.failure(["copy", "src", "--output"])
        #expect(failure?.error.message == "Missing value for '--output <file>'")
        #expect(failure?.error.help == "--output <file>  The output file.")
        #expect(SampleTool.failure(["copy", "src", "-o"])?.error.message == "Missing value for '-o <file>'")
        #expect(
            SampleTool.failure(["copy", "src", "-o", "--verbose"])?.error.message == "Missing value for '-o <file>'")
    }

    @Test func flagsTakeNoValue() {
        #expect(
            SampleTool.failure(["copy", "src", "--verbose=yes"])?.error.message
                == "The option '--verbose' does not take any value, but 'yes' was specified."
        )
    }

    @Test func missingAndExtraArguments() {
        let missing = SampleTool.failure(["copy"])
        #expect(missing?.error.message == "Missing expected argument '<source>'")
        #expect(missing?.error.help == "<source>  Where to copy from.")
        #expect(missing?.path.map(\.name) == ["tool", "copy"])
        #expect(SampleTool.failure(["copy", "a", "b", "c"])?.error.message == "Unexpected argument 'c'")
        #expect(SampleTool.failure(["copy", "a", "b", "c", "d"])?.error.message == "2 unexpected arguments: 'c', 'd'")
        #expect(SampleTool.failure(["sim", "serve"])?.error.message == "Missing expected argument '<files> ...'")
    }

    @Test func nestedSubcommandsAndSharedGroups() throws {
        guard case .run(let path, let values) = try SampleTool.parse(["sim", "serve", "-r", "acr", "a", "--wait", "b"])
        else {
            Issue.record("no run")
            return
        }
        #expect(path.map(\.name) == ["tool", "sim", "serve"])
        #expect(values.value("reader") == "acr")
        #expect(values.flag("wait"))
        #expect(values.arguments("files") == ["a", "b"])
    }

    @Test func unknownSubcommand() {
        let failure = SampleTool.failure(["sim", "bogus"])
        #expect(failure?.error.message == "Unknown command 'bogus'")
        #expect(failure?.path.map(\.name) == ["tool", "sim"])
    }

    @Test(arguments: [
        (["--help"], ["tool"]),
        (["-h"], ["tool"]),
        (["copy", "--help"], ["tool", "copy"]),
        (["copy", "src", "-h", "--foo"], ["tool", "copy"]),
        (["sim", "serve", "--help"], ["tool", "sim", "serve"]),
    ])
    func helpRequests(_ arguments: [String], path: [String]) throws {
        guard case .help(let helpPath) = try SampleTool.parse(arguments) else {
            Issue.record("\(arguments) did not ask for help")
            return
        }
        #expect(helpPath.map(\.name) == path)
    }

    @Test func helpAfterTerminatorIsAWord() throws {
        #expect(try SampleTool.values(["copy", "--", "--help"]).argument("source") == "--help")
    }

    @Test func versionOnEveryCommand() throws {
        for arguments in [["--version"], ["copy", "--version"], ["sim", "serve", "--version"]] {
            guard case .version = try SampleTool.parse(arguments) else {
                Issue.record("\(arguments) did not ask for the version")
                continue
            }
        }
    }

    @Test func noVersionWithoutOne() {
        let tool = SampleCommand(name: "plain", abstract: "No version.", run: SampleAction(name: "plain"))
        #expect(throws: SampleParser.Failure.self) { try SampleParser(root: tool).parse(["--version"]) }
    }

    @Test func integerValues() throws {
        let values = try SampleTool.values(["copy", "src", "--tag", "7", "--output", "x"])
        let output = OptionSpec.option("output", short: "o", value: "file", help: "The output file.")
        #expect(throws: UsageError.invalidValue("x", for: output, reason: "expected a whole number from 1 to 9")) {
            try values.integer("output", in: 1...9)
        }
        #expect(try values.integer("absent", in: 1...9) == nil)
    }

    @Test func editDistances() {
        #expect(editDistance("", "abc") == 3)
        #expect(editDistance("kitten", "sitting") == 3)
        #expect(editDistance("--output", "--outptu") == 1)
        #expect(editDistance("wrtie", "write") == 1)
        #expect(editDistance("ca", "abc") == 3)
        #expect(editDistance("same", "same") == 0)
    }
}
