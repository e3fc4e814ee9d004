import CommandLineKit
import Testing

@Suite struct SampleHelpTests {
    func help(_ names: [String]) -> String {
        var path = [SampleTool.root]
        for name in names {
            guard let next = path.last?.subcommand(named: name) else { return "" }
            path.append(next)
        }
        return SampleHelp(path: path).render()
    }

    @Test func topLevel() {
        #expect(
            help([]) == """
                OVERVIEW: A sample tool.

                VERSION: tool 1.2.3

                USAGE: tool <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  copy                    Copy things.
                  sim                     Simulate tags.

                  See 'tool help <subcommand>' for detailed help.

                """
        )
    }

    @Test func commandWithArgumentsAndOptions() {
        #expect(
            help(["copy"]) == """
                OVERVIEW: Copy things.

                VERSION: tool 1.2.3

                USAGE: tool copy [--output <file>] [--verbose] [--tag <t> ...] [--mode <m>] <source> [<destination>]

                ARGUMENTS:
                  <source>                Where to copy from.
                  <destination>           Where to copy to. (default: -)

                OPTIONS:
                  -o, --output <file>     The output file.
                  -v, --verbose           Say more.
                  --tag <t>               A tag; repeat for more.
                  --mode <m>              The mode. (values: a, b; default: a)
                  --version               Show the version.
                  -h, --help              Show help information.


                """
        )
    }

    @Test func nestedCommandWithSharedGroup() {
        #expect(
            help(["sim"]) == """
                OVERVIEW: Simulate tags.

                VERSION: tool 1.2.3

                USAGE: tool sim <subcommand>

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.

                SUBCOMMANDS:
                  serve                   Serve a simulated tag.

                  See 'tool help sim <subcommand>' for detailed help.

                """
        )
        #expect(
            help(["sim", "serve"]) == """
                OVERVIEW: Serve a simulated tag.

                VERSION: tool 1.2.3

                USAGE: tool sim serve [--reader <name>] [--wait] <files> ...

                ARGUMENTS:
                  <files>                 Tag images.

                READER OPTIONS:
                  -r, --reader <name>     The reader to use.
                  --wait                  Wait for a tag.

                OPTIONS:
                  --version               Show the version.
                  -h, --help              Show help information.


                """
        )
    }

    @Test func longLabelsPutTheirTextOnTheNextLine() {
        let element = HelpSection.Element(label: "--a-rather-long-option <value>", abstract: "Text.")
        #expect(SampleHelp.render(element) == "  --a-rather-long-option <value>\n                          Text.\n")
        let fits = HelpSection.Element(label: "--twenty-three-chars-xy", abstract: "Text.")
        #expect(SampleHelp.render(fits) == "  --twenty-three-chars-xy Text.\n")
    }

    @Test func longTextWrapsAtColumn80() {
        let element = HelpSection.Element(
            label: "--x",
            abstract: "one two three four five six seven eight nine ten eleven twelve thirteen fourteen"
        )
        #expect(
            SampleHelp.render(element) == """
                  --x                     one two three four five six seven eight nine ten
                                          eleven twelve thirteen fourteen

                """
        )
    }

    @Test func usageSummarisesManyOptions() {
        let options = (1...13).map { OptionSpec.flag("flag\($0)", help: "") }
        let command = SampleCommand(
            name: "many", abstract: "Many.", arguments: [ArgumentSpec("file", help: "")], options: options)
        #expect(SampleHelp(path: [command]).synopsis == "many [<options>] <file>")
    }

    @Test func errorMessageLayout() {
        let text = SampleHelp(path: [SampleTool.root, SampleTool.copy])
            .errorMessage(.missingArgument("<source>", help: "<source>  Where to copy from."))
        #expect(
            text == """
                Error: Missing expected argument '<source>'
                Help:  <source>  Where to copy from.
                Usage: tool copy [--output <file>] [--verbose] [--tag <t> ...] [--mode <m>] <source> [<destination>]
                  See 'tool copy --help' for more information.

                """
        )
    }

    @Test(arguments: [
        ("aaa bbb ccc", 7, 0, "aaa\nbbb ccc"),
        ("aaa bbb ccc ddd", 7, 0, "aaa\nbbb\nccc ddd"),
        ("a\n\nb", 10, 2, "  a\n\n  b"),
        ("abcdefghij klm", 5, 0, "abcdefghij\nklm"),
        ("short", 80, 26, String(repeating: " ", count: 26) + "short"),
    ])
    func wrapping(_ text: String, width: Int, indent: Int, expected: String) {
        #expect(TextWrapping.wrap(text, width: width, indent: indent) == expected)
    }
}
