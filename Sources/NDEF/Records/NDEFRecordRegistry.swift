/// The typed record views the library knows, most specific first.
///
/// A record is interpreted by the first view that matches it (so the Wi-Fi view, a media
/// type, comes before the generic media view). Records no view matches stay raw
/// ``NFCNDEFPayload`` values and are preserved byte for byte.
public enum NDEFRecordRegistry {
    /// Every built-in view, most specific first.
    public static let standard: [any NDEFRecordConvertible.Type] = [
        // Specific views first, then the generic per-TNF views.
        TextRecord.self,
        URIRecord.self,
        SmartPosterRecord.self,
        DeviceInformationRecord.self,
        // Connection handover.
        HandoverSelectRecord.self,
        HandoverRequestRecord.self,
        HandoverCarrierRecord.self,
        AndroidApplicationRecord.self,
        ExternalRecord.self,
        AbsoluteURIRecord.self,
        // Carrier configuration: specific media types before the generic media view.
        WiFiCredentialRecord.self,
        BluetoothOOBRecord.self,
        BluetoothLowEnergyOOBRecord.self,
        MediaRecord.self,
    ]

    /// The first built-in view that reads records of this format and type.
    public static func view(format: NFCTypeNameFormat, type: ArraySlice<UInt8>) -> (any NDEFRecordConvertible.Type)? {
        standard.first { $0.matches(format: format, type: type) }
    }

    /// The first built-in view that reads records with this kind name (for example `"text"`).
    public static func view(kind: String) -> (any NDEFRecordConvertible.Type)? {
        standard.first { $0.kind == kind }
    }
}
