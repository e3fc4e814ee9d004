import CommandLineKit
import NDEF
import NFCReaders
import NFCSession
import TagMemory

/// `ndeftool info`: what the tag at the reader is and what state it is in.
enum InfoCommand {
    static let json = OptionSpec.flag("json", help: "Print the facts as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "info",
        abstract: "Show a tag's chip, memory, NDEF status, locks and protection.",
        discussion: """
            Prints the chip and how it was identified (GET_VERSION, else the capability \
            container or the page count), the UID, the user memory, the NDEF status \
            (read/write, read-only, not formatted) with the capacity and the bytes the \
            message uses, the capability container, the static and dynamic lock bits and \
            the pages they lock, the password protection (from which page, for writing or \
            also reading, the attempt limit; PWD and PACK are never shown), the NFC counter \
            on chips that have one (when enabled), the originality signature (READ_SIG) \
            checked against NXP's published keys and those of --signature-key ("valid \
            (NXP NTAG21x key)", or NOT VALID for a clone or an unsigned chip), and, on a \
            writable tag or one whose lock was interrupted, the code 'ndeftool lock \
            --confirm' takes.

            On a MIFARE Classic card: the product (from the SAK), the MAD (version, CRC, the \
            NFC sectors it names; NXP AN10787, AN1304), and for every sector the key that \
            opened it (a public key by name, or one of --keys-file's, never shown), its \
            access bits and GPB, and what they let each key do (MF1S50yyX 8.7); the lock \
            code when --keys-file gives key B.

            On a Type 4 tag (ISO-DEP): the ATS, the capability container of the NDEF Tag \
            Application (mapping version, MLe, MLc, the NDEF file with its size and read \
            and write access; NFC Forum Type 4 Tag 3.0, 5.1), the NDEF status and the \
            lock code.

            Nothing is written. Facts the tag does not give (password-protected pages, \
            commands the chip lacks) are reported as unknown; they do not change the exit \
            status.

            Examples:
              ndeftool info --reader 'sim:ntag215?file=tag.nfc'
              ndeftool info --json --wait 0
              ndeftool info --reader 'sim:type4?file=t4.txt'
            """,
        options: [json, SignatureKeyOptions.signatureKey, ClassicKeysFile.option],
        groups: [TagPasswordOptions.group, TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let password = try TagPasswordOptions.given(invocation)
        let keys = try SignatureKeyOptions.keys(invocation.values)
        let classicKeys = try ClassicKeysFile.keyring(invocation.values)
        let connection = try TagConnection(invocation)
        return try await connection.runOnTag("reading the tag") { tag, address in
            if let classicKeys, let card = tag as? NFCMiFareClassicTag { await card.useKeys(classicKeys) }
            try await TagPasswordOptions.unlock(tag, access: .read, given: password)
            guard let source = tag as? any TagInfoSource else {
                throw CommandLineError(
                    .unavailable,
                    "tag \(tag.targetInfo.uidDescription) is an \(tag.chipName ?? "unknown tag"): "
                        + "'info' does not read its kind yet")
            }
            let report = try await source.infoReport(reader: address.description, keys: keys)
            if invocation.values.flag(json.long) {
                try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
            } else {
                let map = report.pageMap.map { Style(io: invocation.io, stream: .output).pageMap($0) } ?? []
                try invocation.io.writeOutput((report.lines + map).joined(separator: "\n") + "\n")
            }
            return .success
        }
    }
}

extension TagInfoReport {
    /// Reads the facts from `tag`: the whole memory, then the password status, the NFC
    /// counter, the signature and the lock code, each only where the chip has it.
    static func read(
        _ tag: NFCMiFareTag, reader: String, keys: [NFCOriginalityKey] = NFCOriginalityKey.nxpKeys
    ) async throws -> TagInfoReport {
        var report = TagInfoReport(tag: tag, reader: reader)
        let features = tag.chip?.features ?? []
        var memory: Type2Memory?
        do {
            memory = try await tag.readMemory()
        } catch {
            guard error.code == .authenticationRequired else { throw error }
        }
        if let memory {
            report.set(memory: memory, status: memory.ndefStatus)
            report.mirror = MirrorFacts(memory: memory, authenticated: await tag.isAuthenticated)
        } else {
            report.set(memory: nil, status: try await tag.ndefStatus())
        }
        if features.contains(.passwordAuthentication) || features.contains(.tripleDESAuthentication) {
            do {
                report.password = try await tag.passwordStatus()
            } catch {
                if isFatal(error) { throw error }
            }
        }
        if features.contains(.nfcCounter) {
            report.counter = .notReadable
            if memory?.configuration?.isNFCCounterEnabled == false {
                report.counter = .disabled
            } else {
                do {
                    report.counter = .value(try await tag.readCounter(number: 2))
                } catch {
                    if isFatal(error) { throw error }
                }
            }
        }
        if features.contains(.readSignature) {
            do {
                report.signature = try await tag.checkOriginality(keys: keys)
            } catch {
                if isFatal(error) { throw error }
            }
        }
        // A read-only tag gets a code too when its lock was interrupted (lock bits still clear).
        if report.status.status != .notSupported {
            try await addLockCode(to: &report) { () throws(NFCReaderError) in try await tag.prepareLock().code }
        }
        return report
    }

    /// Reads the facts of a Type 4 tag: the CC, the NDEF file and the lock code.
    /// Reads a MIFARE Classic card's facts: the NDEF area with the public keys, every sector's
    /// trailer with the first key that opens it (the keyring ``NFCMiFareClassicTag/useKeys(_:)``
    /// set, and the public keys), the lock code where key B is known.
    static func read(classic card: NFCMiFareClassicTag, reader: String) async throws -> TagInfoReport {
        var report = TagInfoReport(
            reader: reader, target: card.targetInfo,
            identification: Type2Identification(chip: nil, version: nil, method: .unidentified))
        let memory = try await card.readMemory()
        let readings = try await card.sectorReadings()
        report.classic = ClassicInfoFacts(type: card.type, readings: readings, memory: memory)
        report.classic?.gen1aBackdoor = try await card.answersGen1aBackdoor()
        report.status = try await card.ndefStatus()
        report.statusReason = memory.ndefStatusReason
        if readings.first?.key != .directoryKeyA {
            report.statusReason = "sector 0 does not open with the MAD key A: the card has no MAD (AN10787)"
        }
        guard report.status.status != .notSupported else { return report }
        report.memoryRead = true
        report.ndef = memory.ndefMessageBytes
        report.recordCount = memory.message?.records.count ?? (memory.ndefMessageBytes == [] ? 0 : nil)
        try await addLockCode(to: &report) { () throws(NFCReaderError) in try await card.prepareLock().code }
        return report
    }

    static func read(type4 tag: NFCISO7816Tag, reader: String) async throws -> TagInfoReport {
        var report = TagInfoReport(
            reader: reader, target: tag.targetInfo,
            identification: Type2Identification(chip: nil, version: nil, method: .unidentified))
        var facts = Type4InfoFacts(ats: tag.targetInfo.ats, historicalBytes: tag.historicalBytes)
        let cc = try await tag.readCapabilityContainer()
        facts.capabilityContainer = cc
        report.type4 = facts
        report.status = cc.ndefStatus
        guard cc.ndefStatus.status != .notSupported else { return report }
        do {
            let bytes = try await tag.readNDEFMessageBytes() ?? []
            report.memoryRead = true
            report.ndef = bytes
            report.recordCount = bytes.isEmpty ? 0 : (try? NFCNDEFMessage(decoding: bytes))?.records.count
        } catch {
            if isFatal(error) { throw error }
        }
        try await addLockCode(to: &report) { () throws(NFCReaderError) in try await tag.prepareLock().code }
        return report
    }

    /// Whether `error` ends the report (the tag left, the session ended) rather than leaving one
    /// fact unknown (a NAK, a command the chip or reader lacks).
    /// The lock code `prepare` gives, or why there is none (kept only for a writable tag).
    private static func addLockCode(
        to report: inout TagInfoReport, _ prepare: () async throws(NFCReaderError) -> String
    ) async throws(NFCReaderError) {
        do {
            report.lockCode = try await prepare()
        } catch {
            if isFatal(error) { throw error }
            if report.status.status == .readWrite { report.lockProblem = error.reason }
        }
    }

    private static func isFatal(_ error: NFCReaderError) -> Bool {
        [.tagConnectionLost, .cancelled, .readerUnavailable].contains(error.code)
    }
}

/// A tag whose facts `info` reads: each kind of tag reads its own (``TagInfoReport``).
protocol TagInfoSource: NFCNDEFTag {
    /// The facts of this tag, read through `reader`; `keys` verify an originality signature.
    func infoReport(reader: String, keys: [NFCOriginalityKey]) async throws -> TagInfoReport
}

extension NFCMiFareTag: TagInfoSource {
    func infoReport(reader: String, keys: [NFCOriginalityKey]) async throws -> TagInfoReport {
        try await TagInfoReport.read(self, reader: reader, keys: keys)
    }
}

extension NFCMiFareClassicTag: TagInfoSource {
    func infoReport(reader: String, keys: [NFCOriginalityKey]) async throws -> TagInfoReport {
        try await TagInfoReport.read(classic: self, reader: reader)
    }
}

extension NFCISO7816Tag: TagInfoSource {
    func infoReport(reader: String, keys: [NFCOriginalityKey]) async throws -> TagInfoReport {
        try await TagInfoReport.read(type4: self, reader: reader)
    }
}
