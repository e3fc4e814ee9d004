/// The sizes and format of one record: what encoding needs to validate it and lay it out.
///
/// Kept apart from the bytes so the encoder can read it through a pointer without copying the
/// record (and retaining its buffer).
struct NDEFRecordShape {
    var format: NFCTypeNameFormat
    var typeCount: Int
    var identifierCount: Int
    var payloadCount: Int
    /// The record's own chunk layout (``NFCNDEFPayload/chunkSizes``), when it has two or more.
    var chunkSizes: [Int]?

    init(_ record: UnsafePointer<NFCNDEFPayload>) {
        format = record.pointee.typeNameFormat
        typeCount = record.pointee.typeCount
        identifierCount = record.pointee.identifierCount
        payloadCount = record.pointee.payloadCount
        if let sizes = record.pointee.chunkSizes, sizes.count > 1 { chunkSizes = sizes }
    }

    /// The bytes the record takes, split into chunks of `chunkSize` when it is given, else into
    /// the record's own ``chunkSizes`` when it has them (NDEF 1.0, 3.2).
    func encodedSize(chunkSize: Int?) -> Int {
        let fixed = typeCount + identifierCount + (identifierCount == 0 ? 0 : 1)
        if chunkSize == nil, let chunkSizes {
            return chunkSizes.reduce(fixed) { $0 + 2 + ($1 < 256 ? 1 : 4) + $1 }
        }
        guard let chunkSize, chunkSize > 0, payloadCount > chunkSize else {
            return 2 + (payloadCount < 256 ? 1 : 4) + fixed + payloadCount
        }
        let fullChunks = payloadCount / chunkSize
        let rest = payloadCount % chunkSize
        var size = fixed + payloadCount + fullChunks * (2 + (chunkSize < 256 ? 1 : 4))
        if rest > 0 { size += 2 + (rest < 256 ? 1 : 4) }
        return size
    }

    /// Checks the rules a record must meet on its own (NDEF 1.0, 3.2.6), naming `index` in errors.
    func validate(index: Int) throws(NDEFError) {
        var which: String { "record \(index)" }  // built only when an error is thrown
        switch format {
        case .empty:
            if typeCount != 0 || identifierCount != 0 || payloadCount != 0 {
                throw NDEFError(
                    .emptyRecordNotEmpty, "\(which): an empty (TNF 0) record must have no type, ID or payload")
            }
        case .unknown:
            if typeCount != 0 { throw NDEFError(.typeNotAllowed, "\(which): an unknown (TNF 5) record has no type") }
        case .unchanged:
            throw NDEFError(
                .unexpectedUnchanged, "\(which): TNF 6 (unchanged) is only for chunks, which the encoder makes")
        case .reserved:
            throw NDEFError(.reservedTypeNameFormat, "\(which): TNF 7 is reserved and cannot be encoded")
        case .nfcWellKnown, .media, .absoluteURI, .nfcExternal:
            if typeCount == 0 { throw NDEFError(.missingType, "\(which): a \(format.name) record needs a type") }
        }
        if typeCount > 255 { throw NDEFError(.typeTooLong, "\(which): type is \(typeCount) bytes, at most 255") }
        if identifierCount > 255 {
            throw NDEFError(.identifierTooLong, "\(which): ID is \(identifierCount) bytes, at most 255")
        }
        if UInt64(payloadCount) > UInt64(UInt32.max) {
            throw NDEFError(.payloadTooLong, "\(which): payload is \(payloadCount) bytes, at most 4294967295")
        }
        if let chunkSizes {
            guard format != .empty else {
                throw NDEFError(.invalidChunkSize, "\(which): an empty (TNF 0) record cannot be chunked")
            }
            guard chunkSizes.allSatisfy({ $0 >= 0 && UInt64($0) <= UInt64(UInt32.max) }),
                chunkSizes.reduce(0, { $0 &+ $1 }) == payloadCount
            else {
                throw NDEFError(
                    .invalidChunkSize,
                    "\(which): its chunk sizes \(chunkSizes) do not add up to its \(payloadCount)-byte payload")
            }
        }
    }
}
