/// The layout shared by Handover Request and Select records: a version byte, then an NDEF
/// message of local records (NFC Forum Connection Handover 1.3, sections 6.1 and 6.2).
enum HandoverPayload {
    /// Splits `payload` into the version and the nested records, decoded strictly one nesting
    /// level deeper. No bytes after the version means no records.
    ///
    /// Nested records that hold messages themselves (a handover or smart poster record among the
    /// extra records) count against the same limits, checked here.
    static func decode(
        _ payload: ArraySlice<UInt8>,
        options: NDEFDecodingOptions,
        context: String
    ) throws(NDEFError) -> (version: UInt8, records: [NFCNDEFPayload]) {
        var reader = CarrierByteReader(payload, context: context)
        let version = try reader.readByte("version")
        guard version >> 4 == 1 else {
            throw NDEFError(
                .invalidPayload,
                at: 0,
                "\(context): version \(CarrierCoding.versionString(version)) is not a 1.x version this library reads"
            )
        }
        let rest = reader.readRest()
        guard !rest.isEmpty else { return (version, []) }
        let inner = try options.nested(at: 1)
        let records: [NFCNDEFPayload]
        do {
            records = try NFCNDEFMessage(decoding: rest, options: inner).records
        } catch {
            if error.code == .nestingTooDeep || error.code == .tooManyRecords { throw error.shifted(by: 1) }
            throw NDEFError(
                .invalidPayload, at: error.offset.map { $0 + 1 }, "\(context): nested message: \(error.reason)")
        }
        for record in records {
            do {
                try NestedRecordLimits.check(record, options: inner)
            } catch {
                throw relocate(error, in: record, of: payload)
            }
        }
        return (version, records)
    }

    /// The version byte followed by `records` encoded as a message (nothing when empty).
    static func encode(version: UInt8, records: [NFCNDEFPayload]) throws(NDEFError) -> [UInt8] {
        guard !records.isEmpty else { return [version] }
        return [version] + (try NFCNDEFMessage(records: records).encoded())
    }

    /// Reads a record of `type` whose payload is `version` and `records` with `parse`, as a
    /// builder: any error is ``NDEFError/Code/invalidValue``.
    static func build<View>(
        type: String,
        version: UInt8,
        records: [NFCNDEFPayload],
        _ parse: (NFCNDEFPayload) throws(NDEFError) -> View
    ) throws(NDEFError) -> View {
        do {
            let payload = try encode(version: version, records: records)
            return try parse(NFCNDEFPayload(format: .nfcWellKnown, type: type, payload: payload))
        } catch {
            throw NDEFError(.invalidValue, error.reason)
        }
    }

    /// Reports `error`, found in the payload of `nested`, at its offset in the handover payload
    /// when `nested` was not reassembled from chunks (else without an offset).
    static func relocate(_ error: NDEFError, in nested: NFCNDEFPayload, of payload: ArraySlice<UInt8>) -> NDEFError {
        guard nested.chunkCount == 1 else {
            var copy = error
            copy.offset = nil
            return copy
        }
        return error.shifted(by: nested.payload.startIndex - payload.startIndex)
    }

    /// Whether `record` is the local well-known record `type` (`ac`, `err`, `cr`).
    static func isLocal(_ record: NFCNDEFPayload, _ type: String) -> Bool {
        record.hasType(.nfcWellKnown, type)
    }

    /// Reads the `ac` records among `records`, reporting errors at handover payload offsets.
    static func carriers(in records: [NFCNDEFPayload], of payload: ArraySlice<UInt8>) throws(NDEFError)
        -> [AlternativeCarrier]
    {
        var carriers: [AlternativeCarrier] = []
        for record in records where isLocal(record, AlternativeCarrier.recordType) {
            do {
                carriers.append(try AlternativeCarrier(payload: record.payload))
            } catch {
                throw relocate(error, in: record, of: payload)
            }
        }
        return carriers
    }
}
