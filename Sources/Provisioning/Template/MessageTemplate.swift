import HexText
import NDEF
import RecordSpecifications
import TagMemory

/// The message each tag gets, as record-specification words with placeholders
/// (`RecordSpecifications/RecordSpecGrammar`): `uri https://example.com/t/{serial}` renders,
/// for a row whose `serial` is `0042`, to `["uri", "https://example.com/t/0042"]`, which
/// ``message(for:uid:inputs:)`` builds into the row's message.
///
/// The structure (which word is a record kind, an option, a value) is read once from the
/// template as written, so a value from the plan is always a value: a field holding `--file`
/// or `uri` cannot turn into an option or a record.
///
/// Placeholders: `{FIELD}` (a plan field), `{uid}` (the tag's UID in upper-case hex),
/// `{uid:lower}` (lower-case hex), `{row}` (the row number), `{row:WIDTH}` (zero-padded);
/// `{uid-mirror}` and `{counter-mirror}` (an NTAG21x mirror); `{picc}` and `{mac}` (an NTAG 424
/// DNA secure message, ``secureMessageURL(for:uid:inputs:)``; a plan field of either name wins),
/// with `{enc:FIELD}` between them for encrypted file data holding the row's FIELD;
/// `{{` and `}}` stand for literal braces. A placeholder the plan does not provide is an
/// error when the template is made, naming it and listing the plan's fields. Values are
/// substituted verbatim (no percent-encoding); a value holding a control character is refused.
///
/// As text, words are separated by spaces, tabs or line breaks; `'...'` quotes literally and
/// `"..."` quotes with `\"` and `\\` escapes, so a word may hold spaces. A substituted value
/// always stays inside its word.
public struct MessageTemplate: Sendable, Hashable {
    /// One piece of a word.
    enum Segment: Sendable, Hashable {
        case literal(String)
        case field(String)
        case uid(uppercase: Bool)
        case row(width: Int)
        /// `{uid-mirror}` or `{counter-mirror}`: the chip's mirror (NTAG213/215/216 8.7).
        case mirror(counter: Bool)
        /// `{picc}` or `{mac}`: where an NTAG 424 DNA puts PICCData or the SDMMAC (NT4H2421Gx
        /// 9.3), rendered as 32 or 16 `0`s.
        case secureMessage(mac: Bool)
        /// `{enc:FIELD}`: where an NTAG 424 DNA puts its encrypted file data (SDMENCFileData,
        /// 9.3.6), the row's `FIELD` the data; rendered as twice the padded data's length of `0`s.
        case encryptedData(field: String)
    }

    /// The template as canonical text (words quoted where needed): what a journal records.
    public let text: String
    /// The words as written, placeholders unsubstituted: what a caller analyses for structure
    /// (which word is a record kind, an option, a value) before any row is rendered.
    public let arguments: [String]
    /// The words, each a list of segments.
    let words: [[Segment]]
    /// Where each element of the specifications is among the words.
    let structure: [RecordSpecGrammar.WordToken]
    /// The mirror `{uid-mirror}` and `{counter-mirror}` ask for (``TagMemory/Type2MirrorTemplate``'s
    /// rules: each once, both only as `{uid-mirror}x{counter-mirror}`).
    public let mirrorMode: Type2Configuration.MirrorMode

    /// Parses template `text` against the plan's `fields`.
    public init(_ text: String, fields: [String]) throws(ProvisioningError) {
        let tokens = try TemplateTokenizer.words(of: text)
        try self.init(tokens: tokens, fields: fields)
    }

    /// A template from words already split (as a shell splits them), against the plan's `fields`.
    public init(arguments: [String], fields: [String]) throws(ProvisioningError) {
        try self.init(tokens: arguments.map { (text: $0, line: 1, column: 0) }, fields: fields)
    }

    private init(tokens: [(text: String, line: Int, column: Int)], fields: [String]) throws(ProvisioningError) {
        guard !tokens.isEmpty else { throw ProvisioningError(.malformedTemplate, "the template is empty") }
        var words: [[Segment]] = []
        for token in tokens {
            words.append(
                try TemplateTokenizer.segments(of: token.text, line: token.line, column: token.column, fields: fields))
        }
        self.words = words
        // The mirror rules, on the words with every other placeholder as a character no value
        // can hold, so that a field between two mirrors keeps them apart.
        let outline = words.map { word in
            word.map { segment -> String in
                switch segment {
                case .literal(let text): text
                case .mirror(let counter):
                    counter ? Type2MirrorTemplate.counterPlaceholder : Type2MirrorTemplate.uidPlaceholder
                case .field, .uid, .row, .secureMessage, .encryptedData: "\u{1}"
                }
            }.joined()
        }
        do {
            self.mirrorMode = try Type2MirrorTemplate(words: outline).mode
        } catch {
            throw ProvisioningError(.malformedTemplate, error.reason)
        }
        self.arguments = tokens.map(\.text)
        self.text = tokens.map { TemplateTokenizer.quoted($0.text) }.joined(separator: " ")
        do {
            self.structure = try RecordSpecGrammar.standard.structure(of: arguments)
        } catch {
            let recordError = RecordSpecError(error)
            throw ProvisioningError(.invalidRecords, recordError.message, underlying: recordError)
        }
    }

    /// The placeholder names used, in order of first use (`uid`, `row` and field names).
    public var placeholders: [String] {
        var names: [String] = []
        for segment in words.joined() {
            let name: String? =
                switch segment {
                case .literal: nil
                case .mirror(let counter): counter ? "counter-mirror" : "uid-mirror"
                case .secureMessage(let mac): mac ? "mac" : "picc"
                case .encryptedData(let field): field
                case .field(let field): field
                case .uid: "uid"
                case .row: "row"
                }
            if let name, !names.contains(name) { names.append(name) }
        }
        return names
    }

    /// The record-specification words for `row` on the tag with `uid`; the mirror's digits are
    /// `filler` (its placeholder with `0`).
    public func render(_ row: ProvisioningRow, uid: [UInt8], filler: Character = "0") throws(ProvisioningError)
        -> [String]
    {
        try render(row, uid: uid, filler: filler, keepsSecureMessagePlaceholders: false)
    }

    /// ``render(_:uid:filler:)``; `keepsSecureMessagePlaceholders` leaves `{picc}` and `{mac}`
    /// as they are written, else they are 32 and 16 `0`s.
    func render(
        _ row: ProvisioningRow, uid: [UInt8], filler: Character, keepsSecureMessagePlaceholders: Bool
    ) throws(ProvisioningError) -> [String] {
        var out: [String] = []
        out.reserveCapacity(words.count)
        for word in words {
            var text = ""
            for segment in word {
                switch segment {
                case .literal(let literal): text += literal
                case .uid(let uppercase): text += Hex.encode(uid, uppercase: uppercase)
                case .mirror(let counter): text += String(repeating: filler, count: counter ? 6 : 14)
                case .secureMessage(let mac):
                    text +=
                        keepsSecureMessagePlaceholders
                        ? (mac ? "{mac}" : "{picc}") : String(repeating: "0", count: mac ? 16 : 32)
                case .encryptedData(let field):
                    let count = try Self.fileData(of: row, field: field).count * 2
                    text += keepsSecureMessagePlaceholders ? "{enc}" : String(repeating: "0", count: count)
                case .row(let width):
                    let digits = String(row.number)
                    text += String(repeating: "0", count: max(0, width - digits.count)) + digits
                case .field(let name):
                    guard let value = row.values[name] else {
                        throw ProvisioningError(
                            .unknownPlaceholder, line: row.line, "row \(row.number) has no field '\(name)'")
                    }
                    if value.unicodeScalars.contains(where: Self.isControl) {
                        throw ProvisioningError(
                            .controlCharacter, line: row.line,
                            "row \(row.number): field '\(name)' holds a control character ('\(printable(value))')")
                    }
                    text += value
                }
            }
            out.append(text)
        }
        return out
    }

    /// The message of `row` for the tag `uid`, with the files the specifications name read
    /// from `inputs`.
    ///
    /// - Throws: ``ProvisioningError`` with the row's plan line: ``ProvisioningError/Code/unknownPlaceholder``
    ///   or ``ProvisioningError/Code/controlCharacter`` from rendering, ``ProvisioningError/Code/invalidRecords``
    ///   (the `RecordSpecifications/RecordSpecError` underneath) when a value makes no valid
    ///   record or the words make none.
    public func message(
        for row: ProvisioningRow, uid: [UInt8], inputs: some RecordInputs = RecordFiles()
    ) throws(ProvisioningError) -> NFCNDEFMessage {
        try message(for: row, uid: uid, inputs: inputs, filler: "0")
    }

    /// The message of `row` for the tag `uid` and the mirror it sets up, if any
    /// (``mirrorMode``): the message holds the mirror's placeholder, and the request says where
    /// it lies in the encoded message.
    ///
    /// - Throws: the errors of ``message(for:uid:inputs:)``; ``ProvisioningError/Code/invalidRecords``
    ///   when the mirror's placeholder is not stored as ASCII text.
    public func mirroredMessage(
        for row: ProvisioningRow, uid: [UInt8], inputs: some RecordInputs = RecordFiles()
    ) throws(ProvisioningError) -> ProvisioningMessage {
        do {
            let made = try Type2MirrorTemplate(mode: mirrorMode).message { filler in
                try message(for: row, uid: uid, inputs: inputs, filler: filler)
            }
            var provisioned = ProvisioningMessage(made.message, mirror: made.request)
            if hasSecureMessage {
                provisioned.secureMessageURL = try secureMessageURL(for: row, uid: uid, inputs: inputs)
                provisioned.secureMessageFileData = try secureMessageFileData(for: row)
            }
            return provisioned
        } catch let error as ProvisioningError {
            throw error
        } catch {
            let reason = (error as? TagMemoryError)?.reason ?? "\(error)"
            throw ProvisioningError(.invalidRecords, line: row.line, "row \(row.number): \(reason)")
        }
    }

    /// Whether the template holds `{picc}` or `{mac}`: an NTAG 424 DNA secure message.
    public var hasSecureMessage: Bool {
        words.joined().contains { if case .secureMessage = $0 { true } else { false } }
    }

    /// The plan field `{enc:FIELD}` names, when the template has one.
    public var encryptedDataField: String? {
        for segment in words.joined() {
            if case .encryptedData(let field) = segment { return field }
        }
        return nil
    }

    /// The file data of `row` for `{enc:FIELD}`: the field's UTF-8 bytes (which
    /// `NTAG424/NTAG424SDMTemplate` pads with spaces to whole 16-byte blocks); nil without
    /// `{enc:…}`.
    ///
    /// - Throws: ``ProvisioningError/Code/invalidRecords`` for a value empty or over 64 bytes.
    public func secureMessageFileData(for row: ProvisioningRow) throws(ProvisioningError) -> [UInt8]? {
        guard let field = encryptedDataField else { return nil }
        _ = try Self.fileData(of: row, field: field)
        return Array((row.values[field] ?? "").utf8)
    }

    /// The file data of `row`'s `field`, padded with spaces to whole 16-byte blocks.
    ///
    /// - Throws: ``ProvisioningError/Code/invalidRecords`` for a value empty or over 64 bytes.
    static func fileData(of row: ProvisioningRow, field: String) throws(ProvisioningError) -> [UInt8] {
        let bytes = Array((row.values[field] ?? "").utf8)
        guard (1...64).contains(bytes.count) else {
            throw ProvisioningError(
                .invalidRecords, line: row.line,
                "row \(row.number): {enc:\(field)} takes 1 to 64 bytes of file data, not \(bytes.count)")
        }
        return bytes + [UInt8](repeating: 0x20, count: (16 - bytes.count % 16) % 16)
    }

    /// The URL of `row` for the tag `uid` with `{picc}` and `{mac}` as written, for
    /// `NTAG424/NTAG424SDMTemplate`.
    ///
    /// - Throws: ``ProvisioningError/Code/invalidRecords`` unless the message is one URI record.
    public func secureMessageURL(
        for row: ProvisioningRow, uid: [UInt8], inputs: some RecordInputs = RecordFiles()
    ) throws(ProvisioningError) -> String {
        let message = try message(for: row, uid: uid, inputs: inputs, filler: "0", keepsPlaceholders: true)
        guard message.records.count == 1, let uri = try? URIRecord(parsing: message.records[0]).uri else {
            throw ProvisioningError(
                .invalidRecords, line: row.line,
                "row \(row.number): {picc} and {mac} go in a message of one URI record (uri 'https://…')")
        }
        return uri
    }

    private func message(
        for row: ProvisioningRow, uid: [UInt8], inputs: some RecordInputs, filler: Character,
        keepsPlaceholders: Bool = false
    ) throws(ProvisioningError) -> NFCNDEFMessage {
        let rendered = try render(
            row, uid: uid, filler: filler, keepsSecureMessagePlaceholders: keepsPlaceholders)
        let grammar = RecordSpecGrammar.standard
        let records: [NFCNDEFPayload]
        do {
            records = try grammar.build(grammar.parse(grammar.tokens(structure, rendered: rendered)), inputs: inputs)
        } catch {
            throw ProvisioningError(
                .invalidRecords, line: row.line, "row \(row.number): \(error.message)", underlying: error)
        }
        guard !records.isEmpty else {
            throw ProvisioningError(.invalidRecords, line: row.line, "row \(row.number): the template makes no record")
        }
        return NFCNDEFMessage(records: records)
    }

    /// Builds every row of `plan` with ``sampleUID``, so that a value that makes no valid record
    /// is found before the first tag is written; returns the length of each row's encoded
    /// message, by row number, in order.
    ///
    /// - Throws: ``ProvisioningError`` for the first row that fails, as
    ///   ``message(for:uid:inputs:)`` does.
    @discardableResult
    public func check(_ plan: ProvisioningPlan, inputs: some RecordInputs = RecordFiles()) throws(ProvisioningError)
        -> [(row: Int, bytes: Int)]
    {
        guard let numbers = plan.rowNumbers else { return [] }
        var lengths: [(row: Int, bytes: Int)] = []
        for number in numbers {
            guard let row = plan.row(number) else { continue }
            lengths.append(
                (number, try encodedLength(of: message(for: row, uid: Self.sampleUID, inputs: inputs), row: row)))
        }
        return lengths
    }

    /// The length of `message` encoded, or ``ProvisioningError/Code/invalidRecords`` naming `row`.
    package func encodedLength(of message: NFCNDEFMessage, row: ProvisioningRow) throws(ProvisioningError) -> Int {
        do {
            return try message.encoded().count
        } catch {
            throw ProvisioningError(.invalidRecords, line: row.line, "row \(row.number): \(error)", underlying: error)
        }
    }

    /// The UID rows are checked with: 7 bytes, NXP's manufacturer code first.
    public static let sampleUID: [UInt8] = [0x04, 0, 0, 0, 0, 0, 0]

    /// C0 and C1 control characters and DEL.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
