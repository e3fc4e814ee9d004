import CommandLineKit
import HexText
import NDEF
import NTAG424

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

            Exit status: 0 when every URL is valid; 83 when one is not (a changed URL, \
            another tag's or a wrong key, a replayed counter, or not an SDM URL); 64 for a \
            usage error; 66 for a key file that cannot be read; 65 for one that holds no key.

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
            """,
        arguments: [ArgumentSpec("url", help: "The URL a phone read, or - to read URLs from standard input.")],
        options: [
            metaReadKeyFile, fileReadKeyFile, masterKeyFile, SDMSetupCommand.metaReadKey, SDMSetupCommand.fileReadKey,
            piccParameter, macParameter, uidParameter, counterParameter, encParameter, lastCounter,
            tagTamper, json,
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

    /// The longest line read from standard input: more than an NTAG 424 DNA's 256-byte file holds.
    static let longestLine = 8192

    @Sendable static func run(_ invocation: CommandInvocation) throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let verifier = try Self.verifier(values)
        var last: Int?
        if let text = values.value(lastCounter.long) {
            guard let number = Int(text), (0...0xFF_FFFF).contains(number) else {
                throw .invalidValue(text, for: lastCounter, reason: "a counter is 0 to 16777215")
            }
            last = number
        }
        var parameters = NTAG424SUNURL.Parameters(
            piccData: values.value(piccParameter.long) ?? "picc_data", mac: values.value(macParameter.long) ?? "cmac",
            uid: values.value(uidParameter.long) ?? "uid", counter: values.value(counterParameter.long) ?? "ctr")
        parameters.encryptedFileData = values.value(encParameter.long) ?? "enc"
        let readsTagTamper = values.flag(tagTamper.long)
        let check = { (url: String) -> SDMVerification in
            var result = SDMVerification(url: url, parameters: parameters, verifier: verifier, lastCounter: last)
            if readsTagTamper { result.readTagTamper() }
            return result
        }
        let asJSON = values.flag(json.long)
        guard values.argument("url") == "-" else {
            let result = check(values.argument("url") ?? "")
            try invocation.io.writeOutput((asJSON ? try result.jsonLine() : result.text) + "\n")
            return result.isValid ? .success : .notVerified
        }
        var allValid = true
        var pending: [UInt8] = []
        var reachedEnd = false
        var skipping = false
        while !reachedEnd {
            // Lines are answered as they arrive: a server may keep one process open.
            if let chunk = invocation.io.readInputChunk() {
                pending += chunk
            } else {
                reachedEnd = true
                if !pending.isEmpty { pending.append(0x0A) }
            }
            // The answers to the lines of this chunk, written at once: one write per chunk read,
            // not per line (a line is still answered before the next chunk is waited for).
            var answers = ""
            var start = 0
            if skipping, let end = pending.firstIndex(of: 0x0A) {
                skipping = false
                start = end + 1
            } else if skipping {
                pending.removeAll()
                continue
            }
            while let end = pending[start...].firstIndex(of: 0x0A) {
                let bytes = pending[start..<end]
                start = end + 1
                guard bytes.count <= Self.longestLine else {
                    allValid = false
                    let refused = SDMVerification(
                        refusing: String(decoding: bytes.prefix(64), as: UTF8.self) + "…",
                        problem: "a line of more than \(Self.longestLine) bytes")
                    answers += (asJSON ? try refused.jsonLine() : refused.text) + "\n"
                    continue
                }
                // Spaces and tabs around the URL, and a CR before the LF, are not part of it.
                var trimmed = bytes.drop { $0 == 0x20 || $0 == 0x09 }
                while let last = trimmed.last, last == 0x20 || last == 0x09 || last == 0x0D {
                    trimmed = trimmed.dropLast()
                }
                if trimmed.isEmpty { continue }
                let url = String(decoding: trimmed, as: UTF8.self)
                let result = check(url)
                allValid = allValid && result.isValid
                answers += (asJSON ? try result.jsonLine() : result.text) + "\n"
            }
            pending.removeFirst(start)
            if pending.count > Self.longestLine {
                // A line longer than any URL a tag holds: answered once, not kept in memory; the
                // rest of it, up to its line break, is dropped.
                if !skipping {
                    allValid = false
                    let refused = SDMVerification(
                        refusing: String(decoding: pending.prefix(64), as: UTF8.self) + "…",
                        problem: "a line of more than \(Self.longestLine) bytes")
                    answers += (asJSON ? try refused.jsonLine() : refused.text) + "\n"
                }
                skipping = true
                pending.removeAll()
            }
            if !answers.isEmpty { try invocation.io.writeOutput(answers) }
        }
        return allValid ? .success : .notVerified
    }
}

/// One URL checked, as `sdm verify` prints it.
struct SDMVerification: Encodable {
    var url: String
    var uid: String?
    var counter: Int?
    var valid: Bool
    var macInput: String?
    var problem: String?
    /// The decrypted file data (SDMENCFileData), when the URL carries it and is valid.
    var fileData: [UInt8]?
    /// The tag's cipher (AES or LRP), once the SDMMAC verified.
    var mode: NTAG424CryptoMode?
    /// The TagTamper status in the file data's first two bytes (`--tag-tamper`).
    var tagTamper: NTAG424TagTamperStatus?

    /// Takes the TagTamper status from the first two bytes of the file data; a valid URL whose
    /// file data holds none is not valid (it is not a TagTamper tag's).
    mutating func readTagTamper() {
        guard valid else { return }
        guard let fileData, let status = NTAG424TagTamperStatus(fileData.prefix(2)) else {
            valid = false
            problem = "--tag-tamper: the file data does not start with a TagTamper status (CC, OC, OO or II)"
            return
        }
        tagTamper = status
    }

    var isValid: Bool { valid }

    /// A line refused before it is read as a URL.
    init(refusing url: String, problem: String) {
        self.url = url
        self.valid = false
        self.problem = problem
    }

    private enum CodingKeys: String, CodingKey {
        case url, uid, counter, valid, mode, macInput, problem, fileDataHex, fileData, tagTamper
    }

    /// Every key, null where it does not apply: `{"url", "uid", "counter", "valid", "mode",
    /// "macInput", "problem", "fileDataHex", "fileData", "tagTamper"}`
    /// (Fixtures/schemas/sdm-verify.schema.json);
    /// `fileData` is the text when every byte is printable ASCII.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(url, forKey: .url)
        try container.encode(uid, forKey: .uid)
        try container.encode(counter, forKey: .counter)
        try container.encode(valid, forKey: .valid)
        try container.encode(mode?.rawValue, forKey: .mode)
        try container.encode(macInput, forKey: .macInput)
        try container.encode(problem, forKey: .problem)
        try container.encode(fileData.map { Hex.encode($0, uppercase: true) }, forKey: .fileDataHex)
        try container.encode(printableFileData, forKey: .fileData)
        let tamper = tagTamper.map { ["permanent": $0.permanent.name, "current": $0.current.name] }
        try container.encode(tamper, forKey: .tagTamper)
    }

    /// The file data as text when every byte is printable ASCII (20h-7Eh).
    var printableFileData: String? {
        guard let fileData, fileData.allSatisfy({ (0x20...0x7E).contains($0) }) else { return nil }
        return String(decoding: fileData, as: UTF8.self)
    }

    init(url: String, parameters: NTAG424SUNURL.Parameters, verifier: NTAG424SUNVerifier, lastCounter: Int?) {
        self.init(url: url, parameters: parameters, verifier: .keys(verifier), lastCounter: lastCounter)
    }

    init(
        url: String, parameters: NTAG424SUNURL.Parameters, verifier: SDMVerifyCommand.Verifier, lastCounter: Int?
    ) {
        self.url = url
        let result: NTAG424SUNResult
        do {
            result = verifier.verify(try NTAG424SUNURL(url, parameters: parameters))
        } catch {
            valid = false
            problem = "not an SDM URL: \(error.reason)"
            return
        }
        uid = result.uid.map { Hex.encode($0, uppercase: true) }
        counter = result.counter
        valid = result.isValid
        macInput = result.macInput
        problem = result.problem
        fileData = result.fileData
        mode = result.mode
        if valid, let lastCounter {
            guard let counter else {
                valid = false
                problem = "--last-counter is given but the URL carries no counter"
                return
            }
            if counter <= lastCounter {
                valid = false
                problem = "replayed: counter \(counter) is not above the last one seen, \(lastCounter)"
            }
        }
    }

    /// `valid: UID 04DE5F1EACC040, counter 61` or `NOT VALID: why (UID …, counter …)`, on one
    /// line whatever the URL holds: its control characters are escaped (``TerminalText``), so a
    /// URL cannot forge a `valid:` line or drive the terminal.
    var text: String {
        var facts: [String] = []
        if let uid { facts.append("UID \(uid)") }
        if let counter { facts.append("counter \(counter)") }
        let joined = facts.joined(separator: ", ")
        if valid {
            guard let fileData else { return "valid: " + joined }
            let data = printableFileData.map { "\"\($0)\"" } ?? Hex.encode(fileData, uppercase: true)
            let tamper = tagTamper.map { ", TagTamper \($0) (\($0.meaning))" } ?? ""
            return TerminalText.escaped("valid: " + joined + ", file data " + data + tamper)
        }
        return TerminalText.escaped(
            "NOT VALID: \(problem ?? "the SDMMAC does not verify")" + (joined.isEmpty ? "" : " (\(joined))"))
    }

    func jsonLine() throws(CommandLineError) -> String { try MessageJSON.text(of: self, pretty: false) }
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
