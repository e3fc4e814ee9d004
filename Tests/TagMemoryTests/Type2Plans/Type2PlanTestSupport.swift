import NDEF
import TagMemory

/// Tag images and checks shared by the Type 2 plan tests.
enum Type2PlanSupport {
    /// The factory image fixture of every catalogue chip.
    static let factoryFixtures: [String: String] = [
        "MF0ICU1": "ultralight-mf0icu1-factory.hex", "MF0UL11": "ultralight-ev1-mf0ul11-factory.hex",
        "NT2L1011": "ntag210-factory.hex", "MF0UL21": "ultralight-ev1-mf0ul21-factory.hex",
        "NT2L1211": "ntag212-factory.hex", "NT2H1311": "ntag213-factory.hex",
        "MF0ICU2": "ultralight-c-mf0icu2-factory.hex",
        "NT2H1511": "ntag215-factory.hex", "NT2H1611": "ntag216-factory.hex",
    ]

    /// The image of `chip` as it leaves the factory (from `Fixtures/tags`).
    static func factory(_ chip: Type2Chip) throws -> Type2Memory {
        guard let name = factoryFixtures[chip.typeCode] else { throw FixtureMissing(name: chip.typeCode) }
        return Type2Memory(bytes: try TagFixtures.load(name), chip: chip)
    }

    /// `chip`'s factory image, NDEF formatted by the format plan where NXP ships it blank.
    static func formatted(_ chip: Type2Chip) throws -> Type2Memory {
        let memory = try factory(chip)
        return try memory.applying(memory.formatPlan())
    }

    /// The states of `memory` before the plan and after each step, applied one by one.
    static func states(of memory: Type2Memory, applying plan: TagWritePlan) throws -> [Type2Memory] {
        var states = [memory]
        for step in plan.steps {
            guard let last = states.last else { break }
            states.append(
                try last.applying(TagWritePlan(steps: [step], requiresAuthentication: plan.requiresAuthentication)))
        }
        return states
    }

    /// A message that encodes to exactly `length` bytes (0 or 3 and more), of records with
    /// TNF unknown (no type) and payload bytes derived from `seed`.
    static func message(length: Int, seed: UInt8 = 1) -> NFCNDEFMessage? {
        func record(_ size: Int) -> NFCNDEFPayload {
            let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
            return NFCNDEFPayload(format: .unknown, type: [], payload: payload)
        }
        switch length {
        case 0: return NFCNDEFMessage(records: [])
        case 3...258: return NFCNDEFMessage(records: [record(length - 3)])
        case 259...261: return NFCNDEFMessage(records: [record(200), record(length - 206)])
        case 262...: return NFCNDEFMessage(records: [record(length - 6)])
        default: return nil
        }
    }

    /// The message bytes a plan writes for `message` (empty for no records).
    static func bytes(of message: NFCNDEFMessage, chunkSize: Int? = nil) throws -> [UInt8] {
        message.records.isEmpty ? [] : try message.encoded(chunkSize: chunkSize)
    }

    /// A URI record message (NFC Forum URI RTD 1.0, 3.2.2: prefix 04h = "https://") of exactly
    /// `length` bytes (7 to 259): D1 01 len 55 04 then `length - 5` characters.
    static func uriMessage(length: Int) -> NFCNDEFMessage {
        let text = (0..<max(0, length - 5)).map { UInt8(0x61 + $0 % 26) }
        return NFCNDEFMessage(records: [NFCNDEFPayload(format: .nfcWellKnown, type: "U", payload: [0x04] + text)])
    }
}

/// A chip without a factory fixture.
struct FixtureMissing: Error {
    let name: String
}

/// The pages a plan writes.
func writtenPages(_ plan: TagWritePlan) -> [Int] { plan.steps.map(\.address) }
