import HexText

/// A smart poster: a URI with titles, a recommended action, icons and more
/// (NFC Forum Smart Poster RTD 1.0, type `Sp`).
///
/// The payload is an NDEF message (Smart Poster RTD 1.0, section 3) holding exactly one URI
/// record, any number of title (text) records with at most one per language, and at most
/// one each of the action (`act`), size (`s`) and type (`t`) records, plus icons (media
/// records of an `image/*` or `video/*` type). Any other record is kept byte for byte in
/// ``extraRecords``, in order.
///
/// ``makeRecord()`` writes the URI first, then titles, action, size, type, icons and the
/// extra records. The ID fields of the URI, title, action, size, type and icon records are
/// not kept.
public struct SmartPosterRecord: NDEFRecordConvertible {
    /// The well-known type name, `Sp`.
    public static let recordType: [UInt8] = [0x53, 0x70]
    /// The local type of the action record, `act` (Smart Poster RTD 1.0, section 3.3.3).
    public static let actionType: [UInt8] = [0x61, 0x63, 0x74]
    /// The local type of the size record, `s` (Smart Poster RTD 1.0, section 3.3.5).
    public static let sizeType: [UInt8] = [0x73]
    /// The local type of the type record, `t` (Smart Poster RTD 1.0, section 3.3.6).
    public static let typeRecordType: [UInt8] = [0x74]

    /// The name of this view in the registry, `"smartposter"`.
    public static let kind = "smartposter"

    /// The URI the poster points at (the one URI record).
    public var uri: String {
        get { parts.link.uri }
        set { parts.link = URIRecord(uri: newValue) }
    }
    /// The titles, at most one per language (Smart Poster RTD 1.0, section 3.3.2).
    public var titles: [TextRecord] {
        get { parts.titles }
        set { parts.titles = newValue }
    }
    /// The recommended action, when the poster has an action record.
    public var action: Action? {
        get { parts.action }
        set { parts.action = newValue }
    }
    /// The size in bytes of the resource the URI points at (size record `s`).
    public var size: UInt32? {
        get { parts.size }
        set { parts.size = newValue }
    }
    /// The media type of the resource the URI points at (type record `t`).
    public var mediaType: String? {
        get { parts.mediaType }
        set { parts.mediaType = newValue }
    }
    /// Icons: media records of an `image/*` or `video/*` type (section 3.3.4).
    public var icons: [Icon] {
        get { parts.icons }
        set { parts.icons = newValue }
    }
    /// Every other record of the poster's message, kept byte for byte and in order.
    public var extraRecords: [NFCNDEFPayload] {
        get { parts.extraRecords }
        set { parts.extraRecords = newValue }
    }

    /// The fields of a smart poster.
    struct Parts: Sendable, Hashable {
        var link: URIRecord
        var titles: [TextRecord]
        var action: Action?
        var size: UInt32?
        var mediaType: String?
        var icons: [Icon]
        var extraRecords: [NFCNDEFPayload]
    }

    private enum Storage: Sendable {
        /// Fields a caller gave or changed (boxed, so a parsed poster stays as small as its
        /// payload slice).
        indirect case parts(Parts)
        /// The payload of a parsed record, every rule of ``init(parsing:options:)`` checked: the
        /// fields are read from it when asked for, so parsing allocates nothing.
        case checked(ArraySlice<UInt8>)
    }

    private var storage: Storage

    /// The fields, read from the checked payload of a parsed record.
    var parts: Parts {
        get {
            switch storage {
            case .parts(let parts): parts
            case .checked(let payload): Self.parts(ofChecked: payload)
            }
        }
        set { storage = .parts(newValue) }
    }

    /// Creates a smart poster value; ``makeRecord()`` checks it.
    public init(
        uri: String,
        titles: [TextRecord] = [],
        action: Action? = nil,
        size: UInt32? = nil,
        mediaType: String? = nil,
        icons: [Icon] = [],
        extraRecords: [NFCNDEFPayload] = []
    ) {
        storage = .parts(
            Parts(
                link: URIRecord(uri: uri), titles: titles, action: action, size: size, mediaType: mediaType,
                icons: icons, extraRecords: extraRecords))
    }

    /// A smart poster read from `payload`, which ``init(parsing:options:)`` has checked.
    init(checkedPayload payload: ArraySlice<UInt8>) {
        storage = .checked(payload)
    }

    public static func == (lhs: SmartPosterRecord, rhs: SmartPosterRecord) -> Bool {
        lhs.parts == rhs.parts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parts)
    }

    /// The title in `language` (compared without regard to ASCII case), if there is one.
    public func title(language: String) -> String? {
        let wanted = RecordText.asciiLowercased(language)
        return titles.first { RecordText.asciiLowercased($0.language) == wanted }?.text
    }

    /// Reads TNF 1 records of type `Sp`.
    public static func matches(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Bool {
        format == .nfcWellKnown && type.equals("Sp")  // recordType, without loading it
    }

    /// A one-line summary for people.
    public var description: String {
        let parts = self.parts
        let action = parts.action
        var text = "Smart poster: \(parts.link.uri)"
        if let title = parts.titles.first { text += " \(title.text.quotedForDescription)" }
        if let action { text += ", action \(action)" }
        return text
    }
}

extension SmartPosterRecord {
    /// What a record of the poster's inner message is.
    enum Part {
        case uri, title, action, size, mediaType, icon, other
    }

    /// Classifies an inner record by type name format and type (Smart Poster RTD 1.0, section 3.3).
    static func part(of record: NFCNDEFPayload) -> Part {
        part(format: record.typeNameFormat, type: record.type)
    }

    /// Classifies an inner record by its TNF and TYPE field.
    static func part(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> Part {
        switch format {
        case .nfcWellKnown:
            // The type names as literals (URIRecord.recordType, TextRecord.recordType, actionType,
            // sizeType, typeRecordType), compared without loading the static arrays.
            if type.equals("U") { return .uri }
            if type.equals("T") { return .title }
            if type.equals("act") { return .action }
            if type.equals("s") { return .size }
            if type.equals("t") { return .mediaType }
            return .other
        case .media:
            return Icon.isIconType(type) ? .icon : .other
        default:
            return .other
        }
    }
}

extension SmartPosterRecord {
    /// An icon of a smart poster: a media record of an `image/*` or `video/*` type
    /// (Smart Poster RTD 1.0, section 3.3.4).
    ///
    /// JSON form: `{"mediaType": "image/png", "dataHex": "89504e47..."}`.
    public struct Icon: Sendable, Hashable, Codable {
        /// The media type, for example `image/png`.
        public var mediaType: String
        /// The image or video data.
        public var data: [UInt8]

        /// Creates an icon.
        public init(mediaType: String, data: [UInt8]) {
            self.mediaType = mediaType
            self.data = data
        }

        enum CodingKeys: String, CodingKey {
            case mediaType, dataHex
        }

        /// Decodes the JSON form described above.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.mediaType = try container.decode(String.self, forKey: .mediaType)
            self.data = try container.decodeHex(forKey: .dataHex)
        }

        /// Encodes the JSON form described above.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(mediaType, forKey: .mediaType)
            try container.encode(Hex.encode(data), forKey: .dataHex)
        }

        /// Whether a media record of this type is an icon: a valid media type whose top-level
        /// type is `image` or `video`, in any case.
        static func isIconType(_ type: some Collection<UInt8>) -> Bool {
            guard MediaRecord.isValidMediaType(type) else { return false }
            let lower = RecordText.asciiLowercased(String(decoding: type, as: UTF8.self))
            return lower.hasPrefix("image/") || lower.hasPrefix("video/")
        }
    }
}

extension SmartPosterRecord {
    /// The recommended action of a smart poster (Smart Poster RTD 1.0, section 3.3.3).
    ///
    /// Values 3-255 are reserved; they are kept as their raw code.
    public struct Action: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The action record's one byte.
        public var rawValue: UInt8

        /// Creates an action from its code.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// 0: do the action (open the URI, dial the number, send the message...).
        public static let execute = Action(rawValue: 0)
        /// 1: save for later.
        public static let save = Action(rawValue: 1)
        /// 2: open for editing.
        public static let open = Action(rawValue: 2)

        /// `"execute"`, `"save"` or `"open"`, or `nil` for a reserved code.
        public var name: String? {
            switch rawValue {
            case 0: "execute"
            case 1: "save"
            case 2: "open"
            default: nil
            }
        }

        /// The action with this name (`"execute"`, `"save"` or `"open"`).
        public init?(name: String) {
            switch name {
            case "execute": self = .execute
            case "save": self = .save
            case "open": self = .open
            default: return nil
            }
        }

        /// A one-line summary for people.
        public var description: String {
            name ?? "code \(rawValue)"
        }
    }
}

extension SmartPosterRecord {
    /// Builds the record: an NDEF message of the URI, titles, action, size, type, icons and
    /// extra records, in that order (Smart Poster RTD 1.0, section 3).
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when a title cannot be built, two titles
    ///   share a language, an icon's media type is not `image/*` or `video/*`, an extra
    ///   record would be read back as one of the typed parts, or the message cannot be
    ///   encoded.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        // The fields once: a parsed poster reads them from its payload on each access.
        let parts = self.parts
        let (uri, titles, action, size, mediaType, icons, extraRecords) = (
            parts.link.uri, parts.titles, parts.action, parts.size, parts.mediaType, parts.icons, parts.extraRecords
        )
        var records: [NFCNDEFPayload] = [try URIRecord(uri: uri).makeRecord()]
        var languages: Set<String> = []
        for title in titles {
            guard languages.insert(RecordText.asciiLowercased(title.language)).inserted else {
                throw NDEFError(.invalidValue, "two smart poster titles have the language \(title.language)")
            }
            records.append(try title.makeRecord())
        }
        if let action {
            records.append(NFCNDEFPayload(format: .nfcWellKnown, type: Self.actionType, payload: [action.rawValue]))
        }
        if let size {
            let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) }
            records.append(NFCNDEFPayload(format: .nfcWellKnown, type: Self.sizeType, payload: bytes))
        }
        if let mediaType {
            records.append(
                NFCNDEFPayload(format: .nfcWellKnown, type: Self.typeRecordType, payload: Array(mediaType.utf8)))
        }
        for icon in icons {
            let type = Array(icon.mediaType.utf8)
            guard Icon.isIconType(type) else {
                throw NDEFError(.invalidValue, "an icon needs an image/* or video/* media type, not \(icon.mediaType)")
            }
            records.append(NFCNDEFPayload(format: .media, type: type, payload: icon.data))
        }
        for (index, extra) in extraRecords.enumerated() where Self.part(of: extra) != .other {
            throw NDEFError(
                .invalidValue,
                "extra record \(index) would be read as a smart poster \(Self.part(of: extra)) record: set that field"
            )
        }
        records += extraRecords
        let payload: [UInt8]
        do {
            payload = try NFCNDEFMessage(records: records).encoded()
        } catch {
            throw NDEFError(.invalidValue, "smart poster message: \(error.reason)")
        }
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: payload)
    }
}

/// The JSON `value` of a smart poster:
///
/// ```json
/// {"uri": "https://example.com", "titles": [{"text": "Example", "language": "en", "encoding": "utf-8"}],
///  "action": "execute", "size": 1024, "mediaType": "text/html",
///  "icons": [{"mediaType": "image/png", "dataHex": "89504e47"}], "extraRecords": []}
/// ```
///
/// `action` is omitted when there is no action record; a reserved action code is written as
/// `"actionCode": n` instead. `size` and `mediaType` are omitted when absent. When decoding,
/// only `uri` is required.
extension SmartPosterRecord {
    enum CodingKeys: String, CodingKey {
        case uri, titles, action, actionCode, size, mediaType, icons, extraRecords
    }

    /// Decodes the JSON form described above.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        var action: Action?
        if let name = try container.decodeIfPresent(String.self, forKey: .action) {
            guard let known = Action(name: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .action,
                    in: container,
                    debugDescription: "action must be execute, save or open (or give actionCode), not \(name)"
                )
            }
            action = known
        } else if container.contains(.actionCode) {
            action = Action(rawValue: try container.decodeInteger(UInt8.self, forKey: .actionCode))
        }
        var size: UInt32?
        if container.contains(.size) {
            size = try container.decodeInteger(UInt32.self, forKey: .size)
        }
        self.init(
            uri: try container.decode(String.self, forKey: .uri),
            titles: try container.decodeIfPresent([TextRecord].self, forKey: .titles) ?? [],
            action: action,
            size: size,
            mediaType: try container.decodeIfPresent(String.self, forKey: .mediaType),
            icons: try container.decodeIfPresent([Icon].self, forKey: .icons) ?? [],
            extraRecords: try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .extraRecords) ?? []
        )
    }

    /// Encodes the JSON form described above.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let parts = self.parts  // once: a parsed poster reads its fields from its payload
        let (titles, action, size, mediaType, icons, extraRecords) = (
            parts.titles, parts.action, parts.size, parts.mediaType, parts.icons, parts.extraRecords
        )
        try container.encode(parts.link.uri, forKey: .uri)
        try container.encode(titles, forKey: .titles)
        if let action {
            if let name = action.name {
                try container.encode(name, forKey: .action)
            } else {
                try container.encode(Int(action.rawValue), forKey: .actionCode)
            }
        }
        if let size { try container.encode(size, forKey: .size) }
        if let mediaType { try container.encode(mediaType, forKey: .mediaType) }
        try container.encode(icons, forKey: .icons)
        try container.encode(extraRecords, forKey: .extraRecords)
    }
}
