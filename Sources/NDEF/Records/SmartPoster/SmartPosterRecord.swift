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
