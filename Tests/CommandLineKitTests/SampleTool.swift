import CommandLineKit
import Testing

/// What a sample command does: its name, so a test can tell which command a line runs.
struct SampleAction: Sendable, Hashable {
    let name: String
}

/// A command of the sample tool.
typealias SampleCommand = CommandDefinition<SampleAction>
/// The sample tool's parser.
typealias SampleParser = CommandLineParser<SampleAction>
/// The sample tool's help.
typealias SampleHelp = CommandHelp<SampleAction>

/// A small command tree exercising every feature of the parser.
enum SampleTool {
    static let readerGroup = OptionGroup(
        title: "Reader options",
        [
            .option("reader", short: "r", value: "name", help: "The reader to use."),
            .flag("wait", help: "Wait for a tag."),
        ]
    )

    static let copy = SampleCommand(
        name: "copy",
        abstract: "Copy things.",
        arguments: [
            ArgumentSpec("source", help: "Where to copy from."),
            ArgumentSpec("destination", help: "Where to copy to.", optional: true, default: "-"),
        ],
        options: [
            .option("output", short: "o", value: "file", help: "The output file."),
            .flag("verbose", short: "v", help: "Say more."),
            .option("tag", value: "t", repeatable: true, help: "A tag; repeat for more."),
            .option("mode", value: "m", default: "a", values: ["a", "b"], help: "The mode."),
        ],
        run: SampleAction(name: "copy")
    )

    static let serve = SampleCommand(
        name: "serve",
        abstract: "Serve a simulated tag.",
        arguments: [ArgumentSpec("files", help: "Tag images.", repeating: true)],
        groups: [readerGroup],
        run: SampleAction(name: "serve")
    )

    static let sim = SampleCommand(name: "sim", abstract: "Simulate tags.", subcommands: [serve])

    /// A hidden `help` command, as tools built on the kit have.
    static let help = SampleCommand(
        name: "help",
        abstract: "Show subcommand help information.",
        arguments: [ArgumentSpec("subcommands", help: "The command to describe.", optional: true, repeating: true)],
        isHidden: true,
        run: SampleAction(name: "help"))

    static let root = SampleCommand(
        name: "tool",
        abstract: "A sample tool.",
        version: "1.2.3",
        subcommands: [copy, sim, help]
    )

    static func parse(_ arguments: [String]) throws(SampleParser.Failure) -> SampleParser.Outcome {
        try SampleParser(root: root).parse(arguments)
    }

    /// The values of a command line that must run.
    static func values(_ arguments: [String]) throws -> ParsedValues {
        guard case .run(_, let values) = try parse(arguments) else {
            Issue.record("\(arguments) did not parse to a run")
            return ParsedValues(for: copy)
        }
        return values
    }

    /// The usage error of a command line that must fail.
    static func failure(_ arguments: [String]) -> SampleParser.Failure? {
        do {
            _ = try parse(arguments)
            Issue.record("\(arguments) parsed without error")
            return nil
        } catch {
            return error
        }
    }
}
