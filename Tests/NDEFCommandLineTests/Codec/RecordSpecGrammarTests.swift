import CommandLineKit
import NDEF
import RecordSpecifications
import Testing

@testable import NDEFCommandLine

/// Parses `encode` arguments and returns its values and record specifications.
func encodeSpecs(_ arguments: [String]) throws -> (values: ParsedValues, specs: [RecordSpec]) {
    guard case .run(_, let values) = try CommandParser(root: RootCommand.spec).parse(["encode"] + arguments) else {
        Issue.record("\(arguments) did not parse to a run")
        return (ParsedValues(for: EncodeCommand.spec), [])
    }
    return (values, try RecordSpecGrammar.standard.commandLineSpecs(values.sequence("record")))
}

/// The error of `encode` arguments, from the parser or from the record grammar.
func encodeError(_ arguments: [String]) -> CommandLineError? {
    do {
        _ = try encodeSpecs(arguments)
        Issue.record("\(arguments) parsed without error")
        return nil
    } catch let failure as CommandParser.Failure {
        return CommandLineError(failure.error)
    } catch let error as CommandLineError {
        return error
    } catch {
        Issue.record("unexpected error \(error)")
        return nil
    }
}

@Suite struct RecordSpecGrammarTests {
    @Test func kindsValuesAndOptions() throws {
        let (_, specs) = try encodeSpecs(["text", "hi", "--lang", "de", "--utf16", "uri", "https://x.org"])
        #expect(specs.count == 2)
        #expect(specs[0].kind == "text")
        #expect(specs[0].value("text") == "hi")
        #expect(specs[0].option("lang") == "de")
        #expect(specs[0].flag("utf16"))
        #expect(specs[1].kind == "uri")
        #expect(specs[1].index == 1)
        #expect(specs[1].value("uri") == "https://x.org")
    }

    @Test func requiredValuesTakeAnyWord() throws {
        let (_, specs) = try encodeSpecs(["text", "uri", "uri", "text"])
        #expect(specs.map(\.kind) == ["text", "uri"])
        #expect(specs[0].value("text") == "uri")
        #expect(specs[1].value("uri") == "text")
    }

    @Test func optionalData() throws {
        var specs = try encodeSpecs(["mime", "text/plain", "hello"]).specs
        #expect(specs.first?.value("data") == "hello")
        // mime's data is taken even when it is a kind word: mime needs data.
        specs = try encodeSpecs(["mime", "a/b", "uri"]).specs
        #expect(specs.count == 1)
        #expect(specs.first?.value("data") == "uri")
        specs = try encodeSpecs(["mime", "a/b", "--file", "f", "uri", "x"]).specs
        #expect(specs.map(\.kind) == ["mime", "uri"])
        #expect(specs.first?.value("data") == nil)
        // external's data is optional: a kind word starts the next record.
        specs = try encodeSpecs(["external", "a.com:b", "uri", "x"]).specs
        #expect(specs.map(\.kind) == ["external", "uri"])
        specs = try encodeSpecs(["external", "a.com:b", "payload"]).specs
        #expect(specs.first?.value("data") == "payload")
    }

    @Test func optionFormsInsideRecords() throws {
        let (_, specs) = try encodeSpecs([
            "text", "hi", "--lang=fr", "smartposter", "u", "--title", "a", "--title=b@de",
        ])
        #expect(specs[0].option("lang") == "fr")
        #expect(specs[1].all("title") == ["a", "b@de"])
    }

    @Test func terminatorMakesWords() throws {
        let (_, specs) = try encodeSpecs(["text", "--", "--not-an-option"])
        #expect(specs.first?.value("text") == "--not-an-option")
    }

    @Test func recordsWithoutValues() throws {
        let (_, specs) = try encodeSpecs(["raw", "--tnf", "5", "raw", "--tnf", "1", "--type", "U"])
        #expect(specs.map { $0.option("tnf") } == ["5", "1"])
        #expect(specs[1].option("type") == "U")
    }

    @Test func optionsARecordHasGoToTheCommand() throws {
        var (values, specs) = try encodeSpecs(["mime", "a/b", "x", "--hex"])
        #expect(values.flag("hex"))
        #expect(specs.first?.option("hex") == nil)
        (values, specs) = try encodeSpecs(["mime", "a/b", "--data-hex", "41", "--hex"])
        #expect(values.flag("hex"))
        #expect(specs.first?.option("data-hex") == "41")
        // The old spelling of --data-hex: taken by the record that has no data yet.
        (values, specs) = try encodeSpecs(["mime", "a/b", "--hex", "41", "--hex"])
        #expect(values.flag("hex"))
        #expect(specs.first?.option("data-hex") == "41")
        (values, specs) = try encodeSpecs(["message", "f", "--hex-input"])
        #expect(!values.flag("hex"))
        #expect(specs.first?.flag("hex-input") == true)
        (values, specs) = try encodeSpecs(["message", "f", "--hex", "--hex"])
        #expect(specs.first?.flag("hex-input") == true)
        #expect(values.flag("hex"))
        (values, _) = try encodeSpecs(["uri", "x", "--hex", "-o", "out", "--chunk-size", "4"])
        #expect(values.flag("hex"))
        #expect(values.value("output") == "out")
        #expect(values.value("chunk-size") == "4")
    }

    @Test func errors() {
        #expect(encodeError(["uri"])?.message == "Missing expected argument '<uri>' for record 0 (uri)")
        #expect(
            encodeError(["text", "--lang", "en", "hi"])?.message
                == "Missing expected argument '<text>' for record 0 (text) before '--lang'"
        )
        #expect(encodeError(["foo"])?.message == "Unknown record kind 'foo'")
        #expect(
            encodeError(["text", "a", "b"])?.message
                == "Unknown record kind 'b' after record 0 (text), which takes only <text> (quote a value that contains spaces)"
        )
        #expect(encodeError(["uri", "x", "--lang", "en"])?.message == "Unknown option '--lang'")
        #expect(
            encodeError(["text", "x", "--lnag", "en"])?.message == "Unknown option '--lnag'. Did you mean '--lang'?")
        #expect(
            encodeError(["text", "a", "--lang", "en", "--lang", "de"])?.message
                == "The option '--lang <code>' can be given only once for record 0 (text)"
        )
        #expect(encodeError(["message"])?.message == "Missing expected argument '<file>' for record 0 (message)")
    }

    @Test func alternatives() {
        #expect(
            encodeError(["mime", "a/b", "x", "--file", "f"])?.message
                == "record 0 (mime) takes only one of '<data>' and '--file <path>'"
        )
        #expect(
            encodeError(["mime", "a/b"])?.message
                == "record 0 (mime) needs one of '<data>', '--file <path>' or '--data-hex <hex>'"
        )
        #expect(
            encodeError(["raw", "--type", "U"])?.message == "Missing expected argument '--tnf <n>' for record 0 (raw)")
        #expect(
            encodeError(["uri", "u", "--id", "a", "--id-hex", "01"])?.message
                == "record 0 (uri) takes only one of '--id <id>' and '--id-hex <hex>'"
        )
        #expect(
            encodeError(["wifi", "n", "--key-file", "k", "--key-env", "K"])?.message
                == "record 0 (wifi) takes only one of '--key-file <path>' and '--key-env <var>'"
        )
        #expect(encodeError(["smartposter", "u", "--action", "run"])?.status == .usage)
    }

    @Test func synopses() {
        #expect(RecordKind.mime.synopsis == "mime <type> (<data> | --file <path> | --data-hex <hex>)")
        #expect(RecordKind.external.synopsis == "external <domain:type> [<data> | --file <path> | --data-hex <hex>]")
        #expect(
            RecordKind.raw.synopsis
                == "raw --tnf <n> [--type <type> | --type-hex <hex>] [--payload <text> | --payload-hex <hex> | --payload-file <path>] [--allow-invalid-type]"
        )
        #expect(RecordKind.text.synopsis == "text <text> [--lang <code>] [--utf16]")
        #expect(RecordKind.message.synopsis == "message <file> [--hex-input]")
    }

    @Test(arguments: [
        ("Hello@en", "Hello", "en"),
        ("Hallo@de-AT", "Hallo", "de-AT"),
        ("me@home@fr", "me@home", "fr"),
        ("mail a@b.c", "mail a@b.c", "en"),
        ("trailing@", "trailing@", "en"),
        ("plain", "plain", "en"),
    ])
    func titles(_ title: String, text: String, language: String) {
        let split = RecordKind.splitTitle(title)
        #expect(split.text == text)
        #expect(split.language == language)
    }

    @Test func iconMediaTypes() throws {
        #expect(try RecordKind.iconMediaType("logo.PNG") == "image/png")
        #expect(try RecordKind.iconMediaType("dir/a.b.jpeg") == "image/jpeg")
        #expect(try RecordKind.iconMediaType("x.jpg") == "image/jpeg")
        #expect(try RecordKind.iconMediaType("x.gif") == "image/gif")
        #expect(try RecordKind.iconMediaType("x.svg") == "image/svg+xml")
        for path in ["noextension", "x.bmp", "dir.png/x", "-"] {
            #expect(throws: RecordSpecError.self) { try RecordKind.iconMediaType(path) }
        }
    }

    @Test func wifiNamesAreTheViewsNames() {
        for name in RecordKind.wifiAuthentications {
            #expect(WiFiAuthenticationType(name: name)?.name == name)
        }
        for name in RecordKind.wifiEncryptions {
            #expect(WiFiEncryptionType(name: name)?.name == name)
        }
        let knownAuthentications: [WiFiAuthenticationType] = [
            .open, .wpaPersonal, .shared, .wpaEnterprise, .wpa2Enterprise, .wpa2Personal, .wpaWPA2Personal,
            .wpa3Personal, .wpa2WPA3Personal,
        ]
        #expect(Set(knownAuthentications.compactMap(\.name)) == Set(RecordKind.wifiAuthentications))
    }

    @Test func everyKindTakesAnID() throws {
        for kind in RecordKind.standard {
            #expect(kind.option("id") != nil)
            #expect(kind.option("id-hex") != nil)
        }
    }
}
