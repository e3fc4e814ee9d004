/// The reader names of a PC/SC multi-string (`SCardListReaders`, PC/SC part 5 3.1.6): names
/// ended by NUL, the list ended by an empty name.
enum ReaderNameList {
    /// The names in `bytes`, in order. Parsing stops at the first empty name (the double NUL);
    /// a last name without its NUL is kept; invalid UTF-8 is repaired, never trapped on.
    static func parse(_ bytes: some Collection<UInt8>) -> [String] {
        var names: [String] = []
        for part in bytes.split(separator: 0, omittingEmptySubsequences: false) {
            guard !part.isEmpty else { break }
            names.append(String(decoding: part, as: UTF8.self))
        }
        return names
    }
}
