import TagMemory

extension SimulatedType2Tag {
    /// WRITE A2h addr d0-d3: ACK, or NAK 0h for an address past the last page, a locked page,
    /// a page from AUTH0 on without PWD_AUTH, or CFG0/CFG1 under CFGLCK (NTAG213/215/216 10.4,
    /// MF0ICU1 9.4). Page 2 ORs the lock bytes, page 3 is OTP, dynamic lock bytes are OR-ed
    /// (``Type2Memory/applyingWrite(page:data:authenticated:)``).
    mutating func write(_ frame: [UInt8]) -> SimulatedType2Response {
        guard frame.count == 6 else { return .invalidArgument }
        return store(page: Int(frame[1]), data: Array(frame[2..<6]))
    }

    /// COMPATIBILITY_WRITE A0h addr, first part: ACK when the address exists; the next frame
    /// carries the data (NTAG213/215/216 10.5, MF0ICU1 9.5).
    mutating func compatibilityWrite(_ frame: [UInt8]) -> SimulatedType2Response {
        guard chip.features.contains(.compatibilityWrite), frame.count == 2, Int(frame[1]) < chip.pageCount else {
            return .invalidArgument
        }
        pendingCompatibilityWritePage = Int(frame[1])
        return .ack
    }

    /// COMPATIBILITY_WRITE, second part: 16 bytes of which the first 4 are written, with the
    /// rules of WRITE (NTAG213/215/216 10.5).
    mutating func compatibilityWriteData(_ frame: [UInt8]) -> SimulatedType2Response {
        guard let page = pendingCompatibilityWritePage else { return .invalidArgument }
        pendingCompatibilityWritePage = nil
        guard frame.count == 16 else { return .invalidArgument }
        return store(page: page, data: Array(frame[0..<4]))
    }

    /// PWD_AUTH 1Bh p0-p3: the PACK for the right password (and the failure count back to 0);
    /// NAK 0h for a wrong one, counted when AUTHLIM > 0; once the count reaches AUTHLIM, NAK 4h
    /// for good (NTAG213/215/216 10.7 and 8.8.2, MF0ULX1 8.6).
    mutating func passwordAuthentication(_ frame: [UInt8]) -> SimulatedType2Response {
        guard chip.features.contains(.passwordAuthentication), frame.count == 5,
            let configuration = rules.configuration
        else { return .invalidArgument }
        if isPasswordDisabled { return .authenticationCounterOverflow }
        if Array(frame[1..<5]) == configuration.passwordPage {
            isAuthenticated = true
            failedAuthenticationCount = 0
            return .data(Array(configuration.passwordAcknowledgePage.prefix(2)))
        }
        let limit = configuration.authenticationLimit
        if limit > 0 {
            failedAuthenticationCount += 1
            if failedAuthenticationCount >= limit { isPasswordDisabled = true }
        }
        return .invalidArgument
    }

    private mutating func store(page: Int, data: [UInt8]) -> SimulatedType2Response {
        guard page < chip.pageCount else { return .invalidArgument }
        do {
            let programmed = try rules.pageAfterWrite(page: page, data: data, authenticated: isAuthenticated)
            bytes.replaceSubrange(Type2Page.bytes(of: page), with: programmed)
            if !rules.writeLeavesRulesUnchanged(page: page) { rules = Type2Memory(bytes: bytes, chip: chip) }
            return .ack
        } catch {
            return .invalidArgument
        }
    }
}
