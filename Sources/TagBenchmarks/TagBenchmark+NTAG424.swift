import NFCSession
import NTAG424
import TagSimulator

/// The NTAG 424 DNA operations: `sim:ntag424`, a factory tag (NT4H2421Gx 8.2).
extension TagBenchmark {
    /// The NTAG 424 DNA operations, in the order of the table.
    static let ntag424: [TagBenchmark] = [sdmSetUp]

    /// The URL `sdm setup` writes in the benchmark (81-byte message, AN12196's layout).
    static let sdmURL = "https://x.example/t?picc_data={picc}&cmac={mac}"

    /// `setUpSDM` on a factory tag: the message, SDM, keys 1-4 then key 0, and the check.
    static var sdmSetUp: TagBenchmark {
        TagBenchmark(
            id: "sdm-setup", label: "NTAG 424 DNA SDM set-up (81-byte URL, 5 keys)", url: "sim:ntag424",
            operation: { (tag: any NFCNDEFTag) async throws -> Void in
                let keys = (0..<5).map { number in [UInt8](repeating: UInt8(0x10 + number), count: 16) }
                let plan = try NTAG424SDMPlan(template: try NTAG424SDMTemplate(url: sdmURL), keys: keys)
                let ntag = NFCNTAG424Tag(try tag.type4())
                try await ntag.setUpSDM(plan, confirmation: try ntag.prepareSDMSetUp(plan))
            },
            verify: { (field: SimulatedField) -> String? in
                guard let chip = field.tags.first?.type4Tag?.ntag424 else { return "no NTAG 424 DNA" }
                return chip.keyVersions == [1, 1, 1, 1, 1] ? nil : "key versions \(chip.keyVersions)"
            },
            minimum: MinimumBudgets.sdmSetUp(messageLength: 81))
    }
}

extension MinimumBudgets {
    /// Setting up SDM on an NTAG 424 DNA that may be part way (NT4H2421Gx 10.5-10.7; AN12196 5):
    /// the state is read first (which keys changed, the settings, the message), each change is
    /// one command but the message's two (under NLEN 0, as a factory tag has it, then NLEN: T4T
    /// 3.0, 5.5.7, tearing-safe), the session's changes are checked by their MACed answers but
    /// key 0's (its ChangeKey answers without a MAC: its version is read), and the URL a phone
    /// reads is read once and verified.
    static func sdmSetUp(messageLength length: Int) -> CommandBudget {
        CommandBudget(parts: [
            .init(count: 1, command: "SELECT_APPLICATION", reason: "the NDEF application"),
            .init(count: 5, command: "GetKeyVersion", reason: "which keys changed already"),
            .init(count: 1, command: "GetFileSettings", reason: "SDM on already?"),
            .init(count: 1, command: "SELECT_FILE", reason: "the NDEF file"),
            .init(count: 1, command: "READ_BINARY", reason: "NLEN: the message there already?"),
            .init(count: 2, command: "UPDATE_BINARY", reason: "the \(length)-byte message, then NLEN"),
            .init(count: 1, command: "READ_BINARY", reason: "read-back"),
            .init(count: 2, command: "AuthenticateEV2First", reason: "key 0, two frames"),
            .init(count: 1, command: "ChangeFileSettings", reason: "SDM"),
            .init(count: 5, command: "ChangeKey", reason: "keys 1-4, then key 0"),
            .init(count: 1, command: "GetKeyVersion", reason: "key 0's change, answered without a MAC"),
            .init(count: 1, command: "READ_BINARY", reason: "the URL a phone reads, verified"),
        ])
    }
}
