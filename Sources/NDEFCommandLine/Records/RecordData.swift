import NDEF

/// Functions the record kinds share to turn specification values into bytes.
enum RecordData {
    /// Parses the hex value of `option` (whitespace, `:` and `-` separators allowed).
    static func hex(_ text: String, for option: OptionSpec) throws(CommandLineError) -> [UInt8] {
        do {
            return try NDEFHex.decode(text, allowSeparators: true)
        } catch {
            let position = error.offset.map { " at character \($0)" } ?? ""
            throw .invalidValue(text, for: option, reason: "\(error.reason)\(position)")
        }
    }

    /// The record ID of `spec` from `--id` or `--id-hex`, at most 255 bytes (NDEF 1.0, 3.2.7).
    static func identifier(of spec: RecordSpec, kind: RecordKind) throws(CommandLineError) -> [UInt8]? {
        let bytes: [UInt8]
        let option: OptionSpec
        if let text = spec.option("id"), let idOption = kind.option("id") {
            bytes = Array(text.utf8)
            option = idOption
        } else if let text = spec.option("id-hex"), let idOption = kind.option("id-hex") {
            bytes = try hex(text, for: idOption)
            option = idOption
        } else {
            return nil
        }
        guard bytes.count <= 255 else {
            throw .invalidValue(
                spec.option(option.long) ?? "",
                for: option,
                reason: "an ID has at most 255 bytes, this one \(bytes.count)"
            )
        }
        return bytes
    }

    /// The data of `spec` from the value `<data>` (as UTF-8), `--file` or `--hex`; `nil` if none was given.
    static func data(of spec: RecordSpec, kind: RecordKind, inputs: inout InputReader) throws(CommandLineError)
        -> [UInt8]?
    {
        if let text = spec.value("data") { return Array(text.utf8) }
        if let path = spec.option("file") { return try inputs.read(path, for: "--file of \(spec.label)") }
        if let text = spec.option("hex"), let option = kind.option("hex") { return try hex(text, for: option) }
        return nil
    }

    /// Checks a built record through the first typed view that reads it, so a payload the
    /// library cannot read back is refused; records no view reads are accepted as they are.
    static func checkReadable(_ record: NFCNDEFPayload, of spec: RecordSpec) throws(CommandLineError) {
        do {
            _ = try record.interpreted()
        } catch {
            throw .usage("Invalid \(spec.label): \(error.description)")
        }
    }

    /// The length checks of NDEF 1.0, section 3.2, for a record built from a specification.
    static func checkLengths(type: [UInt8], payload: [UInt8], of spec: RecordSpec) throws(CommandLineError) {
        if type.count > 255 {
            throw .usage("Invalid \(spec.label): the type has \(type.count) bytes, at most 255 are allowed")
        }
        if UInt64(payload.count) > UInt64(UInt32.max) {
            throw .usage("Invalid \(spec.label): the payload is longer than 4294967295 bytes")
        }
    }
}
