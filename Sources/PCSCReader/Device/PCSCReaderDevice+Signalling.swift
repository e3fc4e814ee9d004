import NFCSession
import NFCWireFormat

extension PCSCReaderDevice: NFCReaderSignalling {
    /// Whether the reader's lights and buzzer are driven: with the ``PCSCReaderProfile/acr122u``
    /// profile only, whose readers take the ACR122U's LED and buzzer pseudo-APDU
    /// (``NFCWireFormat/ACR122ULightCommand``, ACR122U API 2.04, 6.2). Other readers (the ACR1252U's
    /// own LED commands go through SCardControl escapes, not implemented) show nothing.
    public nonisolated var supportsSignals: Bool { profile == .acr122u }

    /// Sends the ACR122U LED and buzzer command for `signal` (``NFCSession/ACR122ULightCommand/showing(_:)``)
    /// over the open card connection, or over a shared connection made for it and closed again.
    ///
    /// The pseudo-APDU travels through SCardTransmit, which needs a card: with no tag on the reader
    /// nothing can be sent (pcscd offers only SCardControl escapes then) and the signal is not shown.
    ///
    /// - Returns: whether the reader answered `90 xx`; false without the ACR122U profile, without a
    ///   tag, or when the reader is closed, gone or refused the command.
    @discardableResult
    public func signal(_ signal: NFCReaderSignal) async -> Bool {
        guard supportsSignals, !isClosed else { return false }
        let apdu = ACR122ULightCommand.showing(signal).apdu
        if let connection {
            guard let response = try? connection.card.transmit(apdu) else { return false }
            return Self.isLightAnswer(response)
        }
        guard let context = try? establishedContext(),
            let card = try? context.connect(reader: name, exclusive: exclusive)
        else { return false }
        defer { card.disconnectUnpowering() }
        guard let response = try? card.transmit(apdu) else { return false }
        return Self.isLightAnswer(response)
    }

    /// `90 xx`: the command was carried out, xx the LED state (ACR122U API 2.04, 6.2).
    nonisolated static func isLightAnswer(_ response: [UInt8]) -> Bool {
        response.count == 2 && response[0] == 0x90
    }
}
