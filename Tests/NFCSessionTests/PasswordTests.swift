import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import TestSupport
import Testing

@Suite("Password protection of NTAG21x")
struct PasswordTests {
    static let password = hex("AA BB CC DD")
    static let acknowledge = hex("12 34")

    /// A tag of `chip` holding a 30-byte message, protected with ``password`` as `settings` say.
    func protectedTag(
        chip: Type2Chip = .ntag215, protectsReading: Bool = false, limit: Int = 3
    ) throws -> SimulatedType2Tag {
        let tag = tagHolding(uriMessage(length: 30), chip: chip)
        let settings = Type2PasswordSettings(
            password: Self.password, passwordAcknowledge: Self.acknowledge, protectsReading: protectsReading,
            authenticationLimit: limit)
        let plan = try stored(tag).passwordPlan(settings)
        return SimulatedType2Tag(chip: chip, image: try stored(tag).applying(plan).bytes)
    }

    @Test("NTAG213/215/216 8.8.2: a wrong password: one PWD_AUTH, authenticationFailed, one failed attempt counted")
    func wrongPassword() async throws {
        let reader = makeReader([try protectedTag()])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        let error = try #require(await caught { try await tag.authenticate(password: hex("01 02 03 04")) })
        #expect(error.code == .authenticationFailed)
        #expect(!error.description.lowercased().contains("01 02 03 04"))
        #expect(reader.log.map(\.frame) == [[0x1B, 0x01, 0x02, 0x03, 0x04]])
        #expect(reader.type2Tag.failedAuthenticationCount == 1)
        // The NAK sent the tag to IDLE (9.3): it is selected again and reads.
        let selects = reader.selectCount
        #expect(try await tag.readNDEF() == uriMessage(length: 30))
        #expect(reader.selectCount == selects + 1)
        #expect(reader.count(of: .passwordAuthentication) == 1)
    }

    @Test("NTAG213/215/216 10.7: at the AUTHLIM limit PWD_AUTH answers NAK 4h: passwordDisabled")
    func disabled() async throws {
        let reader = makeReader([try protectedTag(limit: 1)])
        let (_, tag) = try await openTag(reader)
        #expect(
            await caught { try await tag.authenticate(password: hex("00 00 00 00")) }?.code == .authenticationFailed)
        #expect(await caught { try await tag.authenticate(password: Self.password) }?.code == .passwordDisabled)
        #expect(reader.count(of: .passwordAuthentication) == 2)
    }

    @Test("NTAG213/215/216 8.8.1: writing protected pages without PWD_AUTH: authenticationRequired, no WRITE")
    func writeNeedsAuthentication() async throws {
        let reader = makeReader([try protectedTag()])
        let (_, tag) = try await openTag(reader)
        let message = uriMessage(length: 50)
        #expect(await caught { try await tag.writeNDEF(message) }?.code == .authenticationRequired)
        #expect(reader.count(of: .write) == 0)
        let pack = try await tag.authenticate(password: Self.password, expectedPasswordAcknowledge: Self.acknowledge)
        #expect(pack == Self.acknowledge)
        #expect(await tag.isAuthenticated)
        try await tag.writeNDEF(message)
        #expect(stored(reader.type2Tag).message == message)
    }

    @Test(
        "A PACK other than expected: passwordAcknowledgeMismatch (no attempt counted), and the authentication is not kept"
    )
    func packMismatch() async throws {
        let reader = makeReader([try protectedTag()])
        let (_, tag) = try await openTag(reader)
        let error = await caught {
            try await tag.authenticate(password: Self.password, expectedPasswordAcknowledge: hex("99 99"))
        }
        #expect(error?.code == .passwordAcknowledgeMismatch)
        #expect(await !tag.isAuthenticated)
        #expect(await caught { try await tag.writeNDEF(uriMessage(length: 20)) }?.code == .authenticationRequired)
        #expect(reader.count(of: .write) == 0)
        #expect(reader.type2Tag.failedAuthenticationCount == 0)
    }

    @Test("NTAG213/215/216 8.8.1 PROT: read-protected pages: readNDEF needs PWD_AUTH; status unknown until then")
    func readProtection() async throws {
        let reader = makeReader([try protectedTag(protectsReading: true)])
        let (_, tag) = try await openTag(reader)
        #expect(await caught { _ = try await tag.readNDEF() }?.code == .authenticationRequired)
        #expect(try await tag.passwordStatus().protection == .unknown)
        try await tag.authenticate(password: Self.password)
        #expect(try await tag.readNDEF() == uriMessage(length: 30))
        let status = try await tag.passwordStatus()
        #expect(status.protection == .from(page: 4, readProtected: true))
        #expect(status.authenticationLimit == 3)
        #expect(status.isAuthenticated)
    }

    /// PWD, PACK; then a new selection and one PWD_AUTH that must answer the PACK; only then CFG1
    /// (AUTHLIM 3) and CFG0 (AUTH0 04h), and CFG0-CFG1 read back. The CC (page 3) is never written.
    @Test("NTAG213/215/216 8.8: setPassword on a factory NTAG215: exact commands, AUTH0 last, PACK verified")
    func setPasswordSequence() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag215)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        let selects = reader.selectCount
        try await tag.setPassword(
            Type2PasswordSettings(
                password: Self.password, passwordAcknowledge: Self.acknowledge, authenticationLimit: 3))
        #expect(
            reader.log.map(\.frame) == [
                [0x3A, 0x83, 0x84],
                [0xA2, 0x85] + Self.password,
                [0xA2, 0x86] + Self.acknowledge + [0, 0],
                [0x1B] + Self.password,
                [0xA2, 0x84, 0x03, 0x00, 0x00, 0x00],
                [0xA2, 0x83, 0x04, 0x00, 0x00, 0x04],
                [0x3A, 0x83, 0x84],
            ])
        #expect(reader.selectCount == selects + 1)
        #expect(await tag.isAuthenticated)
        #expect(!reader.log.contains { $0.frame.starts(with: [0xA2, 0x03]) })
        #expect(try await tag.passwordStatus().protection == .from(page: 4, readProtected: false))
    }

    @Test("Changing the password of a protected tag needs the old one first")
    func changePassword() async throws {
        let reader = makeReader([try protectedTag()])
        let (_, tag) = try await openTag(reader)
        let new = Type2PasswordSettings(password: hex("01 02 03 04"), passwordAcknowledge: hex("AB CD"))
        #expect(await caught { try await tag.setPassword(new) }?.code == .authenticationRequired)
        #expect(reader.count(of: .write) == 0)
        try await tag.authenticate(password: Self.password)
        try await tag.setPassword(new)
        #expect(stored(reader.type2Tag).configuration?.password == hex("01 02 03 04"))
    }

    @Test("NTAG213/215/216 8.8: removePassword authenticates once with the current password, AUTH0 FFh first")
    func removePassword() async throws {
        let reader = makeReader([try protectedTag(protectsReading: true)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        try await tag.removePassword(currentPassword: Self.password, expectedPasswordAcknowledge: Self.acknowledge)
        #expect(reader.count(of: .passwordAuthentication) == 1)
        let writes = reader.log.filter { $0.kind == .write }.map(\.frame)
        #expect(writes.first == [0xA2, 0x83, 0x04, 0x00, 0x00, 0xFF])
        #expect(try await tag.passwordStatus().protection == .off)
        let configuration = try #require(stored(reader.type2Tag).configuration)
        #expect(configuration.password == [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(configuration.authenticationLimit == 0)
        #expect(!configuration.isReadProtected)
    }

    @Test("Arguments are checked before any command; MIFARE Ultralight has no PWD_AUTH")
    func arguments() async throws {
        let reader = makeReader([SimulatedType2Tag(chip: .ntag213)])
        let (_, tag) = try await openTag(reader)
        reader.clearLog()
        #expect(await caught { try await tag.authenticate(password: [1, 2, 3]) }?.code == .invalidParameter)
        #expect(
            await caught { try await tag.authenticate(password: [1, 2, 3, 4], expectedPasswordAcknowledge: [1]) }?.code
                == .invalidParameter)
        let bad = Type2PasswordSettings(
            password: Self.password, passwordAcknowledge: Self.acknowledge, authenticationLimit: 9)
        #expect(await caught { try await tag.setPassword(bad) }?.code == .invalidParameter)
        #expect(reader.log.isEmpty)

        var image = SimulatedType2Tag.factoryImage(chip: .mifareUltralight)
        image.replaceSubrange(12..<20, with: hex("E1 10 06 00 03 00 FE 00"))
        let ultralight = makeReader([SimulatedType2Tag(chip: .mifareUltralight, image: image)])
        let (_, plain) = try await openTag(ultralight)
        #expect(await caught { try await plain.authenticate(password: Self.password) }?.code == .unsupportedFeature)
        #expect(try await plain.passwordStatus().mechanism == .none)
    }
}
