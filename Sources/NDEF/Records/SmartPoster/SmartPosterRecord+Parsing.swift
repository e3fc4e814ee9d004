extension SmartPosterRecord {
    /// Parses a Smart Poster RTD 1.0 payload: a strictly decoded NDEF message one nesting
    /// level deeper than `options` allows at this level (section 3).
    ///
    /// - Throws: ``NDEFError/Code/nestingTooDeep`` or ``NDEFError/Code/tooManyRecords`` when a
    ///   limit is hit, here or in a message nested in one of the extra records; otherwise ``NDEFError/Code/invalidPayload`` when the inner message is
    ///   malformed, has no URI record or more than one, repeats a title language or an
    ///   action, size or type record, or when one of those records is malformed. Offsets are
    ///   within this record's payload where they can be known.
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

        var parser = Parser(payload: payload, options: innerOptions)
        for inner in message {
            try parser.add(inner)
        }
        guard let uri = parser.uri else {
            throw NDEFError(.invalidPayload, "a smart poster needs a URI record, and this one has none")
        }
        self.init(
            link: uri,
            titles: parser.titles,
            action: parser.action,
            size: parser.size,
            mediaType: parser.mediaType,
            icons: parser.icons,
            extraRecords: parser.extraRecords
        )
    }

    /// Collects the parts of a smart poster's inner message, checking each.
    private struct Parser {
        let payload: ArraySlice<UInt8>
        /// The limits for records inside the poster.
        let options: NDEFDecodingOptions
        var uri: URIRecord?
        var titles: [TextRecord] = []
        var action: Action?
        var size: UInt32?
        var mediaType: String?
        var icons: [Icon] = []
        var extraRecords: [NFCNDEFPayload] = []

        init(payload: ArraySlice<UInt8>, options: NDEFDecodingOptions) {
            self.payload = payload
            self.options = options
        }

        /// Where `inner`'s payload starts in the smart poster payload, when it is one piece of it.
        func offset(of inner: NFCNDEFPayload) -> Int? {
            let start = inner.payload.startIndex
            guard inner.chunkCount == 1, start >= payload.startIndex, start <= payload.endIndex else { return nil }
            return start - payload.startIndex
        }

        /// `error` (found inside `inner`'s payload) with its offset moved into the poster's payload.
        func relocated(_ error: NDEFError, from inner: NFCNDEFPayload) -> NDEFError {
            if let base = offset(of: inner) { return error.shifted(by: base) }
            var copy = error
            copy.offset = nil
            return copy
        }

        /// Enforces the decoding limits on messages nested in an extra record, so the poster as
        /// a whole stays within ``NDEFDecodingOptions/maximumNestingDepth``.
        func checkLimits(of inner: NFCNDEFPayload) throws(NDEFError) {
            do {
                try NestedRecordLimits.check(inner, options: options)
            } catch {
                throw relocated(error, from: inner)
            }
        }

        mutating func add(_ inner: NFCNDEFPayload) throws(NDEFError) {
            let at = offset(of: inner)
            switch SmartPosterRecord.part(of: inner) {
            case .uri:
                guard uri == nil else {
                    throw NDEFError(
                        .invalidPayload, at: at, "a smart poster has exactly one URI record, this one has more")
                }
                do {
                    uri = try URIRecord(payload: inner.payload)
                } catch {
                    throw relocated(error, from: inner)
                }
            case .title:
                let title: TextRecord
                do {
                    title = try TextRecord(payload: inner.payload)
                } catch {
                    throw relocated(error, from: inner)
                }
                // A poster has a title or two: a linear search beats building a set.
                guard !titles.contains(where: { RecordText.equalIgnoringASCIICase($0.language, title.language) }) else {
                    throw NDEFError(
                        .invalidPayload, at: at, "two smart poster titles have the language \(title.language)")
                }
                titles.append(title)
            case .action:
                guard action == nil else {
                    throw NDEFError(.invalidPayload, at: at, "a smart poster has more than one action record")
                }
                guard inner.payload.count == 1, let code = inner.payload.first else {
                    throw NDEFError(
                        .invalidPayload, at: at, "an action record holds 1 byte, not \(inner.payload.count)")
                }
                action = Action(rawValue: code)
            case .size:
                guard size == nil else {
                    throw NDEFError(.invalidPayload, at: at, "a smart poster has more than one size record")
                }
                guard inner.payload.count == 4 else {
                    throw NDEFError(.invalidPayload, at: at, "a size record holds 4 bytes, not \(inner.payload.count)")
                }
                size = inner.payload.reduce(0) { $0 << 8 | UInt32($1) }
            case .mediaType:
                guard mediaType == nil else {
                    throw NDEFError(.invalidPayload, at: at, "a smart poster has more than one type record")
                }
                do {
                    mediaType = try RecordText.utf8(inner.payload, at: 0, "the type record")
                } catch {
                    throw relocated(error, from: inner)
                }
            case .icon:
                icons.append(Icon(mediaType: String(decoding: inner.type, as: UTF8.self), data: Array(inner.payload)))
            case .other:
                try checkLimits(of: inner)
                extraRecords.append(inner)
            }
        }
    }
}
