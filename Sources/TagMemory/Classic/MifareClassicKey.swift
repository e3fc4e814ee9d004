import HexText

/// A MIFARE Classic key: the six bytes of key A or key B of a sector (NXP MF1S50yyX 8.6.3).
///
/// Its `description` never shows the bytes of a key that is not public: keys are secrets that
/// no output, log, trace or journal may hold. The public keys (the transport key, the MAD key
/// A, the NFC Forum key A) are named instead.
public struct MifareClassicKey: Sendable, Hashable, CustomStringConvertible {
    /// The six bytes.
    public let bytes: [UInt8]

    /// A key of `bytes`; nil unless there are exactly six.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 6 else { return nil }
        self.bytes = Array(bytes)
    }

    /// A key of these six bytes.
    public init(_ bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)) {
        self.bytes = [bytes.0, bytes.1, bytes.2, bytes.3, bytes.4, bytes.5]
    }

    /// A key written as 12 hex digits (spaces, `:` and `-` between bytes allowed).
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` for anything else; the message never
    ///   repeats the text, which may be a key.
    public init(hex text: some StringProtocol) throws(TagMemoryError) {
        let digits = String(text.filter { !" :-".contains($0) })
        guard digits.count == 12, let bytes = Hex.decodeDigits(digits) else {
            throw TagMemoryError(.invalidArgument, "a MIFARE Classic key is 12 hex digits (6 bytes)")
        }
        self.bytes = bytes
    }

    /// FFFFFFFFFFFF: key A and key B of a card as delivered (MF1S50yyX 8.6.3).
    public static let transport = MifareClassicKey(known: MifareClassicSectorTrailer.transportKey)
    /// A0A1A2A3A4A5: the public key A of MAD sectors (AN10787).
    public static let directoryKeyA = MifareClassicKey(known: MifareClassicSectorTrailer.madKeyA)
    /// D3F7D3F7D3F7: the public key A of NFC sectors (AN1304).
    public static let ndefKeyA = MifareClassicKey(known: MifareClassicSectorTrailer.ndefKeyA)

    private init(known bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The name of a public key, nil for any other key.
    public var publicName: String? {
        switch bytes {
        case MifareClassicSectorTrailer.transportKey: "the transport key FFFFFFFFFFFF"
        case MifareClassicSectorTrailer.madKeyA: "the MAD key A A0A1A2A3A4A5"
        case MifareClassicSectorTrailer.ndefKeyA: "the NFC Forum key A D3F7D3F7D3F7"
        default: nil
        }
    }

    /// A public key's name; `a key (hidden)` for any other.
    public var description: String { publicName ?? "a key (hidden)" }
}
