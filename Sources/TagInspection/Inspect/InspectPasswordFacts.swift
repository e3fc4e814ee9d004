import HexText
import TagMemory

/// The authentication configuration of the chip, without its secrets.
///
/// PWD_AUTH chips (NTAG21x datasheet 8.5.7 and 8.8, MF0ULX1 8.5 and 8.6): AUTH0, the ACCESS
/// bits PROT, CFGLCK, NFC_CNT_EN, NFC_CNT_PWD_PROT and AUTHLIM, and whether PWD and PACK differ
/// from the factory values (PWD FF FF FF FF, PACK 00 00); their values are never shown. A tag
/// reads PWD and PACK back as zeros, so zeros mean the dump does not know them. MIFARE
/// Ultralight C (MF0ICU2 7.5.8): AUTH0 and AUTH1 of 3DES authentication; the key is not shown.
package struct InspectPasswordFacts: Encodable {
    /// What the dump tells about PWD or PACK.
    package enum Secret: String, Encodable {
        /// The image holds zeros: what a tag reads back, so the value is unknown.
        case notRecorded
        /// The factory value.
        case factoryDefault
        /// Another value (not shown).
        case changed

        package var text: String {
            switch self {
            case .notRecorded: "not recorded in the dump (a tag reads it back as zeros)"
            case .factoryDefault: "recorded, the factory default"
            case .changed: "recorded, differs from the factory default (not shown)"
            }
        }
    }

    /// How the chip authenticates readers.
    package enum Mechanism: String, Encodable {
        /// PWD_AUTH (NTAG21x, Ultralight EV1), `password` in every JSON output.
        case pwdAuth = "password"
        case tripleDES, none
    }

    package var chip: Type2Chip
    package var mechanism: Mechanism
    /// The PWD_AUTH configuration, when the image holds its pages.
    package var configuration: Type2Configuration?
    package var pwd: Secret?
    package var pack: Secret?
    /// Ultralight C: AUTH0 and AUTH1, when the image holds their pages.
    package var auth0: UInt8?
    package var auth1: UInt8?

    package init?(memory: Type2Memory) {
        guard let chip = memory.chip else { return nil }
        self.chip = chip
        if chip.configurationPages != nil {
            mechanism = .pwdAuth
            configuration = memory.configuration
            if let configuration {
                let pwd: Secret =
                    configuration.password.allSatisfy { $0 == 0 }
                    ? .notRecorded : configuration.password.allSatisfy { $0 == 0xFF } ? .factoryDefault : .changed
                self.pwd = pwd
                let packZero = configuration.passwordAcknowledge.allSatisfy { $0 == 0 }
                pack = !packZero ? .changed : pwd == .notRecorded ? .notRecorded : .factoryDefault
            }
        } else if let pages = chip.tripleDESPages {
            mechanism = .tripleDES
            auth0 = memory.page(pages.auth0)?.first
            auth1 = memory.page(pages.auth1)?.first
        } else {
            mechanism = .none
        }
    }

    /// The first page that needs authentication, nil when none does.
    package var firstProtectedPage: Int? {
        if let configuration { return configuration.firstProtectedPage }
        if let auth0, Int(auth0) < chip.pageCount { return Int(auth0) }
        return nil
    }

    /// Whether reading protected pages needs authentication too (PROT; AUTH1 bit 0 clear).
    package var isReadProtected: Bool? {
        if let configuration { return configuration.isReadProtected }
        return auth1.map { $0 & 0x01 == 0 }
    }

    private enum CodingKeys: String, CodingKey {
        case mechanism, configurationInImage, auth0, auth1, access, fromPage, readProtected
        case configurationLocked, attemptLimit, nfcCounterEnabled, nfcCounterPasswordProtected, pwd, pack
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mechanism, forKey: .mechanism)
        guard mechanism != .none else { return }
        let inImage = configuration != nil || auth0 != nil
        try container.encode(inImage, forKey: .configurationInImage)
        try container.encode((configuration?.auth0 ?? auth0).map(Int.init), forKey: .auth0)
        try container.encode(firstProtectedPage, forKey: .fromPage)
        try container.encode(isReadProtected, forKey: .readProtected)
        if mechanism == .tripleDES {
            try container.encode(auth1.map(Int.init), forKey: .auth1)
            return
        }
        try container.encode(configuration.map { Int($0.access) }, forKey: .access)
        try container.encode(configuration?.isConfigurationLocked, forKey: .configurationLocked)
        try container.encode(configuration?.authenticationLimit, forKey: .attemptLimit)
        if chip.features.contains(.nfcCounter) {
            try container.encode(configuration?.isNFCCounterEnabled, forKey: .nfcCounterEnabled)
            try container.encode(configuration?.isNFCCounterPasswordProtected, forKey: .nfcCounterPasswordProtected)
        }
        try container.encode(pwd, forKey: .pwd)
        try container.encode(pack, forKey: .pack)
    }

    /// `on: AUTH0 04h, pages 4-134 need the password to be written and read`.
    private func protection(auth0: UInt8) -> String {
        guard let first = firstProtectedPage else {
            return "off: AUTH0 \(Hex.byte(auth0))h is past the last page (\(chip.pageCount - 1))"
        }
        let pages = AddressSpan(first...max(first, chip.pageCount - 1)).text("page")
        let access = isReadProtected == true ? "written and read" : "written"
        return "on: AUTH0 \(Hex.byte(auth0))h, \(pages) need authentication to be \(access)"
    }

    package var lines: [String] {
        switch mechanism {
        case .none:
            return ["password protection: none (\(chip.name) has no authentication)"]
        case .tripleDES:
            guard let auth0, let auth1, let pages = chip.tripleDESPages else {
                return ["3DES authentication: AUTH0 and AUTH1 are not in the image"]
            }
            let keys = AddressSpan(pages.key).text("page")
            return [
                "3DES authentication: " + protection(auth0: auth0),
                "  AUTH1 \(Hex.byte(auth1))h: bit 0 \(auth1 & 1) ("
                    + (auth1 & 1 == 0 ? "reads need authentication too" : "only writes need authentication")
                    + "); the key in \(keys) is not shown",
            ]
        case .pwdAuth:
            guard let configuration, let pages = chip.configurationPages else {
                let span = chip.configurationPages.map { AddressSpan($0.pages).text("page") } ?? "pages"
                return ["password protection (PWD_AUTH): the configuration \(span) are not in the image"]
            }
            let access = configuration.access
            let limit = configuration.authenticationLimit
            var lines = [
                "password protection (PWD_AUTH): " + protection(auth0: configuration.auth0),
                "  ACCESS \(Hex.byte(access))h (page \(pages.cfg1)): PROT \(access >> 7) ("
                    + (configuration.isReadProtected ? "reads too" : "writes only") + "), CFGLCK \(access >> 6 & 1) ("
                    + (configuration.isConfigurationLocked ? "CFG0 and CFG1 locked for good" : "open")
                    + "), AUTHLIM \(limit) ("
                    + (limit == 0 ? "unlimited attempts" : "failures counted; at the limit protected pages are lost")
                    + ")",
            ]
            if chip.features.contains(.nfcCounter) {
                lines.append(
                    "  NFC counter: NFC_CNT_EN \(access >> 4 & 1) ("
                        + (configuration.isNFCCounterEnabled ? "counting" : "off") + "), NFC_CNT_PWD_PROT "
                        + "\(access >> 3 & 1) (READ_CNT "
                        + (configuration.isNFCCounterPasswordProtected ? "needs the password" : "needs no password")
                        + ")")
            }
            lines.append("  PWD: " + (pwd ?? .notRecorded).text)
            lines.append("  PACK: " + (pack ?? .notRecorded).text)
            return lines
        }
    }
}
