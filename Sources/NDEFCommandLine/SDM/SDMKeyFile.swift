import CommandLineKit
import HexText

/// A key in a file, as `sdm` commands take them: 32 hex characters (a final line break
/// allowed) or 16 raw bytes.
enum SDMKeyFile {
    static func read(_ path: String, option: OptionSpec) throws(CommandLineError) -> [UInt8] {
        let bytes = try FileAccess.readFile(path: path, limit: 4096)
        if bytes.count == 16 { return bytes }
        var text = bytes[...]
        while let last = text.last, last == 0x0A || last == 0x0D { text = text.dropLast() }
        let digits = String(decoding: text, as: UTF8.self)
        guard digits.utf8.count == 32, let key = try? Hex.decode(digits), key.count == 16 else {
            throw CommandLineError(
                .dataError,
                "--\(option.long) \(InputReader.name(of: path)): a key file holds 32 hex characters (or 16 raw bytes)")
        }
        return key
    }
}
