import HexText
import NDEF

/// An inclusive range of pages or bytes as `inspect` reports it: `{"first": 4, "last": 39}`
/// in JSON, `pages 4-39` or `page 4` in text.
package struct AddressSpan: Encodable, Hashable {
    /// The first page or byte.
    package var first: Int
    /// The last page or byte (included).
    package var last: Int

    /// The span of a closed range.
    package init(_ range: ClosedRange<Int>) {
        first = range.lowerBound
        last = range.upperBound
    }

    /// The span of a non-empty half-open range, nil for an empty one.
    package init?(_ range: Range<Int>) {
        guard !range.isEmpty else { return nil }
        first = range.lowerBound
        last = range.upperBound - 1
    }

    /// `page 4`, `pages 4-39` (or `byte`/`bytes`).
    package func text(_ unit: String) -> String {
        first == last ? "\(unit) \(first)" : "\(unit)s \(first)-\(last)"
    }

    /// The spans of runs of consecutive numbers in `numbers` (sorted, duplicates ignored).
    package static func runs(_ numbers: some Sequence<Int>) -> [AddressSpan] {
        var spans: [AddressSpan] = []
        for number in Set(numbers).sorted() {
            if let last = spans.last, last.last + 1 == number {
                spans[spans.count - 1].last = number
            } else {
                spans.append(AddressSpan(number...number))
            }
        }
        return spans
    }

    /// `0-1, 3, 16-31`.
    package static func list(_ spans: [AddressSpan]) -> String {
        spans.map { $0.first == $0.last ? "\($0.first)" : "\($0.first)-\($0.last)" }.joined(separator: ", ")
    }
}

/// Text and JSON conventions of `inspect`.
package enum InspectFormatting {

    /// `bytes 16-20 (pages 4-5)`, or `pages 4-39` when the range is whole pages.
    package static func location(_ range: Range<Int>, unitSize: Int = 4, unit: String = "page") -> String {
        guard let bytes = AddressSpan(range) else { return "nowhere" }
        let units = AddressSpan((range.lowerBound / unitSize)...((range.upperBound - 1) / unitSize))
        if range.lowerBound % unitSize == 0, range.upperBound % unitSize == 0 { return units.text(unit) }
        return bytes.text("byte") + " (" + units.text(unit) + ")"
    }

    /// `1 page`, `2 pages`.
    package static func count(_ number: Int, _ noun: String) -> String { MessageDescription.count(number, noun) }
}
