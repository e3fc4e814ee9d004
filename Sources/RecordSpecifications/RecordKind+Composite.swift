import CommandLineKit
import HexText
import NDEF

extension RecordKind {
    /// `wifi <ssid> ...`: a Wi-Fi Simple Configuration credential (`application/vnd.wfa.wsc`).
    ///
    /// The network key is read from a file or an environment variable, never from the command
    /// line, where other users of the machine can see it.
    package static let wifi: RecordKind = RecordKind(
        name: "wifi",
        abstract: "A Wi-Fi credential (application/vnd.wfa.wsc).",
        values: [Value(name: "ssid", presence: .required)],
        options: [
            .option(
                "auth",
                value: "name",
                values: wifiAuthentications,
                help: "Authentication (default: wpa2-personal with a key, else open)."
            ),
            .option(
                "encryption",
                value: "name",
                values: wifiEncryptions,
                help: "Encryption (default: aes with a key, else none)."
            ),
            .option("mac", value: "mac", help: "The access point's MAC address (default: ff:ff:ff:ff:ff:ff)."),
            .option("key-file", value: "path", help: "Read the network key from <path> (one line)."),
            .option("key-env", value: "var", help: "Read the network key from environment variable <var>."),
        ],
        choices: [Choice(members: [.option("key-file"), .option("key-env")], isRequired: false)]
    ) { spec, inputs throws(RecordSpecError) in
        var value: [String: TypedRecordJSON.Value] = ["ssid": .string(spec.value("ssid") ?? "")]
        let key = try networkKey(of: spec, inputs: inputs)
        if let key { value["networkKey"] = .string(key) }
        if let auth = spec.option("auth") { value["authentication"] = .string(auth) }
        if let encryption = spec.option("encryption") { value["encryption"] = .string(encryption) }
        if let mac = spec.option("mac") { value["macAddress"] = .string(mac) }
        return [try TypedRecordJSON.record(format: .media, type: "application/vnd.wfa.wsc", value: value, for: spec)]
    }

    /// The authentication names of the Wi-Fi view (``WiFiAuthenticationType``).
    package static let wifiAuthentications = [
        "open", "wpa-personal", "shared", "wpa-enterprise", "wpa2-enterprise", "wpa2-personal",
        "wpa-wpa2-personal", "wpa3-personal", "wpa2-wpa3-personal",
    ]

    /// The encryption names of the Wi-Fi view (``WiFiEncryptionType``).
    package static let wifiEncryptions = ["none", "wep", "tkip", "aes", "aes-tkip"]

    /// The network key of a `wifi` specification, from `--key-file` or `--key-env`.
    private static func networkKey(of spec: RecordSpec, inputs: any RecordInputs) throws(RecordSpecError) -> String? {
        if let path = spec.option("key-file") {
            var bytes = try inputs.read(path, for: "--key-file of \(spec.label)")
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
            guard let key = String(validating: bytes, as: UTF8.self) else {
                throw .usage("The network key in \(inputName(path)) is not UTF-8 text")
            }
            return key
        }
        if let name = spec.option("key-env") {
            guard let key = inputs.environment(name) else {
                throw .usage("The environment variable '\(name)' given to --key-env of \(spec.label) is not set")
            }
            return key
        }
        return nil
    }

    /// `smartposter <uri> ...`: NFC Forum Smart Poster RTD 1.0.
    package static let smartPoster: RecordKind = RecordKind(
        name: "smartposter",
        abstract: "A Smart Poster (NFC Forum Smart Poster RTD).",
        values: [Value(name: "uri", presence: .required)],
        options: [
            .option(
                "title",
                value: "text[@lang]",
                repeatable: true,
                help: "A title; the part after the last @ is its language (default: en)."
            ),
            .option("action", value: "action", values: ["execute", "save", "open"], help: "The recommended action."),
            .option("icon", value: "path", help: "An icon: a .png, .jpg, .jpeg, .gif or .svg file."),
            .option("size", value: "n", help: "The size of the linked content in bytes."),
            .option("type", value: "media-type", help: "The media type of the linked content."),
        ],
        choices: []
    ) { spec, inputs throws(RecordSpecError) in
        var value: [String: TypedRecordJSON.Value] = ["uri": .string(spec.value("uri") ?? "")]
        let titles = spec.all("title").map { title -> TypedRecordJSON.Value in
            let (text, language) = splitTitle(title)
            return .object(["text": .string(text), "language": .string(language)])
        }
        if !titles.isEmpty { value["titles"] = .array(titles) }
        if let action = spec.option("action") { value["action"] = .string(action) }
        if let size = spec.option("size") {
            guard let number = UInt32(size), let integer = Int(exactly: number) else {
                let option = RecordKind.smartPoster.option("size") ?? .option("size", value: "n", help: "")
                throw .invalidValue(size, for: option, reason: "expected a whole number from 0 to 4294967295")
            }
            value["size"] = .integer(integer)
        }
        if let type = spec.option("type") { value["mediaType"] = .string(type) }
        if let path = spec.option("icon") {
            let mediaType = try iconMediaType(path)
            let data = try inputs.read(path, for: "--icon of \(spec.label)")
            value["icons"] = .array([
                .object(["mediaType": .string(mediaType), "dataHex": .string(Hex.encode(data))])
            ])
        }
        return [try TypedRecordJSON.record(format: .nfcWellKnown, type: "Sp", value: value, for: spec)]
    }

    /// `TEXT@LANG` split at the last `@` when what follows looks like a language tag; else (`TEXT`, `en`).
    package static func splitTitle(_ title: String) -> (text: String, language: String) {
        guard let at = title.lastIndex(of: "@") else { return (title, "en") }
        let language = title[title.index(after: at)...]
        let isTag =
            !language.isEmpty && language.count <= 35
            && language.utf8.allSatisfy {
                ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || $0 == 0x2D
            }
        guard isTag else { return (title, "en") }
        return (String(title[..<at]), String(language))
    }

    /// The media type of an icon file, from its extension.
    package static func iconMediaType(_ path: String) throws(RecordSpecError) -> String {
        let name = path.split(separator: "/").last ?? ""
        let fileExtension = name.contains(".") ? String(name.split(separator: ".").last ?? "").lowercased() : ""
        switch fileExtension {
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "svg": return "image/svg+xml"
        default:
            let option = smartPoster.option("icon") ?? .option("icon", value: "path", help: "")
            throw .invalidValue(
                path,
                for: option,
                reason:
                    "the icon's media type comes from its file name, which must end in .png, .jpg, .jpeg, .gif or .svg"
            )
        }
    }
}
