/// The keys a program holds for MIFARE Classic cards: candidates for the keys the sectors have
/// now, and the key B that formatting installs (NXP MF1S50yyX 8.6.3; AN1304).
///
/// A card's keys are tried in the order ``keys(forSector:)`` gives, each at most once per
/// sector: an authentication that fails is never repeated with the same key. The well-known
/// public keys (the transport key, the MAD key A, the NFC Forum key A) are always among the
/// candidates, and so is the key B to install: a format cut half-way leaves each sector with
/// its old keys or the new ones, and a rerun with the same keyring opens both.
///
/// Nothing here prints a key (``MifareClassicKey``'s description hides it).
public struct MifareClassicKeyring: Sendable, Hashable {
    /// Keys tried on every sector, in order, after the sector's own.
    public var candidates: [MifareClassicKey]
    /// Keys tried first on one sector, by sector number.
    public var sectorCandidates: [Int: [MifareClassicKey]]
    /// The key B written into every trailer a format writes; nil: a format refuses to change
    /// keys.
    public var keyBToInstall: MifareClassicKey?

    /// A keyring.
    public init(
        candidates: [MifareClassicKey] = [], sectorCandidates: [Int: [MifareClassicKey]] = [:],
        keyBToInstall: MifareClassicKey? = nil
    ) {
        self.candidates = candidates
        self.sectorCandidates = sectorCandidates
        self.keyBToInstall = keyBToInstall
    }

    /// The public keys every keyring tries: the transport key FFFFFFFFFFFF, the NFC Forum key A
    /// D3F7D3F7D3F7 and the MAD key A A0A1A2A3A4A5.
    public static let publicKeys: [MifareClassicKey] = [.transport, .ndefKeyA, .directoryKeyA]

    /// The keys to try on `sector`, in order and without repeats: the sector's own candidates,
    /// the candidates for every sector, the public keys, then the key B to install.
    public func keys(forSector sector: Int) -> [MifareClassicKey] {
        var seen: Set<MifareClassicKey> = []
        var keys: [MifareClassicKey] = []
        let ordered =
            (sectorCandidates[sector] ?? []) + candidates + Self.publicKeys + (keyBToInstall.map { [$0] } ?? [])
        for key in ordered where seen.insert(key).inserted { keys.append(key) }
        return keys
    }

    /// The keyring of a keys file in lines: one key (12 hex digits, `:` or `-` between bytes
    /// allowed) per line, a candidate for every sector; `sector N KEY` for one sector; `key-b
    /// KEY` for the key B to install. Blank lines and lines starting with `#` are skipped.
    ///
    /// - Throws: ``TagMemoryError/Code/invalidArgument`` naming the line (or the JSON member)
    ///   that is wrong, never repeating its text (it may hold a key).
    public init(linesOf text: String) throws(TagMemoryError) {
        self.init()
        // Character.isNewline: LF, CR and CR LF (one character in Swift) all end a line.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            let place = "line \(index + 1)"
            switch words.first?.lowercased() {
            case "sector":
                guard words.count == 3, let number = Int(words[1]),
                    (0..<MifareClassicSector.maximumCount).contains(number)
                else {
                    throw TagMemoryError(.invalidArgument, "\(place): expected 'sector N KEY', N from 0 to 39")
                }
                sectorCandidates[number, default: []].append(try Self.key(words[2], place))
            case "key-b":
                guard words.count == 2, keyBToInstall == nil else {
                    throw TagMemoryError(.invalidArgument, "\(place): expected one 'key-b KEY' line")
                }
                keyBToInstall = try Self.key(words[1], place)
            default:
                guard words.count == 1 else {
                    throw TagMemoryError(.invalidArgument, "\(place): expected a key, 'sector N KEY' or 'key-b KEY'")
                }
                candidates.append(try Self.key(words[0], place))
            }
        }
    }

    /// The key written as `text` at `place`.
    static func key(_ text: some StringProtocol, _ place: String) throws(TagMemoryError) -> MifareClassicKey {
        do {
            return try MifareClassicKey(hex: text)
        } catch {
            throw TagMemoryError(.invalidArgument, "\(place): a key is 12 hex digits (6 bytes)")
        }
    }
}

extension StringProtocol {
    /// The text without spaces, tabs and carriage returns at either end.
    fileprivate func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
