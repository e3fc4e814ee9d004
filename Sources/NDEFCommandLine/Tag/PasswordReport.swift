import NFCSession
import TagMemory

/// What the password commands report about a tag: its protection as CFG0 and CFG1 show it
/// (NTAG213/215/216 8.5.7 and 8.8, MF0ULX1 8.5.7 and 8.6), and what the command did. No
/// password and no PACK is ever part of it.
struct PasswordReport: Encodable {
    var uid: String
    /// The UID as JSON gives it (``UIDText``).
    var uidJSON: String
    var chip: String?
    /// `password`, `tripleDES` or `none`.
    var mechanism: String
    /// Whether any page is (or may be) protected.
    var isProtected: Bool
    /// AUTH0, when known and protection is on.
    var fromPage: Int?
    /// PROT, when known.
    var isReadProtected: Bool?
    /// AUTHLIM (0: unlimited), when known.
    var attemptLimit: Int?
    /// CFGLCK, when known.
    var isConfigurationLocked: Bool?
    /// Whether the password is disabled for good (AUTHLIM reached): only a PWD_AUTH answered
    /// NAK 4h tells, so nil unless `auth` just met it.
    var isPasswordDisabled: Bool?
    /// What the command did: `set`, `authenticated`, `removed`, `refused`, `disabled`, or nil
    /// for `status`.
    var action: String?
    /// The PACK check of `auth`: `matches`, `not checked`.
    var acknowledgeCheck: String?

    init(tag: NFCMiFareTag, status: NFCPasswordStatus) {
        uid = tag.targetInfo.uidDescription
        uidJSON = tag.targetInfo.uidJSON
        chip = tag.chip?.name
        mechanism = status.mechanism.rawValue
        isProtected = status.isProtected
        switch status.protection {
        case .off:
            isReadProtected = false
        case .from(let page, let readProtected):
            fromPage = page
            isReadProtected = readProtected
        case .unknown:
            isReadProtected = true
        }
        attemptLimit = status.authenticationLimit
        isConfigurationLocked = status.isConfigurationLocked
    }

    private enum CodingKeys: String, CodingKey {
        case uid, chip, mechanism, action
        case isProtected = "protected"
        case fromPage, attemptLimit, acknowledgeCheck
        case isReadProtected = "readProtected"
        case isConfigurationLocked = "configurationLocked"
        case isPasswordDisabled = "passwordDisabled"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uidJSON, forKey: .uid)
        try container.encode(chip.map(ChipJSON.init), forKey: .chip)
        try container.encode(mechanism, forKey: .mechanism)
        if let action { try container.encode(action, forKey: .action) }
        try container.encode(isProtected, forKey: .isProtected)
        try container.encode(fromPage, forKey: .fromPage)
        try container.encode(isReadProtected, forKey: .isReadProtected)
        try container.encode(attemptLimit, forKey: .attemptLimit)
        try container.encode(isConfigurationLocked, forKey: .isConfigurationLocked)
        try container.encode(isPasswordDisabled, forKey: .isPasswordDisabled)
        if let acknowledgeCheck { try container.encode(acknowledgeCheck, forKey: .acknowledgeCheck) }
    }

    /// The report as text, one fact a line.
    var lines: [String] {
        var lines = ["Tag \(uid)" + (chip.map { " (\($0))" } ?? "")]
        switch mechanism {
        case "password": break
        case "tripleDES": lines.append("Protection: 3DES authentication (MIFARE Ultralight C), not PWD_AUTH")
        default: lines.append("Protection: none possible (the chip has no PWD_AUTH)")
        }
        if let fromPage {
            lines.append(
                "Protected: from page \(fromPage), "
                    + (isReadProtected == true ? "reading and writing" : "writing (reading is free)"))
        } else if isProtected {
            lines.append("Protected: yes, reading too (the configuration pages are read-protected: details unknown)")
        } else {
            lines.append("Protected: no")
        }
        if mechanism == "password" {
            lines.append("Attempt limit: " + Self.limitText(attemptLimit))
            lines.append(
                "Configuration lock: "
                    + (isConfigurationLocked.map { $0 ? "set (AUTH0, PROT and AUTHLIM are fixed for good)" : "not set" }
                        ?? "unknown"))
            lines.append(
                "Password disabled: "
                    + (isPasswordDisabled.map { $0 ? "yes, for good (PWD_AUTH answers NAK 4h)" : "no" }
                        ?? "unknown (only a PWD_AUTH tells: 'ndeftool password auth')"))
        }
        if let acknowledgeCheck { lines.append("PACK: \(acknowledgeCheck)") }
        return lines
    }

    /// `unlimited (AUTHLIM 0)`, `3 failed attempts, then the password is disabled for good`.
    static func limitText(_ limit: Int?) -> String {
        guard let limit else { return "unknown" }
        if limit == 0 { return "unlimited (AUTHLIM 0)" }
        return "\(limit) failed attempt\(limit == 1 ? "" : "s"), then the password is disabled for good"
    }
}
