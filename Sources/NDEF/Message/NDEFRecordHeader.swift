/// The flags byte that starts every NDEF record (NFC Forum NDEF 1.0, section 3.2).
struct NDEFRecordHeader: Hashable {
    static let messageBegin: UInt8 = 0x80
    static let messageEnd: UInt8 = 0x40
    static let chunk: UInt8 = 0x20
    static let shortRecord: UInt8 = 0x10
    static let identifierLength: UInt8 = 0x08
    static let formatMask: UInt8 = 0x07

    var byte: UInt8

    var isMessageBegin: Bool { byte & Self.messageBegin != 0 }
    var isMessageEnd: Bool { byte & Self.messageEnd != 0 }
    var isChunked: Bool { byte & Self.chunk != 0 }
    var isShortRecord: Bool { byte & Self.shortRecord != 0 }
    var hasIdentifierLength: Bool { byte & Self.identifierLength != 0 }
}
