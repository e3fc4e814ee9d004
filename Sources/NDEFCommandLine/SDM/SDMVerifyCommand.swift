import CommandLineKit
import HexText
import NDEF
import NTAG424
import ProvisioningDatabase

/// `ndeftool sdm verify URL`: the server's check of a secure unique NFC message (SUN) from an
/// NTAG 424 DNA (NT4H2421Gx 9.3; AN12196 4), with ``NTAG424/NTAG424SUNVerifier``.
enum SDMVerifyCommand {
    static let metaReadKeyFile = OptionSpec.option(
        "meta-read-key-file", value: "file",
        help: "The SDMMetaRead key, which decrypts PICCData: 32 hex characters (a final line break allowed) or 16 "
            + "raw bytes. Not needed for URLs whose UID and counter are in plain.")
    static let fileReadKeyFile = OptionSpec.option(
        "file-read-key-file", value: "file", help: "The SDMFileRead key, which checks the SDMMAC (same forms).")
    static let masterKeyFile = OptionSpec.option(
        "master-key-file", value: "file",
        help: "The master key of tags set up with per-tag keys ('batch --sdm-master-key-file', 'sdm setup "
            + "--master-key-file'): each URL's keys are derived from it and the UID (AN10922). In place of the "
            + "two key files.")
    static let piccParameter = OptionSpec.option(
        "picc-param", value: "name", default: "picc_data", help: "The query parameter holding PICCData.")
    static let macParameter = OptionSpec.option(
        "mac-param", value: "name", default: "cmac", help: "The query parameter holding the SDMMAC.")
    static let uidParameter = OptionSpec.option(
        "uid-param", value: "name", default: "uid", help: "The query parameter of a UID mirrored in plain.")
    static let counterParameter = OptionSpec.option(
        "counter-param", value: "name", default: "ctr",
        help: "The query parameter of a read counter mirrored in plain (6 hex digits).")
    static let encParameter = OptionSpec.option(
        "enc-param", value: "name", default: "enc",
        help: "The query parameter of encrypted file data (SDMENCFileData), decrypted once the SDMMAC verifies.")
    static let lastCounter = OptionSpec.option(
        "last-counter", value: "n",
        help: "The highest counter already seen for this tag: a URL whose counter is not above it is a replay, "
            + "not valid.")
    static let tagTamper = OptionSpec.flag(
        "tag-tamper",
        help: "The file data starts with an NTAG 424 DNA TT's TagTamper status ('sdm setup --tag-tamper'): show "
            + "it (CC not tampered, OC opened and closed now, OO open, II not enabled).")
    static let database = OptionSpec.option(
        "database", value: "url",
        help: "Keep each tag's last accepted counter in this PostgreSQL database, which every sdm verify naming it "
            + "shares: a URL whose counter is not above it is a replay. A libpq URI (postgresql://user@host/db) or "
            + "keyword string, never with a password: use ~/.pgpass or PGPASSWORD.")
    static let keySet = OptionSpec.option(
        "key-set", value: "name",
        help: "With --database, the name the counters are kept under (default: master- or file-read- and the "
            + "key's check value).")
    static let acceptLog = OptionSpec.flag(
        "accept-log",
        help: "With --database, also record every accepted URL (key set, UID, counter, time) in the table "
            + "ndeftool_sun_accepts.")
    static let json = OptionSpec.flag("json", help: "Print one JSON object per URL, one per line.")

    /// The command.
    static let spec = CommandSpec(
        name: "verify",
        abstract: "Check an NTAG 424 DNA URL: decrypt its UID and counter, verify its SDMMAC.",
        discussion: """
            Decrypts PICCData with the SDMMetaRead key (or takes the UID and counter the URL \
            carries in plain), derives the session MAC key from the SDMFileRead key, UID \
            and counter, and checks the SDMMAC over the MAC input the URL carries: empty, \
            or the text from a parameter's value up to the MAC. Prints the UID (upper-case \
            hex), the counter and whether the URL is valid. Keys come from files only, \
            never from the command line.

            With --master-key-file, the URLs of tags set up with their own keys ('batch \
            --sdm-master-key-file', 'sdm setup --master-key-file') are checked with the keys \
            derived for each UID (NXP AN10922): PICCData is decrypted with the SDMMetaRead \
            key the tags share, then the SDMMAC with that tag's own SDMFileRead key.

            A URL with encrypted file data (SDMENCFileData, the enc parameter or \
            --enc-param) is decrypted once its SDMMAC verifies, and the data is printed (as \
            text when printable, else hex; fileDataHex and fileData in JSON).

            Tags in AES mode and in LRP mode (NXP AN12304) are both checked: LRP PICCData \
            is 48 hex characters (PICCRand and the ciphertext), AES PICCData 32; a URL \
            with its UID and counter in plain is tried in both. JSON names the mode.

            With - in place of the URL, reads URLs from standard input, one per line, and \
            answers each line as soon as it is read (a server can keep one process open).

            With --database, each tag's last accepted counter is kept in PostgreSQL, shared \
            by every sdm verify process on every machine that names the database: a URL \
            whose SDMMAC verifies is valid only when its counter is above the tag's last \
            accepted one, which it then becomes, in one atomic statement; any other is a \
            replay. A URL that does not verify never reaches the database. Counters are kept \
            by tag (UID) and key set: --key-set, by default master- or file-read- and the \
            check value of the key (the first 3 bytes of AES-128 of a zero block, never the \
            key). A lost connection (a server restart) is made again and the same request \
            sent again, up to 10 times in all; a URL the database could not decide is not \
            valid. The password comes from ~/.pgpass, $PGPASSFILE or $PGPASSWORD. \
            --database does not go with --last-counter.

            Exit status: 0 when every URL is valid; 83 when one is not (a changed URL, \
            another tag's or a wrong key, a replayed counter, or not an SDM URL); 69 when \
            the database of --database could not be reached for one; 64 for a usage error; \
            66 for a key file that cannot be read; 65 for one that holds no key.

            Examples:
              ndeftool sdm verify --picc-param e --mac-param c \\
                  --meta-read-key-file sdm-zero-key.hex --file-read-key-file sdm-zero-key.hex \\
                  'https://x.test/?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086'
              ndeftool sdm verify --json --last-counter 60 --meta-read-key-file sdm-zero-key.hex \\
                  --file-read-key-file sdm-zero-key.hex \\
                  'https://x.test/?picc_data=EF963FF7828658A599F3041510671E88&cmac=94EED9EE65337086'
              ndeftool sdm verify --master-key-file sdm-master.hex \\
                  'https://x.example/t/1?picc_data=9384F2ED67106EBE24E72048D25353A3&cmac=CAC13B00243EA21A'
              ndeftool sdm verify --meta-read-key-file sdm-zero-key.hex --file-read-key-file sdm-zero-key.hex \\
                  'https://sdm.nfcdeveloper.com/tagpt?picc_data=FDD387BF32A33A7C40CF259675B3A1E2&enc=EA050C282D8E9043E28F7A171464D697&cmac=758110182134ECE9'
              ndeftool sdm verify --meta-read-key-file sdm-zero-key.hex --file-read-key-file sdm-zero-key.hex \\
                  'https://sdm.nfcdeveloper.com/tag?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9'
              ndeftool sdm verify --database postgresql://db.example/provisioning --master-key-file sdm-master.hex \\
                  'https://x.example/t/1?picc_data=9384F2ED67106EBE24E72048D25353A3&cmac=CAC13B00243EA21A'
            """,
        arguments: [ArgumentSpec("url", help: "The URL a phone read, or - to read URLs from standard input.")],
        options: [
            metaReadKeyFile, fileReadKeyFile, masterKeyFile, SDMSetupCommand.metaReadKey, SDMSetupCommand.fileReadKey,
            piccParameter, macParameter, uidParameter, counterParameter, encParameter, lastCounter, database,
            keySet, acceptLog, tagTamper, json,
        ],
        run: run
    )

    /// How URLs are checked: with the two key files, or with keys derived from a master key.
    enum Verifier: Sendable {
        case keys(NTAG424SUNVerifier)
        case master(NTAG424MasterKey)

        func verify(_ url: NTAG424SUNURL) -> NTAG424SUNResult {
            switch self {
            case .keys(let verifier): url.verify(with: verifier)
            case .master(let master): master.verify(url)
            }
        }
    }

    static func verifier(_ values: ParsedValues) throws(CommandLineError) -> Verifier {
        if let path = values.value(masterKeyFile.long) {
            for option in [metaReadKeyFile, fileReadKeyFile] where values.isGiven(option.long) {
                throw .usage("--\(option.long) and --master-key-file: give the key files or the master key")
            }
            let key = try SDMKeyFile.read(path, option: masterKeyFile)
            let metaRead = try SDMSetupCommand.Request.number(values, SDMSetupCommand.metaReadKey, in: 1...4)
            let fileRead = try SDMSetupCommand.Request.number(values, SDMSetupCommand.fileReadKey, in: 1...4)
            do {
                return .master(try NTAG424MasterKey(key, metaReadKey: metaRead, fileReadKey: fileRead))
            } catch {
                throw .usage(error.reason)
            }
        }
        for option in [SDMSetupCommand.metaReadKey, SDMSetupCommand.fileReadKey] where values.isGiven(option.long) {
            throw .usage("--\(option.long) goes with --master-key-file (with key files, the files are the keys)")
        }
        guard let fileKeyPath = values.value(fileReadKeyFile.long) else {
            throw .usage("--file-read-key-file (or --master-key-file) is needed: the SDMFileRead key checks the SDMMAC")
        }
        let fileKey = try SDMKeyFile.read(fileKeyPath, option: fileReadKeyFile)
        let metaKey = try values.value(metaReadKeyFile.long).map { path throws(CommandLineError) in
            try SDMKeyFile.read(path, option: metaReadKeyFile)
        }
        do {
            return .keys(try NTAG424SUNVerifier(metaReadKey: metaKey, fileReadKey: fileKey))
        } catch {
            throw CommandLineError(.dataError, error.reason)
        }
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let verifier = try Self.verifier(values)
        var last: Int?
        if let text = values.value(lastCounter.long) {
            guard let number = Int(text), (0...0xFF_FFFF).contains(number) else {
                throw .invalidValue(text, for: lastCounter, reason: "a counter is 0 to 16777215")
            }
            last = number
        }
        let counters = try SDMCounterCheck.make(values, verifier: verifier, io: invocation.io)
        var parameters = NTAG424SUNURL.Parameters(
            piccData: values.value(piccParameter.long) ?? "picc_data", mac: values.value(macParameter.long) ?? "cmac",
            uid: values.value(uidParameter.long) ?? "uid", counter: values.value(counterParameter.long) ?? "ctr")
        parameters.encryptedFileData = values.value(encParameter.long) ?? "enc"
        let readsTagTamper = values.flag(tagTamper.long)
        let asJSON = values.flag(json.long)
        let messages = CommandMessages(invocation)
        var status = ExitStatus.success
        var lineNumber = 0
        /// The answer to `line`; `status` follows it (a store that could not decide outweighs a
        /// URL that is not valid).
        func answer(_ line: SDMInputLines.Line) async throws(CommandLineError) -> String {
            var result: SDMVerification
            switch line {
            case .url(let url):
                lineNumber += 1
                result = SDMVerification(url: url, parameters: parameters, verifier: verifier, lastCounter: last)
                // A URL without the TagTamper status it should carry is not valid, and not counted.
                if readsTagTamper { result.readTagTamper() }
                if let counters, case .failed(let error) = await counters.check(&result, line: lineNumber) {
                    messages.warn("Warning: the counter store did not decide, the URL was not accepted: \(error)")
                    let failure = BatchDatabaseOptions.error(error).status
                    if status == .success || status == .notVerified { status = failure }
                }
            case .tooLong(let start):
                result = SDMVerification(
                    refusing: start, problem: "a line of more than \(SDMInputLines.longestLine) bytes")
            }
            if !result.isValid && status == .success { status = .notVerified }
            return (asJSON ? try result.jsonLine() : result.text) + "\n"
        }
        do {
            if values.argument("url") == "-" {
                try await answerLines(invocation.io, answer)
            } else {
                try invocation.io.writeOutput(try await answer(.url(values.argument("url") ?? "")))
            }
        } catch {
            await counters?.store.close()
            throw error
        }
        await counters?.store.close()
        return status
    }

    /// Answers the URLs of standard input, one line each, as they arrive.
    private static func answerLines(
        _ io: any CommandIO, _ answer: (SDMInputLines.Line) async throws(CommandLineError) -> String
    ) async throws(CommandLineError) {
        var lines = SDMInputLines()
        var reachedEnd = false
        while !reachedEnd {
            // Lines are answered as they arrive: a server may keep one process open.
            let chunk = await io.inputChunk()
            reachedEnd = chunk == nil
            // The answers to the lines of this chunk, written at once: one write per chunk read,
            // not per line (a line is still answered before the next chunk is waited for).
            var answers = ""
            for line in lines.lines(after: chunk) { answers += try await answer(line) }
            if !answers.isEmpty { try io.writeOutput(answers) }
        }
    }
}

/// A key in a file, as `sdm` commands take them: 32 hex characters (a final line break
/// allowed) or 16 raw bytes.
enum SDMKeyFile {
    static func read(_ path: String, option: OptionSpec) throws(CommandLineError) -> [UInt8] {
        let bytes = try FileAccess.readFile(path: path, limit: 4096)
        if bytes.count == 16 { return bytes }
        var text = bytes[...]
        while let last = text.last, last == 0x0A || last == 0x0D { text = text.dropLast() }
        let digits = String(decoding: text, as: UTF8.self)
        guard digits.utf8.count == 32, let key = try? Hex.decode(digits), key.count == 16 else {
            throw CommandLineError(
                .dataError,
                "--\(option.long) \(InputReader.name(of: path)): a key file holds 32 hex characters (or 16 raw bytes)")
        }
        return key
    }
}
