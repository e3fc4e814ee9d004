import HexText
import NTAG424

/// One URL checked, as `sdm verify` prints it: verified with the keys, then its counter
/// compared with `--last-counter` (here) or recorded in the counter store of `--database`
/// (``SDMCounterCheck``).
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
    /// The UID's bytes (``uid`` is their hex), for the counter store.
    var uidBytes: [UInt8]?

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
    /// "macInput", "problem", "fileDataHex", "fileData", "tagTamper"}` (Fixtures/schemas/sdm-verify.schema.json);
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
        uidBytes = result.uid
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
