/// A record read through the built-in typed view for its kind: one case per view of
/// ``NDEFRecordRegistry/standard``.
///
/// Not frozen: a later version may add views for more kinds of record (and cases here), so a
/// `switch` over it handles the kinds it knows and ends with a branch for the rest, as below
/// (`case let other?`), which ``value`` serves for any kind.
///
/// ```swift
/// switch try record.view() {
/// case .uri(let link)?: print("link:", link.uri)
/// case .text(let text)?: print("text (\(text.language)):", text.text)
/// case let other?: print(other.value)
/// case nil: print("a record no view reads:", record.typeString ?? "?")
/// }
/// ```
///
/// The views keep the checked bytes of the record they were read from and build strings
/// when they are read (``URIRecord/uri``, ``TextRecord/text``, ...), and their payloads are
/// slices of the record, so reading every record of a message through its view copies no
/// payload and allocates nothing for the common kinds.
public enum NDEFRecordView: Sendable, Hashable {
    // The views of records that hold many fields are boxed (their parsing allocates anyway),
    // so the common ones (text, URI, smart poster, media) move as a small value.
    case text(TextRecord)
    case uri(URIRecord)
    case smartPoster(SmartPosterRecord)
    indirect case deviceInformation(DeviceInformationRecord)
    indirect case handoverSelect(HandoverSelectRecord)
    indirect case handoverRequest(HandoverRequestRecord)
    case handoverCarrier(HandoverCarrierRecord)
    case androidApplication(AndroidApplicationRecord)
    case external(ExternalRecord)
    case absoluteURI(AbsoluteURIRecord)
    indirect case wifiCredential(WiFiCredentialRecord)
    indirect case bluetooth(BluetoothOOBRecord)
    indirect case bluetoothLowEnergy(BluetoothLowEnergyOOBRecord)
    case media(MediaRecord)

    /// The view's value, for code that handles every kind alike (its JSON, its description).
    public var value: any NDEFRecordConvertible {
        switch self {
        case .text(let value): value
        case .uri(let value): value
        case .smartPoster(let value): value
        case .deviceInformation(let value): value
        case .handoverSelect(let value): value
        case .handoverRequest(let value): value
        case .handoverCarrier(let value): value
        case .androidApplication(let value): value
        case .external(let value): value
        case .absoluteURI(let value): value
        case .wifiCredential(let value): value
        case .bluetooth(let value): value
        case .bluetoothLowEnergy(let value): value
        case .media(let value): value
        }
    }
}

extension NFCNDEFPayload {
    /// This record through the first built-in typed view that reads it
    /// (``NDEFRecordRegistry/standard`` order), or `nil` if none does.
    ///
    /// - Throws: ``NDEFError`` when a view matches the type but the payload is malformed.
    public consuming func view(options: NDEFDecodingOptions = .init()) throws(NDEFError) -> NDEFRecordView? {
        // The same choice as NDEFRecordRegistry.view(format:type:), made by format first
        // instead of asking each view in turn (NDEFRecordViewTests checks they agree).
        switch typeNameFormat {
        case .nfcWellKnown:
            if type.count == 1 {
                switch type.first {
                case 0x55: return .uri(try URIRecord(payload: payload))  // "U"
                case 0x54: return .text(try TextRecord(payload: payload))  // "T"
                default: return nil
                }
            }
            if SmartPosterRecord.matches(self) {
                return .smartPoster(try SmartPosterRecord(parsing: self, options: options))
            }
            if DeviceInformationRecord.matches(self) {
                return .deviceInformation(try DeviceInformationRecord(parsing: self, options: options))
            }
            if HandoverSelectRecord.matches(self) {
                return .handoverSelect(try HandoverSelectRecord(parsing: self, options: options))
            }
            if HandoverRequestRecord.matches(self) {
                return .handoverRequest(try HandoverRequestRecord(parsing: self, options: options))
            }
            if HandoverCarrierRecord.matches(self) {
                return .handoverCarrier(try HandoverCarrierRecord(parsing: self, options: options))
            }
            return nil
        case .nfcExternal:
            if AndroidApplicationRecord.matches(self) {
                return .androidApplication(try AndroidApplicationRecord(payload: payload))
            }
            return .external(try ExternalRecord(checking: self))
        case .absoluteURI:
            return .absoluteURI(try AbsoluteURIRecord(checking: self))
        case .media:
            if WiFiCredentialRecord.matches(self) {
                return .wifiCredential(try WiFiCredentialRecord(parsing: self, options: options))
            }
            if BluetoothOOBRecord.matches(self) {
                return .bluetooth(try BluetoothOOBRecord(parsing: self, options: options))
            }
            if BluetoothLowEnergyOOBRecord.matches(self) {
                return .bluetoothLowEnergy(try BluetoothLowEnergyOOBRecord(parsing: self, options: options))
            }
            return .media(try MediaRecord(checking: self))
        case .empty, .unknown, .unchanged, .reserved:
            return nil
        }
    }

    /// This record through the first built-in typed view that reads it, or `nil` if none does:
    /// ``view(options:)``'s value.
    ///
    /// - Throws: ``NDEFError`` when a view matches the type but the payload is malformed.
    public func interpreted(options: NDEFDecodingOptions = .init()) throws(NDEFError) -> (any NDEFRecordConvertible)? {
        try view(options: options)?.value
    }
}
