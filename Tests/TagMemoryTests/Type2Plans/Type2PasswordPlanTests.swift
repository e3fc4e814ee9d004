import NDEF
import TagMemory
import TestSupport
import Testing

/// Password plans for NTAG21x and MIFARE Ultralight EV1 (NTAG213/215/216 8.8 and 8.5.7, MF0ULX1 8.6).
@Suite("Type 2 password plans")
struct Type2PasswordPlanTests {
    static let password = hex("de ad be ef")
    static let acknowledge = hex("c0 de")
    static let settings = Type2PasswordSettings(password: password, passwordAcknowledge: acknowledge)

    /// Whether `text` shows the password or the PACK in any usual hex spelling.
    static func revealsSecret(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["de ad be ef", "deadbeef", "de:ad:be:ef", "c0 de", "c0de", "222 173 190 239", "222, 173"]
            .contains { lower.contains($0) }
    }

    @Test(
        "8.8: PWD, PACK, CFG1, then CFG0 with AUTH0 last; never the CC; protection starts at page 4",
        arguments: Type2ChipCatalogue.all.filter { $0.configurationPages != nil })
    func setEveryChip(_ chip: Type2Chip) throws {
        let memory = try Type2PlanSupport.formatted(chip)
        let pages = try #require(chip.configurationPages)
        let plan = try memory.passwordPlan(
            Type2PasswordSettings(
                password: Self.password, passwordAcknowledge: Self.acknowledge, protectsReading: true,
                authenticationLimit: 3))
        #expect(writtenPages(plan) == [pages.password, pages.passwordAcknowledge, pages.cfg1, pages.cfg0])
        #expect(plan.steps.map(\.isSecret) == [true, true, false, false])
        #expect(!plan.requiresAuthentication)
        let protected = try memory.applying(plan)
        #expect(protected.firstWriteProtectedPage == 4)
        #expect(protected.configuration?.isReadProtected == true && protected.configuration?.authenticationLimit == 3)
        #expect(protected.configuration?.password == Self.password)
        #expect(protected.configuration?.passwordAcknowledge == Self.acknowledge)
        #expect(Array(protected.bytes[0..<16]) == Array(memory.bytes[0..<16]), "UID, lock bytes and CC untouched")
        // Protected: writing needs PWD_AUTH now.
        #expect(throws: TagMemoryError(.notWritable, "")) {
            try protected.applying(protected.writePlan(for: textMessage(count: 1)), authenticated: false)
        }
        // Removal: AUTH0 FF first, while authenticated.
        let removal = try protected.passwordRemovalPlan()
        #expect(writtenPages(removal) == [pages.cfg0, pages.cfg1, pages.password, pages.passwordAcknowledge])
        #expect(removal.requiresAuthentication)
        #expect(throws: TagMemoryError(.notWritable, "")) { try protected.applying(removal, authenticated: false) }
        let open = try protected.applying(removal)
        #expect(open.firstWriteProtectedPage == nil && open.configuration?.access == memory.configuration?.access)
        #expect(open.configuration?.password == hex("ff ff ff ff"))
        #expect(
            Array(open.bytes[..<Type2Page.firstByte(of: pages.password)])
                == Array(memory.bytes[..<Type2Page.firstByte(of: pages.password)]))
    }

    @Test("8.5.7: the plan on an NTAG213 gives the password-protected fixture (AUTH0 04, ACCESS 83)")
    func matchesFixture() throws {
        let memory = try TagFixtures.memory("ntag213-short-message.hex")
        let plan = try memory.passwordPlan(
            Type2PasswordSettings(
                password: Self.password, passwordAcknowledge: Self.acknowledge, protectsReading: true,
                authenticationLimit: 3))
        #expect(plan.steps.map(\.address) == [0x2B, 0x2C, 0x2A, 0x29])
        #expect(plan.steps[2].data == hex("83 00 00 00") && plan.steps[3].data == hex("04 00 00 04"))
        var result = try memory.applying(plan).bytes
        // PWD and PACK read back as 00h from a tag (8.5.7); the fixture is a read image.
        result.replaceSubrange((0x2B * 4)..<(0x2D * 4), with: [UInt8](repeating: 0, count: 8))
        #expect(result == (try TagFixtures.load("ntag213-password-protected.hex")))
        // Default settings: writing only, unlimited attempts: CFG1 unchanged, so left out.
        let simple = try memory.passwordPlan(Self.settings)
        #expect(simple.steps.map(\.address) == [0x2B, 0x2C, 0x29])
    }

    @Test("Passwords never appear in a step's reason, a description, or the settings' description")
    func secretsAreRedacted() throws {
        let memory = try TagFixtures.memory("ntag215-short-message.hex")
        let plan = try memory.passwordPlan(Self.settings)
        for step in plan.steps {
            #expect(!Self.revealsSecret(step.reason) && !Self.revealsSecret(step.description), "\(step)")
        }
        #expect(plan.steps[0].description == "page 133: ** ** ** **  (PWD: the new password)")
        #expect(plan.steps[1].description.hasPrefix("page 134: ** ** ** **"))
        #expect(!Self.revealsSecret(plan.description))
        #expect(!Self.revealsSecret(Self.settings.description) && !Self.revealsSecret("\(Self.settings)"))
        #expect(!Self.revealsSecret(String(reflecting: Self.settings)))
        // The data carries the bytes: the command needs them.
        #expect(plan.steps[0].data == Self.password)
        // Errors do not quote a password either.
        do {
            _ = try memory.passwordPlan(Type2PasswordSettings(password: hex("de ad be"), passwordAcknowledge: [1, 2]))
        } catch {
            #expect(error.code == .invalidArgument && !Self.revealsSecret(error.description))
        }
    }

    @Test("8.5.7: with CFGLCK, AUTH0 cannot be lifted first, so neither settings nor the password change")
    func configurationLocked() throws {
        var bytes = try TagFixtures.load("ntag213-password-protected.hex")
        bytes[0x2A * 4] |= 0x40  // CFGLCK
        let memory = Type2Memory(bytes: bytes, chip: .ntag213)
        #expect(throws: TagMemoryError(.conflictingState, "")) { try memory.passwordRemovalPlan() }
        #expect(throws: TagMemoryError(.conflictingState, "")) { try memory.passwordPlan(Self.settings) }
        let same = Type2PasswordSettings(
            password: Self.password, passwordAcknowledge: Self.acknowledge, protectsReading: true,
            authenticationLimit: 3)
        let error = #expect(throws: TagMemoryError.self) { try memory.passwordPlan(same) }
        #expect(error?.code == .conflictingState && error?.reason.contains("torn PWD write") == true)
    }

    @Test(
        "8.8, 10.4: a change lifts AUTHLIM and AUTH0 first, sets them last; every prefix opens with old, new or none")
    func changeOrder() throws {
        let memory = try TagFixtures.memory("ntag213-password-protected.hex")
        let old = try #require(memory.configuration)
        #expect(old.authenticationLimit != 0)
        let settings = Type2PasswordSettings(
            password: hex("01 02 03 04"), passwordAcknowledge: hex("55 66"), firstProtectedPage: 16,
            authenticationLimit: 5)
        let change = try memory.passwordChangePlan(settings)
        #expect(writtenPages(TagWritePlan(steps: change.beforeCheck)) == [0x2A, 0x29, 0x2B, 0x2C])
        #expect(writtenPages(TagWritePlan(steps: change.afterCheck)) == [0x2A, 0x29])
        let plan = try memory.passwordPlan(settings)
        #expect(plan == change.writePlan)
        #expect(plan.steps.map(\.isSecret) == [false, false, true, true, false, false])
        var lifted = old
        lifted.authenticationLimit = 0
        #expect(plan.steps[0].data == lifted.cfg1)
        #expect(plan.steps[1].data == Array(old.cfg0.prefix(3)) + [0xFF])
        #expect(plan.requiresAuthentication)
        for count in 0...plan.steps.count {
            let prefix = TagWritePlan(steps: Array(plan.steps.prefix(count)), requiresAuthentication: true)
            let state = try #require(try memory.applying(prefix).configuration)
            switch count {
            case 0:
                #expect(state.firstProtectedPage == 4 && state.authenticationLimit == old.authenticationLimit)
            case 1: #expect(state.firstProtectedPage == 4 && state.authenticationLimit == 0, "no attempt counts")
            case plan.steps.count:
                #expect(state.firstProtectedPage == 16 && state.password == settings.password)
                #expect(state.authenticationLimit == 5)
            default: #expect(state.firstProtectedPage == nil, "after \(count) steps")
            }
        }
        // The same settings again on the protected tag: AUTHLIM 0, lift, PWD, PACK, CFG1, AUTH0 back.
        let again = try memory.applying(plan).passwordPlan(settings)
        #expect(writtenPages(again) == [0x2A, 0x29, 0x2B, 0x2C, 0x2A, 0x29])
        // With AUTHLIM 0 already, CFG1 is left alone until after the check.
        let unlimited = Type2PasswordSettings(
            password: hex("01 02 03 04"), passwordAcknowledge: hex("55 66"), firstProtectedPage: 16)
        let free = try memory.applying(try memory.passwordPlan(unlimited)).passwordChangePlan(unlimited)
        #expect(writtenPages(TagWritePlan(steps: free.beforeCheck)) == [0x29, 0x2B, 0x2C])
    }

    @Test("Refusals: argument sizes, AUTHLIM, AUTH0 range, chips without PWD_AUTH")
    func refusals() throws {
        let memory = try TagFixtures.memory("ntag213-factory.hex")
        let invalid: [Type2PasswordSettings] = [
            Type2PasswordSettings(password: [1, 2, 3], passwordAcknowledge: [1, 2]),
            Type2PasswordSettings(password: [1, 2, 3, 4], passwordAcknowledge: [1]),
            Type2PasswordSettings(password: [1, 2, 3, 4], passwordAcknowledge: [1, 2], authenticationLimit: 8),
            Type2PasswordSettings(password: [1, 2, 3, 4], passwordAcknowledge: [1, 2], firstProtectedPage: 45),
            Type2PasswordSettings(password: [1, 2, 3, 4], passwordAcknowledge: [1, 2], firstProtectedPage: -1),
        ]
        for settings in invalid {
            #expect(throws: TagMemoryError(.invalidArgument, ""), "\(settings)") { try memory.passwordPlan(settings) }
        }
        for chip in [Type2Chip.mifareUltralight, .mifareUltralightC] {
            let other = try Type2PlanSupport.formatted(chip)
            #expect(throws: TagMemoryError(.unsupportedChip, "")) { try other.passwordPlan(Self.settings) }
            #expect(throws: TagMemoryError(.unsupportedChip, "")) { try other.passwordRemovalPlan() }
        }
        let unknown = Type2Memory(bytes: memory.bytes)
        #expect(throws: TagMemoryError(.unsupportedChip, "")) { try unknown.passwordPlan(Self.settings) }
        let partial = Type2Memory(bytes: Array(memory.bytes.prefix(0x2A * 4)), chip: .ntag213)
        #expect(throws: TagMemoryError(.truncatedImage, "")) { try partial.passwordPlan(Self.settings) }
    }

    @Test("8.8.1: changing the password of a protected tag needs the old one; AUTH0 2 protects the lock bytes")
    func changeAndLowAUTH0() throws {
        let memory = try TagFixtures.memory("ntag215-password-protected.hex")
        #expect(try memory.passwordPlan(Self.settings).requiresAuthentication)
        let open = try TagFixtures.memory("ntag215-factory.hex")
        let low = try open.applying(
            open.passwordPlan(
                Type2PasswordSettings(
                    password: Self.password, passwordAcknowledge: Self.acknowledge, firstProtectedPage: 2)))
        #expect(throws: TagMemoryError(.notWritable, "")) { try low.applyingWrite(page: 2, data: hex("0000ffff")) }
        #expect(try low.lockPlan().requiresAuthentication)
    }
}
