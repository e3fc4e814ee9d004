import NDEF

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
