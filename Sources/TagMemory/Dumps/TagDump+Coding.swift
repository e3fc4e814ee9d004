import HexText

extension TagDump {
    /// File name extensions that mark a binary image, used only when the content could be
    /// either text or binary.
    static let binaryExtensions: Set<String> = ["mfd", "bin", "dump", "dmp", "raw"]

    /// Tells which format `bytes` are in, by content; `fileName`'s extension only settles
    /// whether text-looking bytes with a binary extension (`.mfd`, `.bin`, `.dump`, `.dmp`,
    /// `.raw`) are an image.
    ///
    /// Text starting (after blank lines and `#` comments) with `Filetype:` is a Flipper file,
    /// text starting with `{` is proxmark3 JSON, text starting with a hex digit or `[` is hex
    /// text. Binary content is a proxmark3 binary dump when its header fits (see
    /// ``TagDumpFormat/proxmarkBinary``), otherwise a raw image, whose reader then checks the
    /// size.
    ///
    /// - Throws: ``TagMemoryError/Code/malformedDump`` for empty input, input larger than
    ///   ``maximumFileSize``, a Flipper file of
    ///   another kind (`Filetype: Flipper RFID key`), and text that is none of these.
    public static func detect(_ bytes: [UInt8], fileName: String? = nil) throws(TagMemoryError) -> TagDumpFormat {
        guard !bytes.isEmpty else { throw TagMemoryError(.malformedDump, at: 0, "the file is empty") }
        try checkFileSize(bytes)
        var binaryName = false
        if let fileName, let dot = fileName.lastIndex(of: ".") {
            binaryName = binaryExtensions.contains(fileName[fileName.index(after: dot)...].lowercased())
        }
        if DumpText.isText(bytes) {
            let first = DumpText.lines(bytes).first { line in
                let content = DumpText.trimmed(line.content)
                return !content.isEmpty && content.first != UInt8(ascii: "#")
            }
            guard let first else { return binaryName ? .raw : .hexText }
            let content = DumpText.trimmed(first.content)
            if content.first == UInt8(ascii: "{") { return .proxmarkJSON }
            if content.starts(with: Array("Filetype:".utf8)) {
                let type = DumpText.trimmed(content.dropFirst(9))
                guard DumpText.string(type) == FlipperDump.fileType else {
                    throw DumpText.error(
                        first, "file type \(DumpText.quoted(type)) is not \"\(FlipperDump.fileType)\"")
                }
                return .flipper
            }
            if !binaryName {
                guard let char = content.first, Hex.digitValue(char) != nil || char == UInt8(ascii: "[") else {
                    throw DumpText.error(
                        first,
                        "not a known dump format: \(DumpText.quoted(content)) is not a hex page, a Flipper "
                            + "\"Filetype:\" line or JSON")
                }
                return .hexText
            }
        }
        return ProxmarkBinaryDump.matches(bytes) ? .proxmarkBinary : .raw
    }

    /// Reads a dump in the format ``detect(_:fileName:)`` finds.
    public init(decoding bytes: [UInt8], fileName: String? = nil) throws(TagMemoryError) {
        try self.init(decoding: bytes, format: try TagDump.detect(bytes, fileName: fileName))
    }

    /// Reads a dump in `format`.
    ///
    /// - Parameters:
    ///   - bytes: the file's bytes.
    ///   - format: the file's format.
    ///   - layout: for ``TagDumpFormat/raw`` and ``TagDumpFormat/hexText``, how the image is
    ///     divided, overriding ``Layout/guess(for:)``. The other formats hold Type 2 pages only
    ///     and refuse ``Layout/mifareClassic``.
    /// - Throws: ``TagMemoryError/Code/malformedDump``; the offset is the byte in the file and
    ///   the reason of a text format names the line (`line 12: …`).
    public init(decoding bytes: [UInt8], format: TagDumpFormat, layout: Layout? = nil) throws(TagMemoryError) {
        try TagDump.checkFileSize(bytes)
        if layout == .mifareClassic, format != .raw, format != .hexText {
            throw TagMemoryError(.invalidArgument, "a \(format) holds Type 2 pages, not MIFARE Classic blocks")
        }
        switch format {
        case .raw: self = try RawDump.decode(bytes, layout: layout)
        case .proxmarkBinary: self = try ProxmarkBinaryDump.decode(bytes)
        case .hexText: self = try HexTextDump.decode(bytes, layout: layout)
        case .flipper: self = try FlipperDump.decode(bytes)
        case .proxmarkJSON: self = try ProxmarkJSONDump.decode(bytes)
        }
    }

    /// The dump written in `format` (UTF-8 text for the text formats).
    ///
    /// Each writer is canonical: reading its output and writing it again gives the same bytes.
    /// Fields a format has no place for are left out; fields it requires and the dump lacks are
    /// written as the tool that defines the format would (see each ``TagDumpFormat`` case).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` when the dump does not fit the format:
    ///   memory that is empty, too large or not whole pages, MIFARE Classic in a Type 2 format,
    ///   fields of the wrong length, more than three counters, counters over 24 bits in the
    ///   proxmark3 formats.
    public func encoded(as format: TagDumpFormat) throws(TagMemoryError) -> [UInt8] {
        switch format {
        case .raw: try RawDump.encode(self)
        case .proxmarkBinary: try ProxmarkBinaryDump.encode(self)
        case .hexText: try HexTextDump.encode(self)
        case .flipper: try FlipperDump.encode(self)
        case .proxmarkJSON: try ProxmarkJSONDump.encode(self)
        }
    }

    /// Refuses input larger than ``maximumFileSize``.
    static func checkFileSize(_ bytes: [UInt8]) throws(TagMemoryError) {
        guard bytes.count <= maximumFileSize else {
            throw TagMemoryError(
                .malformedDump, at: maximumFileSize,
                "the file has \(bytes.count) bytes, more than the \(maximumFileSize) any dump format needs")
        }
    }

    /// `bytes`, or `count` zeros when nil; any other length is an error.
    static func fixedLength(_ bytes: [UInt8]?, _ count: Int, _ name: String) throws(TagMemoryError) -> [UInt8] {
        guard let bytes else { return Array(repeating: 0, count: count) }
        guard bytes.count == count else {
            throw TagMemoryError(.invalidArgument, "the \(name) must be \(count) bytes, not \(bytes.count)")
        }
        return bytes
    }

    /// The three counters with their tearing flags, missing ones zero.
    func countersAndFlags() throws(TagMemoryError) -> [(counter: UInt32, tearing: UInt8)] {
        let counters = self.counters ?? []
        let tearing = tearingFlags ?? []
        guard counters.count <= 3, tearing.count <= 3 else {
            throw TagMemoryError(.invalidArgument, "a dump records at most three counters and tearing flags")
        }
        return (0..<3).map { index in
            (index < counters.count ? counters[index] : 0, index < tearing.count ? tearing[index] : 0)
        }
    }
}

/// Reads and writes raw memory images (``TagDumpFormat/raw``): libnfc `.mfd` files.
enum RawDump {
    /// Reads an image; `layout` overrides the guess from the content.
    static func decode(_ bytes: [UInt8], layout: TagDump.Layout?) throws(TagMemoryError) -> TagDump {
        try checkImage(bytes, layout: layout ?? .type2, base: 0)
        let layout = layout ?? TagDump.Layout.guess(for: bytes)
        return TagDump(layout: layout, memory: bytes)
    }

    /// The memory image, unchanged.
    static func encode(_ dump: TagDump) throws(TagMemoryError) -> [UInt8] {
        try checkMemory(of: dump)
        return dump.memory
    }

    /// Refuses an empty image, one larger than ``TagDump/maximumMemorySize`` and one that ends
    /// inside a page or block; `base` is where the image starts in the file, for offsets.
    static func checkImage(_ image: [UInt8], layout: TagDump.Layout, base: Int) throws(TagMemoryError) {
        guard !image.isEmpty else {
            throw TagMemoryError(.malformedDump, at: base, "the memory image is empty")
        }
        guard image.count <= TagDump.maximumMemorySize else {
            throw TagMemoryError(
                .malformedDump, at: base + TagDump.maximumMemorySize,
                "the memory image has \(image.count) bytes, more than the \(TagDump.maximumMemorySize) of any "
                    + "supported tag")
        }
        let unit = layout.unitSize
        let partial = image.count % unit
        guard partial == 0 else {
            let start = base + image.count - partial
            let what = layout == .type2 ? "page" : "block"
            throw TagMemoryError(
                .malformedDump, at: start,
                "the memory image has \(image.count) bytes, not a whole number of \(unit)-byte \(what)s: "
                    + "the last \(what), at byte \(start), has only \(partial)")
        }
    }

    /// Checks a dump about to be written: its memory must be a valid image for its layout.
    static func checkMemory(of dump: TagDump) throws(TagMemoryError) {
        do {
            try checkImage(dump.memory, layout: dump.layout, base: 0)
        } catch {
            throw TagMemoryError(.invalidArgument, at: error.offset, error.reason)
        }
    }
}
