import NDEF

/// The arithmetic the benchmarks share: medians and durations in milliseconds.
public enum Statistics {
    /// The median of `values` (the mean of the two middle ones for an even count); 0 when empty.
    public static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `duration` in milliseconds.
    public static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }

    /// `value` milliseconds as text: three decimals below 10 ms, one above, then " ms".
    public static func formatMilliseconds(_ value: Double) -> String {
        let decimals = value < 10 ? 3 : 1
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: decimals - fraction.count) + fraction + " ms"
    }

    /// `text` padded with spaces to `width` characters, on the right when `left` (left-aligned).
    public static func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + fill : fill + text
    }
}

/// A benchmark that could not run or whose result is wrong.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}

/// The messages the tag benchmarks write and read.
public enum BenchmarkMessages {
    /// A message of one URI record (NFC Forum URI RTD 1.0, prefix 04h `https://`) whose encoding
    /// is exactly `length` bytes: a short record (4 header bytes) up to 259 bytes, a long one
    /// (7 header bytes) beyond. `seed` changes every character of the path.
    public static func uri(length: Int, seed: Int = 0) -> NFCNDEFMessage {
        let header = length - 4 <= 255 ? 4 : 7
        let host = Array("example.com/".utf8)
        let pathLength = max(0, length - header - 1 - host.count)
        let path = (0..<pathLength).map { UInt8(0x61 + (seed + $0) % 26) }
        return NFCNDEFMessage(records: [
            NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + host + path)
        ])
    }

    /// The encoded length of `message`, or -1 when it does not encode.
    public static func encodedLength(_ message: NFCNDEFMessage) -> Int {
        (try? message.encoded().count) ?? -1
    }
}
