import CommandLineKit
import Foundation
import NFCSession
import TestSupport
import Testing

@testable import NDEFCommandLine

/// Colour, prompts, progress, typo suggestions, examples in help, completion scripts, man page.
@Suite(.timeLimit(.minutes(5))) struct UsabilityTests {
    @Test("Python ndeftool habits: 'ndeftool text hello' says how to write it here")
    func pythonHabits() async throws {
        let text = await runInProcess(["text", "hello world"])
        #expect(text.status == 64)
        #expect(
            text.error.hasPrefix(
                "Error: Unknown command 'text': records are built with 'ndeftool encode text 'hello world'' (or "
                    + "written to a tag with 'ndeftool write text 'hello world'')\n"), "\(text.error)")
        let poster = await runInProcess(["smp", "https://example.com"])
        #expect(poster.error.contains("'ndeftool encode smartposter https://example.com'"), "\(poster.error)")
        let other = await runInProcess(["wirte"])
        #expect(other.error.contains("Did you mean 'write'?"), "\(other.error)")
        let json = await runInProcess(["uri", "https://example.com", "--json"])
        #expect(json.status == 64)
        #expect(json.output.isEmpty)
    }

    @Test("encode does not write binary to a terminal (as gzip): -o FILE, a pipe, --hex or -o - instead")
    func binaryNotToATerminal() async {
        let terminal = TerminalTestIO()
        #expect(await NDEFCommandLine.run(["encode", "uri", "https://example.com"], io: terminal) == .usage)
        #expect(terminal.output.isEmpty)
        #expect(terminal.error.contains("standard output is a terminal"), "\(terminal.error)")
        let hex = TerminalTestIO()
        #expect(await NDEFCommandLine.run(["encode", "uri", "https://example.com", "--hex"], io: hex) == .success)
        #expect(hex.outputText == "d1010c55046578616d706c652e636f6d\n")
        let insisted = TerminalTestIO()
        #expect(
            await NDEFCommandLine.run(["encode", "uri", "https://example.com", "-o", "-"], io: insisted) == .success)
        #expect(insisted.output.first == 0xD1)
        let piped = TerminalTestIO(terminals: [.input, .error])
        #expect(await NDEFCommandLine.run(["encode", "uri", "https://example.com"], io: piped) == .success)
        #expect(piped.output.count == 16)
    }

    static let settings = TagSettings(reader: nil, wait: .zero, isQuiet: false, isVerbose: false)

    @Test("Colour only on a terminal, never with NO_COLOR or TERM=dumb")
    func style() {
        #expect(Style(io: TerminalTestIO()).error("Error:") == "\u{1B}[31mError:\u{1B}[0m")
        #expect(Style(io: TerminalTestIO()).success("ok") == "\u{1B}[32mok\u{1B}[0m")
        #expect(Style(io: TerminalTestIO()).warning("hm") == "\u{1B}[33mhm\u{1B}[0m")
        #expect(Style(io: TerminalTestIO(variables: ["NO_COLOR": "1"])).error("Error:") == "Error:")
        // no-color.org: an empty NO_COLOR does not count.
        #expect(Style(io: TerminalTestIO(variables: ["NO_COLOR": ""])).isEnabled)
        #expect(!Style(io: TerminalTestIO(variables: ["TERM": "dumb"])).isEnabled)
        #expect(Style(io: TestIO()).error("Error:") == "Error:")
        #expect(!Style(io: TerminalTestIO(terminals: [.output]), stream: .error).isEnabled)
    }

    @Test("Errors are red on a terminal and plain in a pipe")
    func colouredErrors() async {
        let terminal = TerminalTestIO()
        #expect(await NDEFCommandLine.run(["decode", "/nonexistent/x"], io: terminal) == .noInput)
        #expect(terminal.error.hasPrefix("\u{1B}[31mError:\u{1B}[0m "))
        let plain = TerminalTestIO(variables: ["NO_COLOR": "1"])
        #expect(await NDEFCommandLine.run(["decode", "/nonexistent/x"], io: plain) == .noInput)
        #expect(plain.error.hasPrefix("Error: "))
        let usage = TerminalTestIO()
        #expect(await NDEFCommandLine.run(["wrte"], io: usage) == .usage)
        #expect(usage.error.hasPrefix("\u{1B}[31mError:\u{1B}[0m Unknown command 'wrte'"))
    }

    @Test("The prompt names the reader; Done is green; reconnects are reported")
    func prompts() {
        #expect(TagConsole.holdPrompt(readerName: "ACS ACR122U") == "Hold a tag to the reader (ACS ACR122U)...")
        #expect(TagConsole.holdPrompt(readerName: nil) == "Hold a tag to the reader...")
        let io = TerminalTestIO(variables: ["NO_COLOR": "1"])
        let console = TagConsole(io: io, settings: Self.settings)
        console.show(.began(readerName: "sim:ntag215"))
        console.show(.waitingForTag)
        console.show(.waitingForTag)
        console.show(.reconnectStarted(reason: "gone"))
        console.show(.reconnectSucceeded(readerName: "sim:ntag215"))
        console.done("Done: remove the tag.")
        #expect(
            io.error == "Hold a tag to the reader (sim:ntag215)...\nReader disconnected: reconnecting...\n"
                + "Reader back\nDone: remove the tag.\n")
        let coloured = TerminalTestIO()
        TagConsole(io: coloured, settings: Self.settings).done("Done: remove the tag.")
        #expect(coloured.error == "\u{1B}[32mDone: remove the tag.\u{1B}[0m\n")
        let pipe = TestIO()
        let quietConsole = TagConsole(io: pipe, settings: Self.settings)
        quietConsole.show(.waitingForTag)
        quietConsole.done("Done: remove the tag.")
        quietConsole.progress("Writing: 9 pages written")
        #expect(pipe.error.isEmpty)
    }

    @Test("Progress is one updating line on a terminal, ended before the next message; -q silences it")
    func progress() {
        let io = TerminalTestIO(variables: ["NO_COLOR": "1"])
        let console = TagConsole(io: io, settings: Self.settings)
        console.progress("Writing: 8 pages written")
        console.progress("Writing: 9 pages written")
        console.done("Done: remove the tag.")
        console.endProgress()
        #expect(
            io.error == "\rWriting: 8 pages written\u{1B}[K\rWriting: 9 pages written\u{1B}[K\nDone: remove the tag.\n")
        let quiet = TerminalTestIO()
        TagConsole(io: quiet, settings: TagSettings(reader: nil, wait: .zero, isQuiet: true, isVerbose: false))
            .progress("Writing: 8 pages written")
        #expect(quiet.error.isEmpty)
    }

    @Test(
        "A mistyped command or option suggests the closest",
        arguments: [
            (["wrte"], "Error: Unknown command 'wrte'. Did you mean 'write'?"),
            (["raeders"], "Error: Unknown command 'raeders'. Did you mean 'readers'?"),
            (["frobnicate"], "Error: Unknown command 'frobnicate'\n"),
            (["read", "--wiat", "3"], "Error: Unknown option '--wiat'. Did you mean '--wait'?"),
            (["sim", "serv"], "Error: Unknown command 'serv'. Did you mean 'serve'?"),
            (["password", "sett"], "Error: Unknown command 'sett'. Did you mean 'set'?"),
            (["password", "stauts"], "Error: Unknown command 'stauts'. Did you mean 'status'?"),
            (
                ["password", "set", "--attempt-limt", "3"],
                "Error: Unknown option '--attempt-limt'. Did you mean '--attempt-limit'?"
            ),
            (["password", "auth", "--pak", "8080"], "Error: Unknown option '--pak'. Did you mean '--pack'?"),
            (["password", "set", "--pasword", "DEADBEEF"], "Error: Passwords are not taken from the command line"),
        ])
    func typos(arguments: [String], message: String) async {
        let result = await runInProcess(arguments)
        #expect(result.status == 64)
        #expect(result.error.hasPrefix(message), "\(result.error)")
    }

    @Test("Every command's --help has examples")
    func examples() {
        for path in ManPage.commandPaths(RootCommand.spec) + [[RootCommand.spec]] {
            let help = HelpFormatter(path: path).render()
            #expect(
                help.contains("Examples:\n  ndeftool ") || help.contains("Examples:\n  source "), "\(path.map(\.name))")
        }
        for hidden in [HelpCommand.spec, ManPageCommand.spec] {
            #expect(HelpFormatter(path: [RootCommand.spec, hidden]).render().contains("Examples:"))
        }
    }

    @Test("completions: every command, option and listed value, file completion, valid shell syntax")
    func completions() async throws {
        let bash = await runInProcess(["completions", "bash"])
        #expect(bash.status == 0)
        let script = bash.outputText
        #expect(script.contains("\"ndeftool:write\") cmd=\"ndeftool_write\" ;;"))
        #expect(script.contains("\"ndeftool_sim:serve\") cmd=\"ndeftool_sim_serve\" ;;"))
        #expect(script.contains("--profile) COMPREPLY=($(compgen -W 'combined acr122u pcsc202'"))
        #expect(script.contains("complete -o filenames -F _ndeftool ndeftool"))
        #expect(!script.contains("ndeftool_manpage"))
        // Values of a command's argument and of an option: `completions <TAB>`, `dump --format <TAB>`.
        #expect(script.contains("COMPREPLY=($(compgen -W 'bash zsh fish' -- \"$cur\"))"))
        #expect(
            script.contains(
                "--format) COMPREPLY=($(compgen -W 'flipper raw hex proxmark-json proxmark-bin proxmark-binary' -- \"$cur\")); return ;;"
            ))
        let zsh = await runInProcess(["completions", "zsh"])
        #expect(zsh.outputText.hasPrefix("#compdef ndeftool\n"))
        #expect(zsh.outputText.contains("'write:Write"))
        #expect(zsh.outputText.contains("compadd -- 'bash' 'zsh' 'fish'"))
        let fish = await runInProcess(["completions", "fish"])
        #expect(fish.outputText.contains("complete -c ndeftool -n '__fish_use_subcommand' -a 'write' -d 'Write"))
        #expect(
            fish.outputText.contains(
                "complete -c ndeftool -n '__fish_seen_subcommand_from sim; and __fish_seen_subcommand_from serve' "
                    + "-l profile -x -a 'combined acr122u pcsc202'"))
        #expect(fish.outputText.contains("-n '__fish_seen_subcommand_from completions' -a 'bash zsh fish'"))
        let wrong = await runInProcess(["completions", "tcsh"])
        #expect(wrong.status == 64)
        #expect(wrong.error.contains("expected 'bash', 'zsh' or 'fish'"))
        for (shell, text) in [("bash", script), ("zsh", zsh.outputText), ("fish", fish.outputText)] {
            try await Self.checkSyntax(shell: shell, text)
        }
    }

    /// `bash -n`, `zsh -n`, `fish --no-execute` on the script, when the shell is installed.
    static func checkSyntax(shell: String, _ text: String) async throws {
        guard
            let program = ["/bin/", "/usr/bin/"].map({ $0 + shell }).first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return }
        let folder = try TemporaryDirectory("cli")
        let path = try folder.file("script", text: text)
        let result = try await BinaryRunner.run(
            [shell == "fish" ? "--no-execute" : "-n", path], program: URL(fileURLWithPath: program))
        #expect(result.status == 0, "\(shell): \(result.error)")
    }

    @Test("The man page: roff sections for every command, escaped, accepted by groff when installed")
    func manPage() async throws {
        let result = await runInProcess(["manpage"])
        #expect(result.status == 0)
        let page = result.outputText
        #expect(page.contains("\n.TH NDEFTOOL 1 "))
        #expect(page.contains("\n.SH NAME\nndeftool \\- Encode, decode"))
        for command in ["encode", "decode", "write", "readers", "completions", "sim serve"] {
            #expect(page.contains("\n.SS \"ndeftool \(command)\"\n"), "\(command)")
        }
        #expect(
            page.contains(
                "\n.nf\n.RS 4\nndeftool encode uri https://example.com > message.ndef\nndeftool write \\-\\-reader"))
        #expect(page.contains("\\fB\\-\\-reader <url>\\fR"))
        #expect(!page.contains("\n.SS \"ndeftool manpage\""))
        // ENVIRONMENT, FILES and EXIT STATUS after the commands; the exit table only there.
        let sections = ["COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS", "SEE ALSO"].map {
            page.range(of: "\n.SH \($0)\n")?.lowerBound
        }
        #expect(
            sections.allSatisfy { $0 != nil }
                && sections == sections.sorted { ($0 ?? page.startIndex) < ($1 ?? page.startIndex) })
        #expect(page.contains(".TP\n\\fBNDEFTOOL_READER\\fR\n"))
        #expect(page.contains(".TP\n\\fB$XDG_CONFIG_HOME/ndeftool/last\\-reader\\fR\n"))
        #expect(page.contains(".TP\n\\fB78\\fR\npassword needed or wrong"))
        #expect(!page.contains("Exit status:\n"))
        for line in page.split(separator: "\n") where !line.hasPrefix(".") {
            #expect(!line.hasPrefix("'"))
        }
        #expect(ManPage.escaped(".start \\ -x") == "\\&.start \\e \\-x")
        let groff = URL(fileURLWithPath: "/usr/bin/groff")
        guard FileManager.default.isExecutableFile(atPath: groff.path) else { return }
        let folder = try TemporaryDirectory("cli")
        let path = try folder.file("ndeftool.1", text: page)
        let rendered = try await BinaryRunner.run(["-man", "-Tutf8", "-ww", path], program: groff)
        #expect(rendered.status == 0)
        #expect(rendered.error.isEmpty, "\(rendered.error)")
        #expect(rendered.outputText.contains("ndeftool readers"))
    }
}
