/// The JSON `value` of a Handover Select record.
///
/// ```json
/// {"version":"1.3","carriers":[{"powerState":"active","dataReference":"0",
///  "auxiliaryDataReferences":[]}],"error":{"reason":1,"dataHex":"10"},"extraRecords":[]}
/// ```
///
/// `carriers` entries are as in ``AlternativeCarrier``; `error` is present when the record has
/// an Error record; `extraRecords` holds the other nested records in the record JSON form.
/// When decoding, every key is optional (version 1.3, no carriers).
///
/// Decoding these keys lays the nested records out as the builder does. When that would not give
/// back this value's nested records (another order, an ID on an `ac` or `err` record, ...),
/// `records` lists every nested record in order, in the record JSON form; when decoding it
/// takes precedence over every key but `version`.
extension HandoverSelectRecord {
    enum CodingKeys: String, CodingKey {
        case version, carriers, error, extraRecords, records
    }

    /// The JSON form of ``HandoverSelectError``.
    struct ErrorJSON: Codable {
        var reason: UInt8
        var dataHex: String
    }

    /// Encodes the JSON form documented on this extension.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(versionString, forKey: .version)
        try container.encode(carriers, forKey: .carriers)
        if let error {
            try container.encode(ErrorJSON(reason: error.reason, dataHex: NDEFHex.encode(error.data)), forKey: .error)
        }
        try container.encode(extraRecords, forKey: .extraRecords)
        let rebuilt = try? HandoverSelectRecord(
            version: version, carriers: carriers, error: error, extraRecords: extraRecords)
        if rebuilt != self { try container.encode(records, forKey: .records) }
    }

    /// Decodes the JSON form documented on this extension, building the value as the builder does.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try HandoverCoding.version(container, .version)
        if let records = try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .records) {
            do {
                self = try HandoverSelectRecord(version: version, records: records)
            } catch {
                throw CarrierJSON.invalid(container, .records, error)
            }
            return
        }
        var errorInfo: HandoverSelectError?
        if let json = try container.decodeIfPresent(ErrorJSON.self, forKey: .error) {
            do {
                errorInfo = HandoverSelectError(reason: json.reason, data: try NDEFHex.decode(json.dataHex))
            } catch {
                throw CarrierJSON.invalid(container, .error, error)
            }
        }
        do {
            self = try HandoverSelectRecord(
                version: version,
                carriers: try container.decodeIfPresent([AlternativeCarrier].self, forKey: .carriers) ?? [],
                error: errorInfo,
                extraRecords: try container.decodeIfPresent([NFCNDEFPayload].self, forKey: .extraRecords) ?? []
            )
        } catch let error as NDEFError {
            throw CarrierJSON.invalid(container, .carriers, error)
        }
    }
}

/// JSON pieces shared by the handover views.
enum HandoverCoding {
    /// The version at `key` (`"1.3"`), 1.3 when absent.
    static func version<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) throws -> UInt8 {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return 0x13 }
        guard let version = CarrierCoding.versionByte(text) else {
            throw CarrierJSON.invalid(container, key, "a version is \"major.minor\", not \"\(text)\"")
        }
        return version
    }
}
