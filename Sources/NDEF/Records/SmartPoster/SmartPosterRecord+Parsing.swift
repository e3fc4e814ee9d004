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
        let message: NDEFRecordSequence
        do {
            message = try NDEFRecordSequence(decoding: payload, options: innerOptions)
        } catch {
            switch error.code {
            case .nestingTooDeep, .tooManyRecords: throw error
            default: throw NDEFError(.invalidPayload, at: error.offset, "smart poster message: \(error.reason)")
            }
        }
        var checker = Checker(payload: payload, options: innerOptions)
        for inner in message {
            try checker.check(inner)
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
        let payload: ArraySlice<UInt8>
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

        init(payload: ArraySlice<UInt8>, options: NDEFDecodingOptions) {
            self.payload = payload
            self.options = options
        }

        /// Where `inner`'s payload starts in the smart poster payload, when it is one piece of it.
        private func offset(of inner: NFCNDEFPayload) -> Int? {
            let start = inner.payload.startIndex
            guard inner.chunkSizes == nil, start >= payload.startIndex, start <= payload.endIndex else { return nil }
            return start - payload.startIndex
        }

        /// `error` (found inside `inner`'s payload) with its offset moved into the poster's payload.
        private func relocated(_ error: NDEFError, from inner: NFCNDEFPayload) -> NDEFError {
            if let base = offset(of: inner) { return error.shifted(by: base) }
            var copy = error
            copy.offset = nil
            return copy
        }

        mutating func check(_ inner: NFCNDEFPayload) throws(NDEFError) {
            switch SmartPosterRecord.part(of: inner) {
            case .uri:
                guard !hasURI else {
                    throw NDEFError(
                        .invalidPayload, at: offset(of: inner),
                        "a smart poster has exactly one URI record, this one has more")
                }
                do {
                    _ = try URIRecord(payload: inner.payload)
                } catch {
                    throw relocated(error, from: inner)
                }
                hasURI = true
            case .title:
                do {
                    _ = try TextRecord(payload: inner.payload)
                } catch {
                    throw relocated(error, from: inner)
                }
                // Text RTD 1.0, 3.2.1: the status byte's low six bits are the language code's
                // length, and the code follows it (TextRecord has checked both).
                let status = inner.payload[inner.payload.startIndex]
                let start = inner.payload.startIndex + 1
                let language = inner.payload[start..<start + Int(status & 0x3F)]
                // A linear search: a poster has a title or two, not enough for a set to pay.
                let repeated =
                    firstLanguage.map { RecordText.equalIgnoringASCIICase($0, language) } == true
                    || laterLanguages.contains { RecordText.equalIgnoringASCIICase($0, language) }
                guard !repeated else {
                    throw NDEFError(
                        .invalidPayload, at: offset(of: inner),
                        "two smart poster titles have the language \(String(decoding: language, as: UTF8.self))")
                }
                if firstLanguage == nil { firstLanguage = language } else { laterLanguages.append(language) }
            case .action:
                guard !hasAction else {
                    throw NDEFError(
                        .invalidPayload, at: offset(of: inner), "a smart poster has more than one action record")
                }
                guard inner.payload.count == 1 else {
                    throw NDEFError(
                        .invalidPayload, at: offset(of: inner),
                        "an action record holds 1 byte, not \(inner.payload.count)")
                }
                hasAction = true
            case .size:
                guard !hasSize else {
                    throw NDEFError(
                        .invalidPayload, at: offset(of: inner), "a smart poster has more than one size record")
                }
                guard inner.payload.count == 4 else {
                    throw NDEFError(
                        .invalidPayload, at: offset(of: inner),
                        "a size record holds 4 bytes, not \(inner.payload.count)")
                }
                hasSize = true
            case .mediaType:
                guard !hasMediaType else {
                    throw NDEFError(
                        .invalidPayload, at: offset(of: inner), "a smart poster has more than one type record")
                }
                do {
                    try RecordText.checkUTF8(inner.payload, at: 0, "the type record")
                } catch {
                    throw relocated(error, from: inner)
                }
                hasMediaType = true
            case .icon:
                break  // any bytes: the media type (checked by the decoder) says what they are
            case .other:
                // Keeps messages nested in an extra record within the limits, so the poster as
                // a whole stays within NDEFDecodingOptions.maximumNestingDepth.
                do {
                    try NestedRecordLimits.check(inner, options: options)
                } catch {
                    throw relocated(error, from: inner)
                }
            }
        }
    }
}
