import Foundation
import TestSupport
import Testing

@testable import NDEFCommandLine

/// Options renamed so that each name means one thing (`--json` writes JSON, `--hex` prints hex)
/// keep their old spellings for scripts written before: the old spelling gives the same result,
/// with one warning on standard error; help, completions and the manual page show only the new.
@Suite struct OldSpellingTests {
    static let hexText = "d1010c55046578616d706c652e636f6d"
    static let json = #"{"records":[{"tnf":1,"type":"U","value":{"uri":"https://example.com"}}]}"#

    @Test("decode --hex is --hex-input; encode --json FILE is --from-json FILE")
    func commandOptions() async {
        let new = await runInProcess(["decode", "--hex-input"], input: Array(Self.hexText.utf8))
        let old = await runInProcess(["decode", "--hex"], input: Array(Self.hexText.utf8))
        #expect(new.status == 0 && new.error.isEmpty)
        #expect(old.status == 0 && old.outputText == new.outputText)
        #expect(
            old.error
                == "Warning: '--hex' is an old spelling of '--hex-input': it works for now, but use '--hex-input'\n")

        let encoded = await runInProcess(["encode", "--from-json", "-", "--hex"], input: Array(Self.json.utf8))
        let oldEncoded = await runInProcess(["encode", "--json", "--hex"], input: Array(Self.json.utf8))
        #expect(encoded.status == 0 && encoded.error.isEmpty && encoded.outputText == Self.hexText + "\n")
        #expect(oldEncoded.status == 0 && oldEncoded.outputText == encoded.outputText)
        #expect(oldEncoded.error.hasPrefix("Warning: 'encode --json FILE' is now 'encode --from-json FILE'"))
        // -q keeps the warning quiet, as every warning.
        let quiet = await runInProcess(["decode", "-q", "--hex"], input: Array(Self.hexText.utf8))
        #expect(quiet.error.isEmpty)
    }

    @Test("the records' --hex: --data-hex of mime and external, --hex-input of message")
    func recordOptions() async {
        let new = await runInProcess(["encode", "--hex", "mime", "a/b", "--data-hex", "0102"])
        let old = await runInProcess(["encode", "--hex", "mime", "a/b", "--hex", "0102"])
        #expect(new.status == 0 && new.outputText == "d2030261" + "2f620102\n")
        #expect(old.outputText == new.outputText)
        #expect(old.error.contains("'--hex' is an old spelling of '--data-hex'"))
        // With its data given, a record leaves --hex to encode, which prints hex: no warning.
        let output = await runInProcess(["encode", "mime", "a/b", "x", "--hex"])
        #expect(output.status == 0 && output.error.isEmpty && output.outputText == "d2030161" + "2f6278\n")
    }

    @Test("help, completions and the manual page name only the new spellings")
    func documentationShowsNewNames() async {
        let encodeHelp = await runInProcess(["encode", "--help"])
        #expect(encodeHelp.outputText.contains("--from-json <file>"))
        #expect(!encodeHelp.outputText.contains("  --json"))
        #expect(encodeHelp.outputText.contains("--data-hex <hex>"))
        let decodeHelp = await runInProcess(["decode", "--help"])
        #expect(decodeHelp.outputText.contains("  --hex-input "))
        #expect(!decodeHelp.outputText.contains("  --hex "))
        let bash = await runInProcess(["completions", "bash"])
        #expect(bash.outputText.contains("--from-json"))
        #expect(!bash.outputText.contains("\"ndeftool_encode\") opts=\"--output -o --hex --chunk-size --json"))
    }
}

/// Python ndeftool's spellings that do not clash with ndeftool's own work as they are, without a
/// warning: `txt` and `smp` for `text` and `smartposter`, `-l` and `--language` for `--lang`.
@Suite struct PythonSpellingTests {
    @Test("txt, smp, -l and --language give the same message as text, smartposter and --lang")
    func pythonSpellings() async {
        let ours = await runInProcess(["encode", "--hex", "text", "Hallo", "--lang", "de"])
        #expect(ours.status == 0)
        for words in [
            ["txt", "Hallo", "-l", "de"], ["text", "Hallo", "--language", "de"], ["txt", "Hallo", "--lang=de"],
        ] {
            let theirs = await runInProcess(["encode", "--hex"] + words)
            #expect(theirs.status == 0 && theirs.error.isEmpty, "\(words)")
            #expect(theirs.outputText == ours.outputText, "\(words)")
        }
        let poster = await runInProcess(["encode", "--hex", "smartposter", "https://example.com", "--title", "Ex"])
        let smp = await runInProcess(["encode", "--hex", "smp", "https://example.com", "--title", "Ex"])
        #expect(smp.status == 0 && smp.outputText == poster.outputText)
        // -l is the text record's: on a record without it, it is an unknown option.
        let unknown = await runInProcess(["encode", "uri", "https://example.com", "-l", "de"])
        #expect(unknown.status == 64)
        // The command's own -o is never taken by a record.
        let output = await runInProcess(["encode", "txt", "hi", "-o", "-"])
        #expect(output.status == 0 && output.output.first == 0xD1)
    }
}
