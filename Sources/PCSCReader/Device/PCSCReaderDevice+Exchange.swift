import NFCSession
import NFCWireFormat

/// Frames and APDUs: the profile's translation of Type 2 frames, APDU pass-through.
extension PCSCReaderDevice {
    /// Sends one Type 2 frame through the ``profile``'s path and returns the tag's answer.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/unsupportedFeature`` for a command the profile
    ///   cannot carry (with ``PCSCReaderProfile/generic``, anything but READ and WRITE),
    ///   ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when the tag does not answer or
    ///   left, ``NFCSession/NFCReaderError/Code/tagResponseError`` for a garbled answer.
    public func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try checkOpen()
        let card = try selectedCard()
        connection?.isFresh = false
        switch profile {
        case .generic:
            return try partThreeExchange(frame, card: card)
        case .acr122u:
            let crcMode = try acr122uCRCMode(card)
            let answer = try transmitToReader(card, try ACR122UDirectTransmit.command(for: frame))
            return try ACR122UDirectTransmit.response(answer, to: frame, crcMode: crcMode)
        case .pcscTransparent:
            guard try openTransparentSession(card) else {
                guard frame.first == 0x30 || frame.first == 0xA2 else {
                    throw NFCReaderError(
                        .unsupportedFeature,
                        "\(Type2CommandName.of(frame)) cannot be sent through the reader \"\(name)\": it refused to start "
                            + "a PC/SC 2.02 transparent session (FF C2), so only READ and WRITE work, as PC/SC part 3 "
                            + "storage commands")
                }
                return try partThreeExchange(frame, card: card)
            }
            let answer = try transmitToReader(card, try TransparentExchange.command(for: frame))
            return try TransparentExchange.response(answer, to: frame, readerName: name)
        }
    }

    /// Sends one MIFARE Classic command as PC/SC Part 3 storage-card APDUs (`Part3Classic`,
    /// whatever the profile: LOAD KEYS, GENERAL AUTHENTICATE, READ BINARY and UPDATE BINARY are
    /// what Part 3 readers, the ACR122U among them, offer for MIFARE Classic).
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/authenticationFailed`` when the card refuses
    ///   the key; ``NFCSession/NFCReaderError/Code/unsupportedFeature`` for value operations
    ///   and readers without the commands; ``NFCSession/NFCReaderError/Code/tagConnectionLost``
    ///   when the card left.
    public func transceiveClassic(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try checkOpen()
        let card = try selectedCard()
        guard connection?.target.kind == .mifareClassic else {
            throw NFCReaderError(.tagResponseError, "the card on the reader \"\(name)\" is not a MIFARE Classic card")
        }
        if connection?.transparentSession == .open {
            _ = try? card.transmit(TransparentExchange.endSession)
            connection?.transparentSession = .closed
        }
        connection?.isFresh = false
        let apdus = try Part3Classic.commands(for: frame, readerName: name)
        for apdu in apdus.dropLast() {
            try Part3Classic.keyLoaded(try transmitToReader(card, apdu), readerName: name)
        }
        guard let last = apdus.last else { throw NFCReaderError(.invalidParameter, "no APDU for the frame") }
        return try Part3Classic.response(try transmitToReader(card, last), to: frame, readerName: name)
    }

    /// Sends one command APDU to the card unchanged and returns the response APDU.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when the tag left or the
    ///   answer is shorter than SW1 SW2 (pcscd can return an empty answer for a tag that left
    ///   mid-command).
    public func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        try checkOpen()
        let card = try selectedCard()
        if connection?.transparentSession == .open {
            _ = try? card.transmit(TransparentExchange.endSession)
            connection?.transparentSession = .closed
        }
        connection?.isFresh = false
        let answer: [UInt8]
        do {
            answer = try card.transmit(apdu)
        } catch {
            throw fail(error)
        }
        guard answer.count >= 2 else {
            throw NFCReaderError(
                .tagConnectionLost,
                "the answer to the APDU has \(answer.count) byte(s), not even a status word: the tag left")
        }
        return answer
    }

    /// The firmware version of an ACR122U (`FF 00 48 00 00`, answered with text such as
    /// `ACR122U207`), asked through the connection to the polled tag; nil when the reader does
    /// not answer with text.
    ///
    /// - Throws: ``NFCSession/NFCReaderError/Code/tagConnectionLost`` when no tag is connected:
    ///   pcscd reaches a reader only through a card connection.
    public func firmwareVersion() async throws(NFCReaderError) -> String? {
        try checkOpen()
        let card = try selectedCard()
        return ACR122UPseudoAPDU.firmwareVersion(
            try transmitToReader(card, ACR122UPseudoAPDU.getFirmwareVersion))
    }

    // MARK: - Helpers

    /// The connected card, or tag-connection-lost.
    private func selectedCard() throws(NFCReaderError) -> PCSCCard {
        guard let card = connection?.card else {
            throw NFCReaderError(
                .tagConnectionLost, "no tag is selected on the reader \"\(name)\": poll and select first")
        }
        return card
    }

    /// Sends a reader pseudo-APDU (class FFh). An answer of 61 xx (ACR122U firmware 1.x keeps the
    /// answer until asked) is fetched with GET RESPONSE `FF C0 00 00 xx`.
    func transmitToReader(_ card: PCSCCard, _ apdu: [UInt8]) throws(NFCReaderError) -> [UInt8] {
        do {
            let answer = try card.transmit(apdu)
            if answer.count == 2, answer[0] == 0x61 {
                return try card.transmit(ACR122UPseudoAPDU.getResponse(length: answer[1]))
            }
            return answer
        } catch {
            throw fail(error)
        }
    }

    /// READ and WRITE as PC/SC part 3 storage commands.
    private func partThreeExchange(_ frame: [UInt8], card: PCSCCard) throws(NFCReaderError) -> NFCRawResponse {
        let apdu = try Part3Storage.command(for: frame, readerName: name)
        return try Part3Storage.response(try transmitToReader(card, apdu), to: frame, readerName: name)
    }

    /// The CRC mode of the connection, set up on first use: the PN532's receive CRC check is
    /// switched off (CIU_RxMode bit 7) so 4-bit ACKs and NAKs come through; a reader that refuses
    /// the register commands keeps its own CRC check (see ``ACR122UDirectTransmit``).
    private func acr122uCRCMode(_ card: PCSCCard) throws(NFCReaderError) -> ACR122UDirectTransmit.CRCMode {
        if let mode = connection?.crcMode { return mode }
        let register = ACR122UDirectTransmit.rxModeRegister
        var mode = ACR122UDirectTransmit.CRCMode.reader
        var saved: UInt8?
        if let original = ACR122UPseudoAPDU.registerValue(
            try transmitToReader(card, ACR122UPseudoAPDU.readRegister(register)))
        {
            let cleared = original & ~ACR122UDirectTransmit.rxCRCEnable
            if ACR122UPseudoAPDU.isRegisterWritten(
                try transmitToReader(card, ACR122UPseudoAPDU.writeRegister(register, cleared))),
                let check = ACR122UPseudoAPDU.registerValue(
                    try transmitToReader(card, ACR122UPseudoAPDU.readRegister(register))),
                check & ACR122UDirectTransmit.rxCRCEnable == 0
            {
                mode = .host
                saved = original
            }
        }
        connection?.crcMode = mode
        connection?.savedRxMode = saved
        return mode
    }

    /// Starts the transparent session if it is not running; false when the reader refuses it.
    private func openTransparentSession(_ card: PCSCCard) throws(NFCReaderError) -> Bool {
        switch connection?.transparentSession ?? .closed {
        case .open:
            return true
        case .unavailable:
            return false
        case .closed:
            let started = TransparentExchange.isSessionAnswerSuccessful(
                try transmitToReader(card, TransparentExchange.startSession))
            connection?.transparentSession = started ? .open : .unavailable
            return started
        }
    }
}
