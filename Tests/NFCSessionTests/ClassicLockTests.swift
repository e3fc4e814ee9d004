import NDEF
import NFCSession
import SimulatedReader
import TagMemory
import TagSimulator
import Testing

/// Making MIFARE Classic cards read-only (AN1305) with key B from a keyring, confirmed by code.
@Suite("MIFARE Classic lock")
struct ClassicLockTests {
    static let keys = MifareClassicKeyring(keyBToInstall: ClassicSessionTests.keyB)

    /// A formatted 1K holding `message`.
    static func card(holding message: NFCNDEFMessage) async throws -> SimulatedClassicTag {
        let reader = SimulatedReader(tag: .classic(ClassicSessionTests.formattedCard()))
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        try await card.writeNDEF(message)
        await session.invalidate()
        return try #require(ClassicSessionTests.card(in: reader))
    }

    @Test(
        "Locked: every trailer has 07 8F 0F (GPB 43h for NFC sectors), the card reads as read-only, writes are refused")
    func lock() async throws {
        let message = uriMessage(length: 80)
        let reader = SimulatedReader(tag: .classic(try await Self.card(holding: message)))
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        await card.useKeys(Self.keys)
        let confirmation = try await card.prepareLock()
        #expect(confirmation.plan.steps.count == 16 && confirmation.messageLength == 80)
        #expect(!confirmation.plan.description.contains("4B"))
        try await card.writeLock(confirmation)
        #expect(try await card.queryNDEFStatus() == (.readOnly, 716))
        #expect(try await card.readNDEF() == message)
        let refused = await caught { try await card.writeNDEF(uriMessage(length: 20)) }
        #expect(refused?.code == .tagNotWritable)
        let stored = try #require(ClassicSessionTests.card(in: reader))
        for sector in MifareClassicType.classic1K.sectors {
            let trailer = stored.trailer(of: sector)
            #expect(Array(trailer[6..<9]) == [0x07, 0x8F, 0x0F], "\(sector)")
            #expect(trailer[9] == (sector.number == 0 ? 0xC1 : 0x43), "\(sector)")
        }
        #expect(await caught { _ = try await card.prepareLock() }?.code == .tagNotWritable)
        await session.invalidate()
    }

    @Test("Without key B, or with a message changed since the code, nothing is written")
    func refusals() async throws {
        let reader = SimulatedReader(tag: .classic(try await Self.card(holding: uriMessage(length: 30))))
        let (session, card) = try await ClassicSessionTests.openCard(reader)
        reader.withField { $0.resetCommandCounts() }
        let noKey = await caught { _ = try await card.prepareLock() }
        #expect(noKey?.code == .authenticationFailed)
        await card.useKeys(Self.keys)
        let confirmation = try await card.prepareLock()
        try await card.writeNDEF(uriMessage(length: 31))
        reader.withField { $0.resetCommandCounts() }
        #expect(await caught { try await card.writeLock(confirmation) }?.code == .confirmationMismatch)
        #expect(reader.field.classicCommandCounts[.write] == nil)
        await session.invalidate()
    }

    @Test("A cut at any command of a lock leaves sectors locked or not, all keys known; the same lock finishes it")
    func cutMatrix() async throws {
        let card = try await Self.card(holding: uriMessage(length: 50))
        let clean = SimulatedReader(tag: .classic(card))
        let (cleanSession, cleanCard) = try await ClassicSessionTests.openCard(clean)
        await cleanCard.useKeys(Self.keys)
        let code = try await cleanCard.prepareLock()
        let prepared = await cleanCard.commandsSent
        try await cleanCard.writeLock(code)
        let total = await cleanCard.commandsSent - prepared
        await cleanSession.invalidate()
        var interrupted = 0
        for cut in 1...total {
            let reader = SimulatedReader(field: SimulatedField(.classic(card)))
            let (session, tag) = try await ClassicSessionTests.openCard(reader)
            await tag.useKeys(Self.keys)
            let confirmation = try await tag.prepareLock()
            reader.withField { $0.arm(.init(removeAfterCommands: cut, inFlight: .tearsPage)) }
            let error = await caught { try await tag.writeLock(confirmation) }
            await session.invalidate()
            guard error != nil else { continue }
            interrupted += 1
            var field = reader.field
            field.putBack()
            field.disarm()
            let after = try #require(field.tags.first?.classicTag)
            for sector in MifareClassicType.classic1K.sectors {
                let bits = Array(after.trailer(of: sector)[6..<9])
                #expect(bits == [0x07, 0x8F, 0x0F] || bits == [0x7F, 0x07, 0x88] || bits == [0x78, 0x77, 0x88])
                #expect(Array(after.trailer(of: sector).suffix(6)) == ClassicSessionTests.keyB.bytes)
            }
            #expect(after.memory.message == uriMessage(length: 50))
            let again = SimulatedReader(field: field)
            let (second, retry) = try await ClassicSessionTests.openCard(again)
            await retry.useKeys(Self.keys)
            let locked = MifareClassicType.classic1K.sectors.allSatisfy {
                Array(after.trailer(of: $0)[6..<9]) == [0x07, 0x8F, 0x0F]
            }
            // Cut while the last trailer was read back: nothing is left to lock.
            if !locked { try await retry.writeLock(try await retry.prepareLock()) }
            #expect(try await retry.queryNDEFStatus().0 == .readOnly, "after the cut at \(cut)")
            await second.invalidate()
        }
        #expect(interrupted == total)
    }
}
