extension DeviceInformationRecord {
    /// Parses a Device Information RTD 1.0 payload (section 3.2).
    ///
    /// - Throws: ``NDEFError/Code/invalidPayload`` (with the payload offset) for a data
    ///   element cut short, a name that is not valid UTF-8, a UUID that is not 16 bytes, a
    ///   defined element that appears twice, or a missing or empty manufacturer or model name.
    public init(parsing record: NFCNDEFPayload, options: NDEFDecodingOptions) throws(NDEFError) {
        try Self.requireMatch(record)
        let payload = record.payload
        var strings: [ElementType: String] = [:]
        var uuid: [UInt8]?
        var extras: [Field] = []
        var index = payload.startIndex
        while index < payload.endIndex {
            let offset = index - payload.startIndex
            guard payload.endIndex - index >= 2 else {
                throw NDEFError(.invalidPayload, at: offset, "a data element needs a type and a length byte")
            }
            let type = payload[index]
            let length = Int(payload[index + 1])
            let valueStart = index + 2
            guard payload.endIndex - valueStart >= length else {
                throw NDEFError(
                    .invalidPayload,
                    at: offset,
                    "data element \(type) of \(length) bytes runs past the end of the payload"
                )
            }
            let value = payload[valueStart..<(valueStart + length)]
            index = valueStart + length
            guard let element = ElementType(rawValue: type) else {
                extras.append(Field(type: type, data: Array(value)))
                continue
            }
            guard strings[element] == nil, element != .uuid || uuid == nil else {
                throw NDEFError(.invalidPayload, at: offset, "the \(element.name) appears more than once")
            }
            if element == .uuid {
                guard length == 16 else {
                    throw NDEFError(.invalidPayload, at: offset, "the UUID is \(length) bytes, not 16")
                }
                uuid = Array(value)
            } else {
                strings[element] = try RecordText.utf8(value, at: offset + 2, "the \(element.name)")
            }
        }
        for element in [ElementType.manufacturer, .model] where strings[element]?.isEmpty ?? true {
            throw NDEFError(.invalidPayload, "a device information record needs a \(element.name)")
        }
        self.init(
            manufacturer: strings[.manufacturer] ?? "",
            model: strings[.model] ?? "",
            deviceName: strings[.deviceName],
            uuid: uuid,
            firmwareVersion: strings[.firmwareVersion],
            extraFields: extras
        )
    }

    /// Builds the record: manufacturer, model, device name, UUID, firmware version, then the
    /// extra fields (Device Information RTD 1.0, section 3.2).
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when the manufacturer or model name is
    ///   empty, a value is longer than 255 bytes, the UUID is not 16 bytes, or an extra field
    ///   has a defined type (0-4).
    public func makeRecord() throws(NDEFError) -> NFCNDEFPayload {
        var payload: [UInt8] = []
        func append(_ type: UInt8, _ value: [UInt8], _ name: String) throws(NDEFError) {
            guard value.count <= 255 else {
                throw NDEFError(.invalidValue, "the \(name) is \(value.count) bytes, at most 255")
            }
            payload.append(type)
            payload.append(UInt8(value.count))
            payload += value
        }
        for (element, value) in [(ElementType.manufacturer, manufacturer), (.model, model)] {
            guard !value.isEmpty else {
                throw NDEFError(.invalidValue, "a device information record needs a \(element.name)")
            }
            try append(element.rawValue, Array(value.utf8), element.name)
        }
        if let deviceName {
            try append(ElementType.deviceName.rawValue, Array(deviceName.utf8), ElementType.deviceName.name)
        }
        if let uuid {
            guard uuid.count == 16 else { throw NDEFError(.invalidValue, "the UUID is \(uuid.count) bytes, not 16") }
            try append(ElementType.uuid.rawValue, uuid, "UUID")
        }
        if let firmwareVersion {
            let element = ElementType.firmwareVersion
            try append(element.rawValue, Array(firmwareVersion.utf8), element.name)
        }
        for field in extraFields {
            guard ElementType(rawValue: field.type) == nil else {
                throw NDEFError(.invalidValue, "extra field type \(field.type) is a defined element: set that property")
            }
            try append(field.type, field.data, "data element \(field.type)")
        }
        return NFCNDEFPayload(format: .nfcWellKnown, type: Self.recordType, payload: payload)
    }
}
