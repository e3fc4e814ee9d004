import NFCSession
import NTAG424
import TagSimulator

/// The NTAG 424 DNA operations: `sim:ntag424`, a factory tag (NT4H2421Gx 8.2).
extension TagBenchmark {
    /// The NTAG 424 DNA operations, in the order of the table.
    static let ntag424: [TagBenchmark] = [sdmSetUp, sdmSetUpLRP, sdmMove, sdmReset]

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

    /// `setUpSDM` of a plan in LRP on a factory tag: the set-up with the switch to LRP
    /// (SetConfiguration) and key 0 authenticated again, in LRP.
    static var sdmSetUpLRP: TagBenchmark {
        TagBenchmark(
            id: "sdm-setup-lrp", label: "NTAG 424 DNA SDM set-up switched to LRP (97-byte URL)", url: "sim:ntag424",
            operation: { (tag: any NFCNDEFTag) async throws -> Void in
                let keys = (0..<5).map { number in [UInt8](repeating: UInt8(0x10 + number), count: 16) }
                let plan = try NTAG424SDMPlan(template: try NTAG424SDMTemplate(url: sdmURL, mode: .lrp), keys: keys)
                let ntag = NFCNTAG424Tag(try tag.type4())
                try await ntag.setUpSDM(plan, confirmation: try ntag.prepareSDMSetUp(plan))
            },
            verify: { (field: SimulatedField) -> String? in
                guard let chip = field.tags.first?.type4Tag?.ntag424 else { return "no NTAG 424 DNA" }
                guard chip.mode == .lrp else { return "still in AES" }
                return chip.keyVersions == [1, 1, 1, 1, 1] ? nil : "key versions \(chip.keyVersions)"
            },
            minimum: MinimumBudgets.sdmSetUpLRP(messageLength: 97))
    }

    /// The keys of the set-up the move and the reset start from.
    static let sdmOldKeys = (0..<5).map { number in [UInt8](repeating: UInt8(0x10 + number), count: 16) }

    /// A factory tag set up with ``sdmURL`` and ``sdmOldKeys``, before the operation is counted.
    static let sdmPrepare: @Sendable (any NFCNDEFTag) async throws -> Void = { tag in
        let plan = try NTAG424SDMPlan(template: try NTAG424SDMTemplate(url: sdmURL), keys: sdmOldKeys)
        let ntag = NFCNTAG424Tag(try tag.type4())
        try await ntag.setUpSDM(plan, confirmation: try ntag.prepareSDMSetUp(plan))
    }

    /// `setUpSDM(_:from:)` on a set-up tag: every key proven, the new message and settings, keys
    /// 1-4 then key 0 changed from the old ones, and the check.
    static var sdmMove: TagBenchmark {
        TagBenchmark(
            id: "sdm-move", label: "NTAG 424 DNA move to new keys and URL (82-byte URL)", url: "sim:ntag424",
            prepare: sdmPrepare,
            operation: { (tag: any NFCNDEFTag) async throws -> Void in
                let keys = (0..<5).map { number in [UInt8](repeating: UInt8(0x60 + number), count: 16) }
                let plan = try NTAG424SDMPlan(
                    template: try NTAG424SDMTemplate(url: "https://x.example/v2?picc_data={picc}&cmac={mac}"),
                    keys: keys, keyVersion: 2)
                let from = try NTAG424KeySet(sdmOldKeys)
                let ntag = NFCNTAG424Tag(try tag.type4())
                try await ntag.setUpSDM(plan, from: from, confirmation: try ntag.prepareSDMSetUp(plan, from: from))
            },
            verify: { (field: SimulatedField) -> String? in
                guard let chip = field.tags.first?.type4Tag?.ntag424 else { return "no NTAG 424 DNA" }
                return chip.keyVersions == [2, 2, 2, 2, 2] ? nil : "key versions \(chip.keyVersions)"
            },
            minimum: MinimumBudgets.sdmMove(oldLength: 81, newLength: 82))
    }

    /// `resetToFactory(from:)` on a set-up tag.
    static var sdmReset: TagBenchmark {
        TagBenchmark(
            id: "sdm-reset", label: "NTAG 424 DNA back to the factory (5 keys, SDM off)", url: "sim:ntag424",
            prepare: sdmPrepare,
            operation: { (tag: any NFCNDEFTag) async throws -> Void in
                let from = try NTAG424KeySet(sdmOldKeys)
                let ntag = NFCNTAG424Tag(try tag.type4())
                try await ntag.resetToFactory(from: from, confirmation: try ntag.prepareFactoryReset(from: from))
            },
            verify: { (field: SimulatedField) -> String? in
                guard let chip = field.tags.first?.type4Tag?.ntag424 else { return "no NTAG 424 DNA" }
                return chip.keys == SimulatedNTAG424Chip().keys ? nil : "not the factory keys"
            },
            minimum: MinimumBudgets.sdmReset)
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
        CommandBudget(
            parts: [
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
            ],
            note: "ndeftool sends 24: it selects the NDEF file again before the write (one write path for every "
                + "state: a tag part way ends its state read with the application selected again, no file) and "
                + "before the URL's read, after native commands that may leave another file or none selected for "
                + "ISO commands (NT4H2421Gx 10.9 does not rule it out): an UPDATE_BINARY must not reach another file")
    }

    /// The set-up of a plan in LRP on a factory tag (NT4H2421Gx 9.2, 10.5.1): the set-up's
    /// commands, and SetConfiguration in key 0's AES session, which ends it, then key 0
    /// authenticated again in LRP (AuthenticateLRPFirst, two frames) for the rest.
    static func sdmSetUpLRP(messageLength length: Int) -> CommandBudget {
        var parts = sdmSetUp(messageLength: length).parts
        let session = (parts.firstIndex { $0.command == "AuthenticateEV2First" } ?? parts.count - 1) + 1
        parts.insert(
            contentsOf: [
                .init(count: 1, command: "SetConfiguration", reason: "option 05h: LRP, for good"),
                .init(count: 2, command: "AuthenticateLRPFirst", reason: "key 0 again, in LRP"),
            ], at: session)
        return CommandBudget(
            parts: parts,
            note: "ndeftool sends 27, the set-up's 24 and the 3 of the switch: the two extra NDEF file selections "
                + "of the set-up")
    }

    /// Moving a set-up tag to new keys and a URL (NT4H2421Gx 10.6.1): the state read as for a
    /// set-up (the message there: NLEN and the message), every key proven by one
    /// AuthenticateEV2First (the version's candidate opens it), the session that leaves ended by
    /// selecting the application again; then the set-up's steps with the old URL's NLEN set to 0
    /// first.
    static func sdmMove(oldLength: Int, newLength: Int) -> CommandBudget {
        CommandBudget(
            parts: [
                .init(count: 1, command: "SELECT_APPLICATION", reason: "the NDEF application"),
                .init(count: 5, command: "GetKeyVersion", reason: "which keys changed already"),
                .init(count: 1, command: "GetFileSettings", reason: "the SDM settings"),
                .init(count: 1, command: "SELECT_FILE", reason: "the NDEF file"),
                .init(count: 2, command: "READ_BINARY", reason: "NLEN, the \(oldLength)-byte message"),
                .init(
                    count: 10, command: "AuthenticateEV2First", reason: "keys 0-4 proven old or new, two frames each"),
                .init(count: 1, command: "SELECT_APPLICATION", reason: "the proof's session ended"),
                .init(count: 1, command: "SELECT_FILE", reason: "the NDEF file"),
                .init(count: 3, command: "UPDATE_BINARY", reason: "NLEN 0, the \(newLength)-byte message, NLEN"),
                .init(count: 1, command: "READ_BINARY", reason: "read-back"),
                .init(count: 2, command: "AuthenticateEV2First", reason: "key 0"),
                .init(count: 1, command: "ChangeFileSettings", reason: "the new SDM offsets"),
                .init(count: 5, command: "ChangeKey", reason: "keys 1-4, then key 0, from the old keys"),
                .init(count: 1, command: "GetKeyVersion", reason: "key 0's change, answered without a MAC"),
                .init(count: 1, command: "READ_BINARY", reason: "the URL a phone reads, verified"),
            ],
            note: "ndeftool sends 37: it selects the NDEF file again before the URL's read, after native commands "
                + "that may leave another file or none selected for ISO commands (NT4H2421Gx 10.9 does not rule it "
                + "out)")
    }

    /// Returning a set-up tag to the factory: the state read (the whole 256-byte file, two
    /// reads), every key proven, the file zero-filled (two UPDATE_BINARY from offset 0, NLEN 0
    /// in the first) and read back, SDM off, keys 1-4 then key 0 back to the factory key, and
    /// the file read whole once SDM is off (the bytes under the mirrors could not be read back
    /// before).
    static var sdmReset: CommandBudget {
        CommandBudget(
            parts: [
                .init(count: 1, command: "SELECT_APPLICATION", reason: "the NDEF application"),
                .init(count: 5, command: "GetKeyVersion", reason: "which keys changed already"),
                .init(count: 1, command: "GetFileSettings", reason: "the SDM settings"),
                .init(count: 1, command: "SELECT_FILE", reason: "the NDEF file"),
                .init(count: 2, command: "READ_BINARY", reason: "the 256-byte file"),
                .init(count: 10, command: "AuthenticateEV2First", reason: "keys 0-4 proven old or factory"),
                .init(count: 1, command: "SELECT_APPLICATION", reason: "the proof's session ended"),
                .init(count: 1, command: "SELECT_FILE", reason: "the NDEF file"),
                .init(count: 2, command: "UPDATE_BINARY", reason: "256 zero bytes"),
                .init(count: 2, command: "READ_BINARY", reason: "read-back"),
                .init(count: 2, command: "AuthenticateEV2First", reason: "key 0"),
                .init(count: 1, command: "ChangeFileSettings", reason: "SDM off"),
                .init(count: 5, command: "ChangeKey", reason: "keys 1-4, then key 0, to the factory key"),
                .init(count: 1, command: "GetKeyVersion", reason: "key 0's change, answered without a MAC"),
                .init(count: 2, command: "READ_BINARY", reason: "the file zero-filled, SDM off"),
            ],
            note: "ndeftool sends 38: it selects the NDEF file again before the last read, after native commands "
                + "that may leave another file or none selected for ISO commands (NT4H2421Gx 10.9 does not rule it "
                + "out)")
    }
}
