extension SmartPosterRecord {
    /// Parses a Smart Poster RTD 1.0 payload: a strictly decoded NDEF message one nesting
    /// level deeper than `options` allows at this level (section 3).
    ///
    /// Every rule is checked here; the value keeps the checked payload and reads
    /// ``titles``, ``icons`` and the other fields from it when they are asked for.
    ///
    /// - Throws: ``NDEFError/Code/nestingTooDeep`` or ``NDEFError/Code/tooManyRecords`` when a
    ///   limit is hit, here or in a message nested in one of the extra records; otherwise
    ///   ``NDEFError/Code/invalidPayload`` when the inner message is malformed, has no URI
    ///   record or more than one, repeats a title language or an action, size or type
    ///   record, or when one of those records is malformed. Offsets are within this record's
    ///   payload where they can be known.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let payload = record.payload
        let innerOptions = try options.nested(at: 0)
        var checker = Checker(options: innerOptions)
        // A plain message (no chunks, NDEFMessageDecoder.isPlain) is valid as it stands; any
        // other goes through the strict decoder, which names what is wrong.
        if NDEFMessageDecoder.isPlain(payload, maximumRecordCount: innerOptions.maximumRecordCount) {
            // No chunks (the common case): each record is checked where it lies, as ranges of
            // the payload, without making it a record value first.
            try payload.withUnsafeBufferPointer { (buffer) throws(NDEFError) in
                var cursor = NDEFRecordCursor(buffer, base: payload.startIndex)
                while !cursor.isAtEnd, let inner = try? cursor.next(number: 0) {
                    try checker.check(
                        format: inner.format, type: payload[inner.type], payload: payload[inner.payload],
                        offset: inner.payload.lowerBound - payload.startIndex,
                        record: NFCNDEFPayload(
                            format: inner.format, in: payload, type: inner.type, identifier: inner.identifier,
                            payload: inner.payload, typeIsChecked: true))
                }
            }
        } else {
            let message: NDEFRecordSequence
            do {
                message = try NDEFRecordSequence(decoding: payload, options: innerOptions)
            } catch {
                switch error.code {
                case .nestingTooDeep, .tooManyRecords: throw error
                default: throw NDEFError(.invalidPayload, at: error.offset, "smart poster message: \(error.reason)")
                }
            }
            for inner in message {
                // A reassembled chunked record has no one place in the payload.
                let start = inner.payload.startIndex
                let offset =
                    inner.chunkSizes == nil && start >= payload.startIndex && start <= payload.endIndex
                    ? start - payload.startIndex : nil
                try checker.check(
                    format: inner.typeNameFormat, type: inner.type, payload: inner.payload, offset: offset,
                    record: inner)
            }
        }
        guard checker.hasURI else {
            throw NDEFError(.invalidPayload, "a smart poster needs a URI record, and this one has none")
        }
        self.init(checkedPayload: payload)
    }

    /// The fields of a payload ``init(parsing:options:)`` has checked (so no step here fails).
    static func parts(ofChecked payload: ArraySlice<UInt8>) -> Parts {
        var parts = Parts(
            link: URIRecord(uri: ""), titles: [], action: nil, size: nil, mediaType: nil, icons: [],
            extraRecords: [])
        for inner in NDEFRecordSequence(checked: payload) {
            switch part(of: inner) {
            case .uri:
                if let link = try? URIRecord(payload: inner.payload) { parts.link = link }
            case .title:
                if let title = try? TextRecord(payload: inner.payload) { parts.titles.append(title) }
            case .action:
                parts.action = inner.payload.first.map(Action.init(rawValue:))
            case .size:
                parts.size = inner.payload.reduce(0) { $0 << 8 | UInt32($1) }
            case .mediaType:
                parts.mediaType = String(decoding: inner.payload, as: UTF8.self)
            case .icon:
                parts.icons.append(
                    Icon(mediaType: String(decoding: inner.type, as: UTF8.self), data: Array(inner.payload)))
            case .other:
                parts.extraRecords.append(inner)
            }
        }
        return parts
    }

    /// Checks the parts of a smart poster's inner message one record at a time, keeping
    /// only what the rules about repeats need.
    private struct Checker {
        /// The limits for records inside the poster.
        let options: NDEFDecodingOptions
        private(set) var hasURI = false
        private var hasAction = false
        private var hasSize = false
        private var hasMediaType = false
        /// The first title's language code, and those of the titles after it: a poster has a
        /// title or two, so the array is made only for a second one.
        private var firstLanguage: ArraySlice<UInt8>?
        private var laterLanguages: [ArraySlice<UInt8>] = []

        init(options: NDEFDecodingOptions) {
            self.options = options
        }

        /// Checks one record of the inner message: its TNF, TYPE and payload, where its payload
        /// starts in the poster's payload (nil when it was chunked), and the record itself
        /// (made only for an extra record, whose nested messages are checked too).
        mutating func check(
            format: NFCTypeNameFormat,
            type: ArraySlice<UInt8>,
            payload: ArraySlice<UInt8>,
            offset: Int?,
            record: @autoclosure () -> NFCNDEFPayload
        ) throws(NDEFError) {
            /// `error` (found inside the record's payload) with its offset moved into the poster's payload.
            func relocated(_ error: NDEFError) -> NDEFError {
                if let offset { return error.shifted(by: offset) }
                var copy = error
                copy.offset = nil
                return copy
            }
            switch SmartPosterRecord.part(format: format, type: type) {
            case .uri:
                guard !hasURI else {
                    throw NDEFError(
                        .invalidPayload, at: offset, "a smart poster has exactly one URI record, this one has more")
                }
                do {
                    try URIRecord.check(payload: payload)
                } catch {
                    throw relocated(error)
                }
                hasURI = true
            case .title:
                do {
                    // UTF-16 text is checked by decoding it.
                    if try !TextRecord.check(payload: payload) { _ = try TextRecord(payload: payload) }
                } catch {
                    throw relocated(error)
                }
                // Text RTD 1.0, 3.2.1: the status byte's low six bits are the language code's
                // length, and the code follows it (TextRecord has checked both).
                let status = payload[payload.startIndex]
                let start = payload.startIndex + 1
                let language = payload[start..<start + Int(status & 0x3F)]
                // A linear search: a poster has a title or two, not enough for a set to pay.
                let repeated =
                    firstLanguage.map { RecordText.equalIgnoringASCIICase($0, language) } == true
                    || laterLanguages.contains { RecordText.equalIgnoringASCIICase($0, language) }
                guard !repeated else {
                    throw NDEFError(
                        .invalidPayload, at: offset,
                        "two smart poster titles have the language \(String(decoding: language, as: UTF8.self))")
                }
                if firstLanguage == nil { firstLanguage = language } else { laterLanguages.append(language) }
            case .action:
                guard !hasAction else {
                    throw NDEFError(.invalidPayload, at: offset, "a smart poster has more than one action record")
                }
                guard payload.count == 1 else {
                    throw NDEFError(.invalidPayload, at: offset, "an action record holds 1 byte, not \(payload.count)")
                }
                hasAction = true
            case .size:
                guard !hasSize else {
                    throw NDEFError(.invalidPayload, at: offset, "a smart poster has more than one size record")
                }
                guard payload.count == 4 else {
                    throw NDEFError(.invalidPayload, at: offset, "a size record holds 4 bytes, not \(payload.count)")
                }
                hasSize = true
            case .mediaType:
                guard !hasMediaType else {
                    throw NDEFError(.invalidPayload, at: offset, "a smart poster has more than one type record")
                }
                do {
                    try RecordText.checkUTF8(payload, at: 0, "the type record")
                } catch {
                    throw relocated(error)
                }
                hasMediaType = true
            case .icon:
                break  // any bytes: the media type (checked by the decoder) says what they are
            case .other:
                // Keeps messages nested in an extra record within the limits, so the poster as
                // a whole stays within NDEFDecodingOptions.maximumNestingDepth.
                do {
                    try NestedRecordLimits.check(record(), options: options)
                } catch {
                    throw relocated(error)
                }
            }
        }
    }
}
