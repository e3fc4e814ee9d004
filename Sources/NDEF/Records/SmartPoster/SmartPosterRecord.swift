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
        get { link.uri }
        set { link = URIRecord(uri: newValue) }
    }
    /// The URI record (a parsed one builds ``uri`` when it is read).
    private var link: URIRecord
    /// The titles, at most one per language (Smart Poster RTD 1.0, section 3.3.2).
    public var titles: [TextRecord]
    /// The recommended action, when the poster has an action record.
    public var action: Action?
    /// The size in bytes of the resource the URI points at (size record `s`).
    public var size: UInt32?
    /// The media type of the resource the URI points at (type record `t`).
    public var mediaType: String?
    /// Icons: media records of an `image/*` or `video/*` type (section 3.3.4).
    public var icons: [Icon]
    /// Every other record of the poster's message, kept byte for byte and in order.
    public var extraRecords: [NFCNDEFPayload]

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
        self.init(
            link: URIRecord(uri: uri), titles: titles, action: action, size: size, mediaType: mediaType, icons: icons,
            extraRecords: extraRecords)
    }

    /// Creates a smart poster value around its URI record.
    init(
        link: URIRecord,
        titles: [TextRecord],
        action: Action?,
        size: UInt32?,
        mediaType: String?,
        icons: [Icon],
        extraRecords: [NFCNDEFPayload]
    ) {
        self.link = link
        self.titles = titles
        self.action = action
        self.size = size
        self.mediaType = mediaType
        self.icons = icons
        self.extraRecords = extraRecords
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
        var text = "Smart poster: \(uri)"
        if let title = titles.first { text += " \(title.text.quotedForDescription)" }
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
        switch record.typeNameFormat {
        case .nfcWellKnown:
            // The type names as literals (URIRecord.recordType, TextRecord.recordType, actionType,
            // sizeType, typeRecordType), compared without loading the static arrays.
            let type = record.type
            if type.equals("U") { return .uri }
            if type.equals("T") { return .title }
            if type.equals("act") { return .action }
            if type.equals("s") { return .size }
            if type.equals("t") { return .mediaType }
            return .other
        case .media:
            return Icon.isIconType(record.type) ? .icon : .other
        default:
            return .other
        }
    }
}
