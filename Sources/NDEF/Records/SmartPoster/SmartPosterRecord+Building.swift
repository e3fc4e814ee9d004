extension SmartPosterRecord {
    /// Builds the record: an NDEF message of the URI, titles, action, size, type, icons and
    /// extra records, in that order (Smart Poster RTD 1.0, section 3).
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when a title cannot be built, two titles
    ///   share a language, an icon's media type is not `image/*` or `video/*`, an extra
    ///   record would be read back as one of the typed parts, or the message cannot be
    ///   encoded.
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        // The fields once: a parsed poster reads them from its payload on each access.
        let parts = self.parts
        let (uri, titles, action, size, mediaType, icons, extraRecords) = (
            parts.link.uri, parts.titles, parts.action, parts.size, parts.mediaType, parts.icons, parts.extraRecords
        )
        var records: [NFCNDEFPayload] = [try URIRecord(uri: uri).makeRecord()]
        var languages: Set<String> = []
        for title in titles {
            guard languages.insert(RecordText.asciiLowercased(title.language)).inserted else {
                throw NDEFError(.invalidValue, "two smart poster titles have the language \(title.language)")
            }
            records.append(try title.makeRecord())
        }
        if let action {
            records.append(NFCNDEFPayload(format: .nfcWellKnown, type: Self.actionType, payload: [action.rawValue]))
        }
        if let size {
            let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: size >> $0) }
            records.append(NFCNDEFPayload(format: .nfcWellKnown, type: Self.sizeType, payload: bytes))
        }
        if let mediaType {
            records.append(
                NFCNDEFPayload(format: .nfcWellKnown, type: Self.typeRecordType, payload: Array(mediaType.utf8)))
        }
        for icon in icons {
            let type = Array(icon.mediaType.utf8)
            guard Icon.isIconType(type) else {
                throw NDEFError(.invalidValue, "an icon needs an image/* or video/* media type, not \(icon.mediaType)")
            }
            records.append(NFCNDEFPayload(format: .media, type: type, payload: icon.data))
        }
        for (index, extra) in extraRecords.enumerated() where Self.part(of: extra) != .other {
            throw NDEFError(
                .invalidValue,
                "extra record \(index) would be read as a smart poster \(Self.part(of: extra)) record: set that field"
            )
        }
        records += extraRecords
        let payload: [UInt8]
        do {
            payload = try NFCNDEFMessage(records: records).encoded()
        } catch {
            throw NDEFError(.invalidValue, "smart poster message: \(error.reason)")
        }
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: payload)
    }
}
