import NFCSession

/// A failed libnfc call: the result code, the call and the device.
///
/// ``check(_:_:device:)`` is the one place where libnfc's negative results (`NFC_E*` of
/// `nfc/nfc.h`) become errors, and ``readerError`` the one place they become the session's
/// ``NFCSession/NFCReaderError``. A code libnfc does not define is kept as it is (``LibNFCStatusCode``).
/// Errors are equal when their codes are.
public struct LibNFCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The negative libnfc result, ``LibNFCStatusCode/rfTransmission`` (`-20`).
    public let code: LibNFCStatusCode
    /// The libnfc call that failed, `nfc_initiator_transceive_bytes`.
    public let operation: String
    /// The device's connection string, if known.
    public let device: String?

    /// An error for `code`, returned by `operation`.
    public init(code: LibNFCStatusCode, operation: String, device: String? = nil) {
        self.code = code
        self.operation = operation
        self.device = device
    }

    /// The non-negative result of a libnfc call (a count of bytes, bits or targets), or the error a
    /// negative one stands for.
    @discardableResult
    public static func check(_ result: Int32, _ operation: String, device: String? = nil) throws(LibNFCError) -> Int {
        guard result < 0 else { return Int(result) }
        throw LibNFCError(code: LibNFCStatusCode(rawValue: result), operation: operation, device: device)
    }

    /// What went wrong, for people; unknown codes say so.
    public var message: String {
        code.meaning ?? "libnfc error \(code.rawValue), a code libnfc 1.8.0 does not define"
    }

    public var description: String {
        var place = operation
        if let device { place += " on \(device)" }
        return "\(message) (\(code) from \(place))"
    }

    /// The session error: the code's ``LibNFCStatusCode/readerErrorCode`` (reader-unavailable for
    /// an unknown code), with a reason naming the call, the device and the libnfc code.
    public var readerError: NFCReaderError {
        NFCReaderError(code.readerErrorCode, description)
    }

    /// Errors are equal when their codes are.
    public static func == (lhs: LibNFCError, rhs: LibNFCError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
