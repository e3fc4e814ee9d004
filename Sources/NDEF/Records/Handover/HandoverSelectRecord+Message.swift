extension HandoverSelectRecord {
    /// A carrier of a handover message with the records its references name.
    public struct ResolvedCarrier: Sendable, Hashable {
        /// The alternative carrier as the Handover Select record gives it.
        public var carrier: AlternativeCarrier
        /// The record whose ID is the carrier data reference, or `nil` when none has it.
        public var configuration: NFCNDEFPayload?
        /// For each auxiliary data reference, the record with that ID, or `nil`.
        public var auxiliaryData: [NFCNDEFPayload?]
    }

    /// A static handover select message (NFC Forum Connection Handover 1.3, section 5.2): this
    /// Hs record first, then each carrier configuration record, which must carry an ID; one
    /// Alternative Carrier record per configuration refers to it.
    ///
    /// - Throws: ``NDEFError/Code/invalidValue`` when a configuration record has no ID or two
    ///   share one.
    public static func message(
        configurations: [NFCNDEFPayload],
        powerState: CarrierPowerState = .active,
        version: UInt8 = 0x13
    ) throws(NDEFError) -> NFCNDEFMessage {
        var seen: Set<ArraySlice<UInt8>> = []
        for (index, configuration) in configurations.enumerated() {
            guard !configuration.identifier.isEmpty else {
                throw NDEFError(
                    .invalidValue, "carrier configuration \(index) has no ID for the handover record to refer to")
            }
            guard seen.insert(configuration.identifier).inserted else {
                throw NDEFError(.invalidValue, "carrier configuration \(index) repeats the ID of an earlier one")
            }
        }
        let carriers = configurations.map {
            AlternativeCarrier(powerState: powerState, dataReference: Array($0.identifier))
        }
        let select = try HandoverSelectRecord(version: version, carriers: carriers)
        return NFCNDEFMessage(records: [try select.makeRecord()] + configurations)
    }

    /// A static handover select message for one carrier, for example a
    /// ``BluetoothOOBRecord``, ``BluetoothLowEnergyOOBRecord`` or ``WiFiCredentialRecord``: the
    /// Hs record and the carrier configuration record with the ID `reference`, as a tag that
    /// pairs a headset or joins a network carries it (NFC Forum BTSSP 1.2, section 4).
    public static func message(
        carrier: some NDEFRecordConvertible,
        reference: String = "0",
        powerState: CarrierPowerState = .active,
        version: UInt8 = 0x13
    ) throws(NDEFError) -> NFCNDEFMessage {
        var configuration = try carrier.makeRecord()
        configuration.identifier = Array(reference.utf8)[...]
        return try message(configurations: [configuration], powerState: powerState, version: version)
    }

    /// Each carrier with the records of `message` its references name (record IDs). The first
    /// record is skipped when it is a handover record itself.
    public func resolveCarriers(in message: NFCNDEFMessage) -> [ResolvedCarrier] {
        var candidates = message.records[...]
        if let first = candidates.first, Self.matches(first) || HandoverRequestRecord.matches(first) {
            candidates = candidates.dropFirst()
        }
        func record(withID reference: [UInt8]) -> NFCNDEFPayload? {
            guard !reference.isEmpty else { return nil }
            return candidates.first { $0.identifier.elementsEqual(reference) }
        }
        return carriers.map { carrier in
            ResolvedCarrier(
                carrier: carrier,
                configuration: record(withID: carrier.dataReference),
                auxiliaryData: carrier.auxiliaryDataReferences.map(record(withID:))
            )
        }
    }
}
