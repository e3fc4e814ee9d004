import TestSupport
import Testing

@testable import NDEFCommandLine

/// The command line never traps, whatever the arguments or input; it exits with a documented status.
@Suite struct RobustnessTests {
    static let words = [
        "encode", "decode", "help", "text", "uri", "mime", "absolute", "external", "aar", "wifi", "smartposter", "raw",
        "message", "--hex", "--json", "--lenient", "--chunk-size", "--output=/nonexistent/out", "--output=/dev/null",
        "--lang", "--utf16", "--file",
        "--tnf", "--type", "--type-hex", "--payload", "--payload-hex", "--payload-file", "--id", "--id-hex",
        "--title", "--action", "--icon", "--size", "--auth", "--encryption", "--mac", "--key-file", "--key-env",
        "--", "-", "-h", "--help", "--version", "--x=1", "--hex=", "0", "1", "5", "7", "-1", "99999999999999999999",
        "a/b", "x:y", "https://example.com", "", "é", "0102", "zz", "save", "open", "en", "Hi@de", "=", "--=",
        "/nonexistent", "/dev/null", "a.png", "HOME", "ff:ff:ff:ff:ff:ff", "inspect", "--format", "--chip",
        "ntag215", "ultralight-c", "hex", "raw", "flipper", "proxmark-binary", "proxmark-json",
    ]

    static let allowed: Set<Int32> = [0, 64, 65, 66, 74]

    /// No word can make a command write a file other than /dev/null.
    @Test func wordsWriteNoFiles() {
        #expect(!Self.words.contains("-o") && !Self.words.contains("--output"))
    }

    @Test func randomCommandLines() async {
        var generator = SeededRandom(seed: 0x6E64_6566)
        for _ in 0..<3000 {
            let count = Int.random(in: 0...9, using: &generator)
            let arguments = (0..<count).map { _ in Self.words.randomElement(using: &generator) ?? "" }
            let input = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let result = await runInProcess(arguments, input: input, variables: ["HOME": "secret"])
            #expect(Self.allowed.contains(result.status), "\(arguments)")
            // Warnings (an old option spelling) may come first; then the error.
            let lines = result.error.split(separator: "\n").drop { $0.hasPrefix("Warning: ") }
            if result.status != 0 { #expect(lines.first?.hasPrefix("Error: ") == true, "\(arguments)") }
        }
    }

    @Test func randomMessages() async {
        var generator = SeededRandom(seed: 0x6465_636F)
        let seeds = [
            hex("d1010d550270726f786d61726b2e636f6d"), hex("91020a487312d102046163010130005a030101612f6230ff"),
            hex("d102235370" + "91010c55046578616d706c652e636f6d" + "1101085402656e48656c6c6f" + "51030161637402"),
            hex("b20302612f6268653600026c6c5600016f"),
        ]
        for _ in 0..<3000 {
            var message = seeds.randomElement(using: &generator) ?? []
            for _ in 0..<Int.random(in: 1...4, using: &generator) where !message.isEmpty {
                let index = Int.random(in: 0..<message.count, using: &generator)
                message[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if Bool.random(using: &generator) {
                message = Array(message.prefix(Int.random(in: 0...message.count, using: &generator)))
            }
            for options in [[], ["--lenient"], ["--json"], ["--lenient", "--json"]] {
                let result = await runInProcess(["decode"] + options, input: message)
                #expect(result.status == 0 || result.status == 65)
            }
        }
    }
}
