/// The Error record (`err`, a local type inside a Handover Select record): why the selector
/// could not process a handover request.
///
/// NFC Forum Connection Handover 1.3, section 6.3: error reason (1 byte; 0 is reserved) and
/// error data. Reason 1 (temporary memory constraints) carries 1 byte, the time in
/// milliseconds after which to retry; reason 2 (permanent memory constraints) 4 bytes, the
/// largest message accepted; reason 3 (carrier specific constraints) 1 byte, a retry time in
/// milliseconds. Other reasons are reserved and their data is kept as it is.
public struct HandoverSelectError: Sendable, Hashable {
    /// The error reason, 1-255.
    public var reason: UInt8
    /// The error data.
    public var data: [UInt8]

    /// Creates error information.
    public init(reason: UInt8, data: [UInt8]) {
        self.reason = reason
        self.data = data
    }

    /// The record type of an Error record, `err`.
    static let recordType = "err"

    /// Reads an `err` payload, checking the data size of reasons 1-3.
    init(payload: ArraySlice<UInt8>, code: NDEFError.Code = .invalidPayload) throws(NDEFError) {
        var reader = CarrierByteReader(payload, context: "handover error record")
        let reason = try reader.readByte("error reason")
        let data = reader.readRest()
        try Self.check(reason: reason, dataCount: data.count, code: code)
        self.reason = reason
        self.data = Array(data)
    }

    static func check(reason: UInt8, dataCount: Int, code: NDEFError.Code) throws(NDEFError) {
        let offset = code == .invalidPayload ? 0 : nil
        guard reason != 0 else {
            throw NDEFError(code, at: offset, "handover error record: error reason 0 is reserved")
        }
        let expected: Int? =
            switch reason {
            case 1, 3: 1
            case 2: 4
            default: nil
            }
        if let expected, dataCount != expected {
            throw NDEFError(
                code,
                at: offset.map { _ in 1 },
                "handover error record: reason \(reason) has \(expected) data bytes, not \(dataCount)"
            )
        }
    }

    /// The `err` record.
    func record() throws(NDEFError) -> NFCNDEFPayload {
        try Self.check(reason: reason, dataCount: data.count, code: .invalidValue)
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: [reason] + data)
    }
}
