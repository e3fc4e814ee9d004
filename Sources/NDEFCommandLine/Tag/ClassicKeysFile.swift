import CommandLineKit
import JSONSupport
import TagMemory

/// `--keys-file FILE`: the MIFARE Classic keys a command may try, and the key B a format
/// installs, from a file only (keys never come on the command line, and no output shows one).
///
/// Two forms, told apart by the first character that is not white space:
/// - JSON (`{`): `{"keys": ["A0B1C2D3E4F5"], "sectors": {"5": ["112233445566"]},
///   "keyB": "0123456789AB"}`; every member is optional, no other is allowed.
/// - Lines (``TagMemory/MifareClassicKeyring/init(linesOf:)``): one key per line, `sector N
///   KEY`, `key-b KEY`, `#` comments.
enum ClassicKeysFile {
    static let option = OptionSpec.option(
        "keys-file", value: "file",
        help:
            "MIFARE Classic keys: a JSON object {\"keys\": [...], \"sectors\": {\"N\": [...]}, \"keyB\": \"...\"} or one "
            + "key per line ('sector N KEY', 'key-b KEY'); keys are 12 hex digits. Keys are never taken on the "
            + "command line.")

    /// The largest keys file read: room for a key for every sector many times over.
    static let maximumSize = 64 * 1024

    /// The keyring of `--keys-file`, nil without the option.
    ///
    /// - Throws: ``ExitStatus/noInput`` for a file that cannot be read; ``ExitStatus/dataError``
    ///   for anything but a regular file and for content that is no keys file (the reason
    ///   names the line or member, never a key).
    static func keyring(_ values: ParsedValues) throws(CommandLineError) -> MifareClassicKeyring? {
        guard let path = values.value(option.long) else { return nil }
        let bytes = try FileAccess.readFile(path: path, limit: maximumSize)
        let name = "--\(option.long) \(InputReader.name(of: path))"
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw CommandLineError(.dataError, "\(name): not UTF-8 text")
        }
        do throws(TagMemoryError) {
            if text.first(where: { !$0.isWhitespace }) == "{" { return try keyring(json: bytes, name: name) }
            return try MifareClassicKeyring(linesOf: text)
        } catch {
            throw CommandLineError(.dataError, "\(name): \(error.reason)")
        }
    }

    /// The keyring of a JSON keys file.
    static func keyring(json bytes: [UInt8], name: String) throws(TagMemoryError) -> MifareClassicKeyring {
        let value: JSONValue
        do {
            value = try JSONValue.parse(
                bytes,
                options: JSONParseOptions(
                    maximumDepth: 4, rejectsDuplicateKeys: true, rejectsInvalidUTF8: true, rejectsLoneSurrogates: true))
        } catch {
            throw TagMemoryError(.invalidArgument, "not JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw TagMemoryError(.invalidArgument, "the keys are an object {\"keys\": [...], \"keyB\": \"...\"}")
        }
        var keyring = MifareClassicKeyring()
        for member in members {
            switch member.key {
            case "keys": keyring.candidates = try keys(member.value, "\"keys\"")
            case "keyB":
                guard let text = member.value.string else {
                    throw TagMemoryError(.invalidArgument, "\"keyB\" is a string")
                }
                keyring.keyBToInstall = try key(text, "\"keyB\"")
            case "sectors":
                guard case .object(let sectors) = member.value else {
                    throw TagMemoryError(.invalidArgument, "\"sectors\" is an object of sector numbers")
                }
                for sector in sectors {
                    guard let number = Int(sector.key), (0..<MifareClassicSector.maximumCount).contains(number) else {
                        throw TagMemoryError(
                            .invalidArgument, "\"sectors\": \"\(sector.key)\" is no sector from 0 to 39")
                    }
                    keyring.sectorCandidates[number] = try keys(sector.value, "\"sectors\".\"\(number)\"")
                }
            default:
                throw TagMemoryError(
                    .invalidArgument, "unknown member \"\(member.key)\"; members: \"keys\", \"sectors\", \"keyB\"")
            }
        }
        return keyring
    }

    /// The keys of a JSON array of strings at `place`.
    private static func keys(_ value: JSONValue, _ place: String) throws(TagMemoryError) -> [MifareClassicKey] {
        guard case .array(let items) = value else { throw TagMemoryError(.invalidArgument, "\(place) is an array") }
        var keys: [MifareClassicKey] = []
        for (index, item) in items.enumerated() {
            guard let text = item.string else {
                throw TagMemoryError(.invalidArgument, "\(place)[\(index)] is a string of 12 hex digits")
            }
            keys.append(try key(text, "\(place)[\(index)]"))
        }
        return keys
    }

    /// The key `text` at `place`; the error never repeats the text.
    private static func key(_ text: String, _ place: String) throws(TagMemoryError) -> MifareClassicKey {
        do {
            return try MifareClassicKey(hex: text)
        } catch {
            throw TagMemoryError(.invalidArgument, "\(place): a key is 12 hex digits (6 bytes)")
        }
    }
}
