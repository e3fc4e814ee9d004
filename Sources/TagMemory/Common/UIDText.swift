import HexText

/// The two text forms of a tag's UID (ISO/IEC 14443-3 6.5.4: 4, 7 or 10 bytes).
///
/// JSON gives the UID as upper-case hex without separators, `"04A1B2C3D4E5F6"`: the form
/// `sim:...?uid=` and `{uid}` in batch templates take, easy to compare and to use as a file
/// name. Text for people separates the bytes with colons, `04:A1:B2:C3:D4:E5:F6`.
public enum UIDText {
    /// `04A1B2C3D4E5F6`.
    public static func json(_ uid: [UInt8]) -> String {
        Hex.encode(uid, uppercase: true)
    }

    /// `04:A1:B2:C3:D4:E5:F6`.
    public static func description(_ uid: [UInt8]) -> String {
        Hex.encode(uid, uppercase: true, separator: ":")
    }

    /// The UID written as hex (upper or lower case; colons, spaces or dashes between bytes
    /// allowed): 4, 7 or 10 bytes; nil for anything else.
    public static func parse(_ text: String) -> [UInt8]? {
        let digits = text.filter { $0 != ":" && $0 != " " && $0 != "-" }
        guard let bytes = try? Hex.decode(digits, allowSeparators: false), [4, 7, 10].contains(bytes.count)
        else { return nil }
        return bytes
    }
}
