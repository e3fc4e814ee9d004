import HexText
import JSONSupport

/// Reads and writes proxmark3 JSON dumps of Ultralight/NTAG tags (``TagDumpFormat/proxmarkJSON``).
///
/// proxmark3 `client/src/fileutils.c`: `prepareJSON` writes `Created`, then for `jsfMfuMemory`
/// `FileType: "mfu"`, `Card` with `UID` (page 0 bytes 0-2 and page 1), `Version`, `TBO_0`,
/// `TBO_1`, `Signature`, `Counter0`, `Tearing0`, `Counter1`, `Tearing1`, `Counter2`, `Tearing2`,
/// then `blocks` with one entry per page keyed by its decimal index; values through
/// `JsonSaveBufAsHexCompact` (upper-case hex, no separators). `saveFileJSONrootEx` dumps with
/// `JSON_INDENT(2)`: jansson keeps insertion order, puts `": "` after keys and writes no final
/// line break. `loadFileJSONex` (`"mfu"`) reads the `Card` fields it knows, each optional, and
/// the blocks from `"0"` up to the first one missing. This reader does the same, except that
/// blocks must be contiguous from `"0"` (in any order) and every value must be well-formed hex
/// of the right length; `Created` and `UID` are not checked against anything, `TBO_0`/`TBO_1`
/// (always zero) are checked but not kept, other keys are ignored.
enum ProxmarkJSONDump {
    /// Reads a dump.
    static func decode(_ bytes: [UInt8]) throws(TagMemoryError) -> TagDump {
        let root = try DumpJSON.parse(bytes)
        guard case .object = root else {
            throw DumpJSON.error(in: bytes, at: 0, "a proxmark3 dump is a JSON object, not \(root.kind)")
        }
        guard let fileType = root.member("FileType") else {
            throw DumpJSON.error(in: bytes, at: 0, "the dump has no \"FileType\"")
        }
        guard case .string(let type) = fileType.value, type == "mfu" else {
            throw DumpJSON.error(
                in: bytes, at: fileType.offset,
                "\"FileType\" is not \"mfu\": only Ultralight/NTAG dumps are read (\(shown(fileType.value)))")
        }
        var dump = TagDump(memory: try blocks(root, in: bytes))
        if let card = root.member("Card") {
            guard case .object = card.value else {
                throw DumpJSON.error(in: bytes, at: card.offset, "\"Card\" is \(card.value.kind), not an object")
            }
            let field = CardReader(card: card.value, bytes: bytes)
            dump.uid = try field.hex("UID", counts: [4, 7, 10])
            dump.version = try field.hex("Version", counts: [8])
            _ = try field.hex("TBO_0", counts: [2])
            _ = try field.hex("TBO_1", counts: [1])
            dump.signature = try field.hex("Signature", counts: [32])
            var counters: [UInt32]? = nil
            var tearing: [UInt8]? = nil
            for index in 0..<3 {
                if let value = try field.hex("Counter\(index)", counts: [3]) {
                    counters = counters ?? [0, 0, 0]
                    counters?[index] = UInt32(value[0]) | UInt32(value[1]) << 8 | UInt32(value[2]) << 16
                }
                if let value = try field.hex("Tearing\(index)", counts: [1]) {
                    tearing = tearing ?? [0, 0, 0]
                    tearing?[index] = value[0]
                }
            }
            dump.counters = counters
            dump.tearingFlags = tearing
        }
        return dump
    }

    /// Reads the hex strings of a `Card` object.
    struct CardReader {
        let card: JSONValue
        let bytes: [UInt8]

        /// The field's bytes, nil when the field is absent.
        func hex(_ key: String, counts: [Int]) throws(TagMemoryError) -> [UInt8]? {
            guard let member = card.member(key) else { return nil }
            let value = try ProxmarkJSONDump.hexString(member, in: bytes)
            guard counts.contains(value.count) else {
                let allowed = counts.map(String.init).joined(separator: ", ")
                throw DumpJSON.error(
                    in: bytes, at: member.offset, "\"\(key)\" holds \(value.count) bytes, not \(allowed)")
            }
            return value
        }
    }

    /// The pages of `blocks`: keys `"0"` … `"n-1"`, each a 4-byte hex string.
    static func blocks(_ root: JSONValue, in bytes: [UInt8]) throws(TagMemoryError) -> [UInt8] {
        guard let blocks = root.member("blocks") else {
            throw DumpJSON.error(in: bytes, at: bytes.count, "the dump has no \"blocks\"")
        }
        guard case .object(let members) = blocks.value, !members.isEmpty else {
            throw DumpJSON.error(in: bytes, at: blocks.offset, "\"blocks\" is not an object of pages")
        }
        let limit = TagDump.maximumMemorySize / 4
        var pages: [[UInt8]?] = []
        for member in members {
            let key = ArraySlice(member.key.utf8)
            guard let index = DumpText.decimal(key), key.first != UInt8(ascii: "0") || key.count == 1 else {
                throw DumpJSON.error(
                    in: bytes, at: member.offset, "block key \"\(member.key)\" is not a page number")
            }
            guard index < min(limit, members.count) else {
                throw DumpJSON.error(
                    in: bytes, at: member.offset,
                    "block \"\(member.key)\" is past the \(members.count) blocks listed (pages run from \"0\" "
                        + "without gaps, at most \(limit))")
            }
            let value = try hexString(member, in: bytes)
            guard value.count == 4 else {
                throw DumpJSON.error(
                    in: bytes, at: member.offset, "block \"\(member.key)\" holds \(value.count) bytes, not 4")
            }
            if pages.count <= index { pages.append(contentsOf: repeatElement(nil, count: index + 1 - pages.count)) }
            pages[index] = value
        }
        var memory: [UInt8] = []
        for (index, page) in pages.enumerated() {
            guard let page else {
                throw DumpJSON.error(in: bytes, at: blocks.offset, "\"blocks\" has no page \"\(index)\"")
            }
            memory.append(contentsOf: page)
        }
        return memory
    }

    /// A string value of hex digits, two per byte, without separators.
    static func hexString(_ member: JSONValue.Member, in bytes: [UInt8]) throws(TagMemoryError) -> [UInt8] {
        guard case .string(let text) = member.value else {
            throw DumpJSON.error(
                in: bytes, at: member.offset, "\"\(member.key)\" is \(member.value.kind), not a hex string")
        }
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0, digits.allSatisfy({ Hex.digitValue($0) != nil }) else {
            throw DumpJSON.error(
                in: bytes, at: member.offset,
                "\"\(member.key)\" is not hex digits in pairs: \(DumpText.quoted(digits[...]))")
        }
        return stride(from: 0, to: digits.count, by: 2).map { index in
            (Hex.digitValue(digits[index]) ?? 0) << 4 | (Hex.digitValue(digits[index + 1]) ?? 0)
        }
    }

    /// A short rendering of a value for messages.
    private static func shown(_ value: JSONValue) -> String {
        if case .string(let text) = value { return "\"\(text.prefix(40))\"" }
        return value.kind
    }

    /// Writes a dump as proxmark3 does, missing fields as zeros. The UID is the dump's own
    /// (``TagDump/uid``, as read from `Card.UID`), else the one in pages 0-1 as proxmark3 takes
    /// it, so a dump read from this format keeps its UID when written again.
    static func encode(_ dump: TagDump) throws(TagMemoryError) -> [UInt8] {
        try RawDump.checkMemory(of: dump)
        guard dump.layout == .type2 else {
            throw TagMemoryError(.invalidArgument, "a proxmark3 mfu dump holds Type 2 pages, not MIFARE Classic")
        }
        guard let uid = dump.effectiveUID else {
            throw TagMemoryError(.invalidArgument, "a proxmark3 mfu dump takes its UID from pages 0 and 1")
        }
        guard [4, 7, 10].contains(uid.count) else {
            throw TagMemoryError(.invalidArgument, "a UID has 4, 7 or 10 bytes, not \(uid.count)")
        }
        var card: [(String, [UInt8])] = [
            ("UID", uid),
            ("Version", try TagDump.fixedLength(dump.version, 8, "GET_VERSION")),
            ("TBO_0", [0, 0]),
            ("TBO_1", [0]),
            ("Signature", try TagDump.fixedLength(dump.signature, 32, "signature")),
        ]
        for (index, (counter, tearing)) in try ProxmarkBinaryDump.counterBytes(dump).enumerated() {
            card.append(("Counter\(index)", counter))
            card.append(("Tearing\(index)", [tearing]))
        }
        var lines = ["{", "  \"Created\": \"proxmark3\",", "  \"FileType\": \"mfu\",", "  \"Card\": {"]
        for (position, (key, value)) in card.enumerated() {
            let comma = position == card.count - 1 ? "" : ","
            lines.append("    \"\(key)\": \"\(Hex.encode(value, uppercase: true))\"\(comma)")
        }
        lines.append("  },")
        lines.append("  \"blocks\": {")
        for index in 0..<dump.pageCount {
            let comma = index == dump.pageCount - 1 ? "" : ","
            lines.append("    \"\(index)\": \"\(Hex.encode(dump.page(index) ?? [], uppercase: true))\"\(comma)")
        }
        lines.append("  }")
        lines.append("}")
        return Array(lines.joined(separator: "\n").utf8)
    }
}

/// How tag dumps read JSON (proxmark3's `.json` dumps): through the package's one JSON parser
/// (``JSONSupport``), with keys that may not repeat and strings read leniently (bytes that are
/// not UTF-8 and lone surrogates become U+FFFD, as proxmark3's own reader takes them), each
/// refusal a ``TagMemoryError/Code/malformedDump`` naming the line and byte offset.
enum DumpJSON {
    /// Nesting deeper than 32 is refused.
    static let options = JSONParseOptions(
        maximumDepth: 32, rejectsDuplicateKeys: true, rejectsInvalidUTF8: false, rejectsLoneSurrogates: false)

    /// Parses `bytes` as one JSON value.
    static func parse(_ bytes: [UInt8]) throws(TagMemoryError) -> JSONValue {
        do {
            return try JSONValue.parse(bytes, options: options)
        } catch {
            throw self.error(in: bytes, at: error.offset, error.reason)
        }
    }

    /// A ``TagMemoryError/Code/malformedDump`` at `offset` in `bytes`, naming its line.
    static func error(in bytes: [UInt8], at offset: Int, _ reason: String) -> TagMemoryError {
        let line = JSONParseError.line(of: offset, in: bytes)
        return TagMemoryError(.malformedDump, at: offset, "line \(line): \(reason)")
    }
}
