import HexText
import NDEF

/// A readable description of a message, as `ndeftool decode` prints it:
///
/// ```
/// NDEF message: 2 records, 33 bytes
/// record 0: well-known (TNF 1), type "U", payload 13 bytes
///   URI: https://www.proxmark.com
/// record 1: media (TNF 2), type "text/plain", ID "a", payload 5 bytes, 2 chunks
///   payload: 68656c6c6f
/// ```
///
/// Records nested in a Smart Poster (NFC Forum Smart Poster RTD 1.0) or a Handover record
/// (NFC Forum Connection Handover 1.4, after its version byte) follow their parent, indented,
/// numbered `0.1`, `0.2`, ...
package struct MessageDescription {
    /// At most this many payload bytes are shown as hex for records no view reads.
    package static let payloadPreview = 32

    /// The message described.
    package let message: NFCNDEFMessage
    /// The size of the encoded input in bytes.
    package let size: Int
    /// Where each record lies in the input, a line per chunk under each record (`decode -v`);
    /// nil to leave them out.
    package var layouts: [[RecordLayout]]? = nil

    /// The description of `message`, `size` bytes encoded.
    package init(message: NFCNDEFMessage, size: Int, layouts: [[RecordLayout]]? = nil) {
        self.message = message
        self.size = size
        self.layouts = layouts
    }

    /// The description, one line per item, ending with a newline.
    package var text: String {
        var lines = ["NDEF message: \(Self.count(message.records.count, "record")), \(Self.count(size, "byte"))"]
        let layouts = self.layouts.flatMap { $0.count == message.records.count ? $0 : nil }
        Self.describe(
            message.records, numbering: "", indent: "", options: NDEFDecodingOptions(), layouts: layouts, into: &lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `1 record`, `2 records`.
    package static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    private static func describe(
        _ records: [NFCNDEFPayload],
        numbering: String,
        indent: String,
        options: NDEFDecodingOptions,
        layouts: [[RecordLayout]]? = nil,
        into lines: inout [String]
    ) {
        for (index, record) in records.enumerated() {
            let number = numbering + String(index)
            lines.append(indent + "record \(number): " + summary(of: record))
            let inner = indent + "  "
            if let chunks = layouts?[index] {
                for (chunk, layout) in chunks.enumerated() {
                    lines.append(inner + (chunks.count > 1 ? "chunk \(chunk) at " : "at ") + layout.line)
                }
            }
            do {
                if let view = try record.interpreted(options: options) {
                    lines.append(inner + view.description)
                } else if !record.payload.isEmpty {
                    lines.append(inner + "payload: " + preview(record.payload))
                }
            } catch {
                let kind = NDEFRecordRegistry.view(format: record.typeNameFormat, type: record.type)?.kind ?? "typed"
                lines.append(inner + "not a valid \(kind) record: \(error.description)")
                lines.append(inner + "payload: " + preview(record.payload))
            }
            guard let nested = nestedMessage(of: record) else { continue }
            do {
                let nestedOptions = try options.nested()
                let message = try NFCNDEFMessage(decoding: nested, options: nestedOptions)
                describe(message.records, numbering: number + ".", indent: inner, options: nestedOptions, into: &lines)
            } catch {
                lines.append(inner + error.summary(in: "the nested message"))
            }
        }
    }

    /// `well-known (TNF 1), type "U", ID "a", payload 13 bytes, 2 chunks`.
    package static func summary(of record: NFCNDEFPayload) -> String {
        let format = record.typeNameFormat
        var parts = ["\(format.name) (TNF \(format.rawValue))"]
        if !record.type.isEmpty { parts.append("type " + quoted(record.type)) }
        if !record.identifier.isEmpty { parts.append("ID " + quoted(record.identifier)) }
        parts.append("payload \(count(record.payload.count, "byte"))")
        if record.chunkCount > 1 { parts.append("\(record.chunkCount) chunks") }
        return parts.joined(separator: ", ")
    }

    /// Printable ASCII in quotes, anything else as `0x` and hex.
    package static func quoted(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }) {
            return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
        }
        return "0x" + Hex.encode(bytes)
    }

    /// The payload as hex, cut after ``payloadPreview`` bytes.
    package static func preview(_ payload: ArraySlice<UInt8>) -> String {
        let hex = Hex.encode(payload.prefix(payloadPreview))
        return payload.count > payloadPreview ? hex + "..." : hex
    }

    /// The bytes of the message a record carries: a Smart Poster's whole payload, a Handover
    /// record's payload after its version byte.
    package static func nestedMessage(of record: NFCNDEFPayload) -> ArraySlice<UInt8>? {
        guard record.typeNameFormat == .nfcWellKnown else { return nil }
        if record.hasType(.nfcWellKnown, "Sp") { return record.payload }
        let handover = ["Hs", "Hr", "Hm", "Hi"]
        if handover.contains(where: { record.hasType(.nfcWellKnown, $0) }), record.payload.count > 1 {
            return record.payload.dropFirst()
        }
        return nil
    }
}
