import CommandLineKit
import Foundation
import TestSupport
import Testing

@testable import NDEFCommandLine

/// Completion of record kinds and their options after `encode` and `write`, of `--reader`
/// values, and "Did you mean ...?" for a mistyped record kind or record option.
@Suite(.timeLimit(.minutes(5))) struct CompletionValueTests {
    /// What the generated bash function offers for `line` (the cursor at its end), as bash
    /// would call it: `COMP_WORDS` split at spaces and at `:` (COMP_WORDBREAKS).
    static func bashCompletions(_ line: String, in directory: TemporaryDirectory) async throws -> [String]? {
        let bash = URL(fileURLWithPath: "/usr/bin/bash")
        guard FileManager.default.isExecutableFile(atPath: bash.path) else { return nil }
        let script = CompletionScript(root: RootCommand.spec).script(for: .bash)
        let scriptPath = try directory.file("ndeftool.bash", text: script)
        var words: [String] = []
        for word in line.split(separator: " ", omittingEmptySubsequences: false) {
            let parts = word.split(separator: ":", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                if index > 0 { words.append(":") }
                if !part.isEmpty || parts.count == 1 { words.append(String(part)) }
            }
        }
        let quotedWords = words.map(CompletionScript.quoted).joined(separator: " ")
        let driver = """
            source \(CompletionScript.quoted(scriptPath))
            COMP_WORDS=(\(quotedWords)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE=\(CompletionScript.quoted(line)); COMP_POINT=${#COMP_LINE}
            COMPREPLY=(); _ndeftool; printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await BinaryRunner.run(["-c", driver], directory: directory.url, program: bash)
        #expect(result.status == 0, "\(result.error)")
        return result.outputText.split(separator: "\n").map(String.init)
    }

    @Test("bash: record kinds, each kind's options, listed and file values, the value after a kind")
    func bashRecords() async throws {
        let folder = try TemporaryDirectory("cli")
        _ = try folder.file("message.ndef", [0xD0, 0x00, 0x00])
        guard let kinds = try await Self.bashCompletions("ndeftool encode te", in: folder) else { return }
        #expect(kinds == ["text"])
        #expect(try await Self.bashCompletions("ndeftool write smart", in: folder) == ["smartposter"])
        #expect(try await Self.bashCompletions("ndeftool encode text hi --l", in: folder) == ["--lang"])
        let uriOptions = try #require(try await Self.bashCompletions("ndeftool encode uri x --", in: folder))
        #expect(uriOptions.contains("--id-hex"))
        #expect(uriOptions.contains("--output"))
        #expect(!uriOptions.contains("--lang"))
        #expect(
            try await Self.bashCompletions("ndeftool encode smartposter https://x --action o", in: folder) == ["open"])
        #expect(
            try await Self.bashCompletions("ndeftool encode wifi Net --encryption a", in: folder) == [
                "aes", "aes-tkip",
            ])
        #expect(try await Self.bashCompletions("ndeftool encode message mess", in: folder) == ["message.ndef"])
        // The value right after a kind word is the record's: no kind is offered there.
        #expect(try await Self.bashCompletions("ndeftool encode text ", in: folder) == [])
        #expect(try await Self.bashCompletions("ndeftool encode text hi u", in: folder) == ["uri"])
    }

    @Test("bash: --reader offers the backends and the simulated chips, colons and all")
    func bashReaders() async throws {
        let folder = try TemporaryDirectory("cli")
        guard let all = try await Self.bashCompletions("ndeftool write --reader ", in: folder) else { return }
        #expect(Array(all.prefix(3)) == ["sim:", "pcsc:", "libnfc:"])
        #expect(all.contains("sim:ntag215"))
        #expect(all.contains("sim:type4"))
        // bash keeps "sim:" (it splits the word at the colon): only the rest is offered.
        #expect(
            try await Self.bashCompletions("ndeftool read --reader sim:ntag21", in: folder)
                == ["ntag210", "ntag212", "ntag213", "ntag215", "ntag216"])
        #expect(try await Self.bashCompletions("ndeftool info --reader pc", in: folder) == ["pcsc:"])
        #expect(try await Self.bashCompletions("ndeftool readers --identify li", in: folder) == ["libnfc:"])
        #expect(try await Self.bashCompletions("ndeftool sim serve sim:ty", in: folder) == ["type4"])
        #expect(try await Self.bashCompletions("ndeftool wr", in: folder) == ["write"])
    }

    @Test("zsh and fish scripts: record kinds with descriptions, kind options, reader values")
    func zshAndFish() {
        let zsh = CompletionScript(root: RootCommand.spec).script(for: .zsh)
        #expect(zsh.contains("local -a kinds=('text:A text record (NFC Forum Text RTD).' "))
        #expect(zsh.contains("_describe -t kinds 'record kind' kinds"))
        #expect(zsh.contains("                    text) compadd -- --lang --utf16 --id --id-hex ;;\n"))
        #expect(zsh.contains("--reader) compadd -S '' -- 'sim:' 'pcsc:' 'libnfc:'; compadd -- 'sim:ntag210' "))
        #expect(zsh.contains("                message) _files; return ;;\n"))
        let fish = CompletionScript(root: RootCommand.spec).script(for: .fish)
        #expect(fish.contains("complete -c ndeftool -n '__fish_seen_subcommand_from encode' -a 'text' -d 'A text"))
        #expect(
            fish.contains(
                "complete -c ndeftool -n '__fish_seen_subcommand_from write; and __fish_seen_subcommand_from text' "
                    + "-l lang -x -d 'The language of the text, an IETF language tag.'"))
        #expect(fish.contains("-l reader -x -a 'sim: pcsc: libnfc: sim:ntag210 "))
    }

    @Test("Did you mean ...? for a mistyped record kind, in encode and write, first or later")
    func kindSuggestions() async {
        let first = await runInProcess(["encode", "txet", "hi"])
        #expect(first.status == 64)
        #expect(first.error.hasPrefix("Error: Unknown record kind 'txet'. Did you mean 'text'?\n"))
        let later = await runInProcess(["write", "uri", "https://example.com", "smartpostr", "x"])
        #expect(later.status == 64)
        #expect(later.error.contains("Did you mean 'smartposter'?"))
        let far = await runInProcess(["encode", "picture", "x"])
        #expect(far.status == 64)
        #expect(!far.error.contains("Did you mean"))
    }

    @Test("Did you mean ...? for a mistyped record option")
    func optionSuggestions() async {
        let lang = await runInProcess(["encode", "text", "hi", "--lnag", "en"])
        #expect(lang.status == 64)
        #expect(lang.error.hasPrefix("Error: Unknown option '--lnag'. Did you mean '--lang'?\n"))
        let title = await runInProcess(["write", "smartposter", "https://example.com", "--titel", "Hi"])
        #expect(title.error.hasPrefix("Error: Unknown option '--titel'. Did you mean '--title'?\n"))
        #expect(closestName(to: "wrtie", among: ["write", "read"]) == "write")
        #expect(closestName(to: "zz", among: ["write", "read"]) == nil)
    }
}
