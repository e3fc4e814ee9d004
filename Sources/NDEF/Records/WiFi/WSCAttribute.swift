import HexText

/// One Wi-Fi Simple Configuration attribute: a 2-byte type, a 2-byte length (both big-endian)
/// and the value.
///
/// Wi-Fi Simple Configuration Technical Specification 2.0, section 12 (Data Element
/// Definitions). Attributes nest: a Credential (0x100E) holds further attributes.
public struct WSCAttribute: Sendable, Hashable {
    /// The attribute type, for example 0x1045 (SSID).
    public var type: UInt16
    /// The attribute value (at most 65535 bytes).
    public var value: [UInt8]

    /// Creates an attribute.
    public init(type: UInt16, value: [UInt8]) {
        self.type = type
        self.value = value
    }
}

/// WSC attribute types this library reads (WSC 2.0, section 12, table 28).
enum WSCAttributeType {
    static let authenticationType: UInt16 = 0x1003
    static let credential: UInt16 = 0x100E
    static let encryptionType: UInt16 = 0x100F
    static let macAddress: UInt16 = 0x1020
    static let networkIndex: UInt16 = 0x1026
    static let networkKey: UInt16 = 0x1027
    static let ssid: UInt16 = 0x1045
    static let vendorExtension: UInt16 = 0x1049
    static let version: UInt16 = 0x104A
}

extension WSCAttribute {
    /// The Wi-Fi Alliance vendor ID that starts a WFA Vendor Extension (WSC 2.0, section 12).
    static let wfaVendorID: [UInt8] = [0x00, 0x37, 0x2A]

    /// Subelement IDs inside the WFA Vendor Extension (WSC 2.0, table 29).
    enum WFASubelement {
        static let version2: UInt8 = 0x00
        static let networkKeyShareable: UInt8 = 0x02
    }

    /// Four lower-case hex digits, for attribute types in messages.
    static func typeHex(_ value: UInt16) -> String {
        Hex.encode([UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)])
    }

    /// An attribute and where its value starts in the payload.
    struct Located {
        var attribute: WSCAttribute
        var valueOffset: Int
    }

    /// Reads a sequence of attributes filling `bytes` exactly; `base` is the payload offset of
    /// `bytes`.
    static func parseList(_ bytes: ArraySlice<UInt8>, base: Int, context: String) throws(NDEFError) -> [Located] {
        var reader = CarrierByteReader(bytes, context: context, base: base)
        var list: [Located] = []
        while !reader.isAtEnd {
            let type = try reader.readUInt16BigEndian("attribute type")
            let length = try reader.readUInt16BigEndian("length of attribute 0x\(typeHex(type))")
            let valueOffset = reader.offset
            let value = try reader.readBytes(Int(length), "value of attribute 0x\(typeHex(type))")
            list.append(Located(attribute: WSCAttribute(type: type, value: Array(value)), valueOffset: valueOffset))
        }
        return list
    }

    /// Appends `attributes` in order; throws when a value is longer than 65535 bytes.
    static func encode(_ attributes: [WSCAttribute], into bytes: inout [UInt8]) throws(NDEFError) {
        for attribute in attributes {
            guard let length = UInt16(exactly: attribute.value.count) else {
                throw NDEFError(
                    .invalidValue,
                    "WSC attribute 0x\(typeHex(attribute.type)) is \(attribute.value.count) bytes, at most 65535"
                )
            }
            CarrierCoding.appendBigEndian(attribute.type, to: &bytes)
            CarrierCoding.appendBigEndian(length, to: &bytes)
            bytes.append(contentsOf: attribute.value)
        }
    }

    /// The subelements of a WFA Vendor Extension value, or `nil` when the value is not one or
    /// its subelements do not fill it exactly.
    static func wfaSubelements(_ value: [UInt8]) -> [(id: UInt8, data: ArraySlice<UInt8>)]? {
        guard value.count >= 3, value.prefix(3).elementsEqual(wfaVendorID) else { return nil }
        var list: [(id: UInt8, data: ArraySlice<UInt8>)] = []
        var index = 3
        while index < value.count {
            guard value.count - index >= 2 else { return nil }
            let id = value[index]
            let length = Int(value[index + 1])
            guard value.count - index - 2 >= length else { return nil }
            list.append((id, value[index + 2..<index + 2 + length]))
            index += 2 + length
        }
        return list
    }

    /// A WFA Vendor Extension attribute holding one subelement.
    static func wfaExtension(subelement id: UInt8, data: [UInt8]) -> WSCAttribute {
        WSCAttribute(type: WSCAttributeType.vendorExtension, value: wfaVendorID + [id, UInt8(data.count)] + data)
    }
}
