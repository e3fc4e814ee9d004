public import NDEF

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension NFCNDEFMessage {
    /// Decodes a message from `Data`, enforcing every rule of NDEF 1.0 (strict).
    public init(data: Data, options: NDEFDecodingOptions = .init()) throws(NDEFError) {
        try self.init(decoding: [UInt8](data), options: options)
    }

    /// The encoded message as `Data` (see ``NFCNDEFMessage/encoded(chunkSize:)``).
    public func encodedData(chunkSize: Int? = nil) throws(NDEFError) -> Data {
        Data(try encoded(chunkSize: chunkSize))
    }
}

extension NFCNDEFPayload {
    /// Creates a record from `Data` fields, as CoreNFC's `NFCNDEFPayload(format:type:identifier:payload:)`.
    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.init(
            format: format, type: [UInt8](type)[...], identifier: [UInt8](identifier)[...],
            payload: [UInt8](payload)[...])
    }

    /// The payload as `Data`.
    public var payloadData: Data { Data(payload) }
}
