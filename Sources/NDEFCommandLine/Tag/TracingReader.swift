import HexText
import NDEF
import NFCSession
import NFCWireFormat
import Synchronization
import TagMemory

/// A reader that passes everything to another and counts the commands sent to tags, showing
/// each one with its answer on the console with `--verbose`.
///
/// Frames are shown as hex with the command's name (NFC Forum Type 2 Tag 1.1, 5; NTAG213/215/216
/// section 10): `> 30 04  READ` and `< 16 bytes: ...`. PWD_AUTH arguments and its PACK answer are
/// never shown (`**`), nor the data of a WRITE (or COMPATIBILITY_WRITE) to the PWD or PACK page:
/// those of the chip GET_VERSION named, else those of every chip in the catalogue.
final class TracingReader: NFCReaderLifecycleReporting {
    /// The reader commands go to.
    let base: any NFCReaderDevice
    private let console: TagConsole
    /// The counts, the secret pages and a COMPATIBILITY_WRITE's pending data frame.
    private let trace = Mutex(CommandTrace())

    /// Wraps `base`, showing commands on `console`.
    init(_ base: any NFCReaderDevice, console: TagConsole) {
        self.base = base
        self.console = console
    }

    var name: String { base.name }

    /// Passes the registration on to the reader underneath, when it reports reconnects.
    func observeLifecycle(_ handler: @escaping @Sendable (NFCReaderLifecycleEvent) -> Void) {
        (base as? any NFCReaderLifecycleReporting)?.observeLifecycle(handler)
    }
    var capabilities: NFCReaderCapabilities { base.capabilities }

    /// The number of WRITE commands after which a write shows its progress on a terminal.
    static let progressAfter = 8

    /// The number of frames and APDUs sent, by command name.
    var commandCounts: [String: Int] { trace.withLock { $0.counts } }

    /// `31 tag commands: 2 FAST_READ, 1 GET_VERSION, 28 WRITE`.
    var summary: String {
        let counts = commandCounts
        let total = counts.values.reduce(0, +)
        let parts = counts.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
        return "\(total) tag command\(total == 1 ? "" : "s")"
            + (parts.isEmpty ? "" : ": " + parts.joined(separator: ", "))
    }

    func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        try await base.pollTargets()
    }

    func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        console.trace("  select \(target.uidDescription)")
        try await base.select(target)
    }

    func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        let facts = trace.withLock { $0.send(frame) }
        InterruptGuard.commandStarting(isWrite: facts.isWrite)
        // The progress of page writes comes from the tag (NFCWriteProgress: writes done of
        // writes planned, ``TagConnection``).
        if frame.first != Type2Command.write.opcode {
            // The writes are over (the verification reads follow): the progress line stays as it is.
            console.endProgress()
        }
        if console.isVerbose {
            console.trace("  > " + CommandTrace.shown(frame, shownBytes: facts.shownBytes) + "  \(facts.name)")
        }
        do {
            let response = try await base.transceive(frame)
            trace.withLock { $0.answered(facts, with: response) }
            if console.isVerbose { console.trace("  < " + Self.describe(response, secret: facts.answerIsSecret)) }
            return response
        } catch {
            console.trace("  < no answer: \(error.reason)")
            throw error
        }
    }

    /// The Gen1a backdoor probe (HLTA, 40h in 7 bits, 43h), shown as one line.
    func probeGen1aBackdoor() async throws(NFCReaderError) -> Bool {
        if console.isVerbose { console.trace("  > 50 00, 40 (7 bits), 43  HLTA and the Gen1a backdoor") }
        let answered = try await base.probeGen1aBackdoor()
        if console.isVerbose { console.trace("  < " + (answered ? "ACK, ACK" : "no answer")) }
        return answered
    }

    /// A MIFARE Classic command: keys are never shown (an authentication's key, the key fields
    /// of a trailer written or read, as `**`).
    func transceiveClassic(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        let isWrite = frame.first == MifareClassicCommand.write.opcode
        InterruptGuard.commandStarting(isWrite: isWrite)
        trace.withLock { $0.sendClassic(frame) }
        if !isWrite { console.endProgress() }
        if console.isVerbose {
            console.trace("  > " + CommandTrace.shownClassic(frame) + "  " + MifareClassicCommand.name(of: frame.first))
        }
        do {
            let response = try await base.transceiveClassic(frame)
            if console.isVerbose {
                let readsTrailer =
                    frame.first == MifareClassicCommand.read.opcode && frame.count == 2
                    && MifareClassicSector.isTrailer(block: Int(frame[1]))
                console.trace("  < " + Self.describe(response, secret: readsTrailer))
            }
            return response
        } catch {
            console.trace("  < no answer: \(error.reason)")
            throw error
        }
    }

    func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        InterruptGuard.commandStarting(isWrite: InterruptGuard.isWrite(apdu: apdu))
        trace.withLock { $0.sendAPDU() }
        // The progress of UPDATE BINARY writes (ISO/IEC 7816-4, 11.2.5) comes from the tag, as
        // for page writes: another command ends the progress line.
        if apdu.count < 2 || apdu[1] != 0xD6 { console.endProgress() }
        console.trace("  > APDU " + Hex.encode(apdu, uppercase: true, separator: " "))
        let response = try await base.sendAPDU(apdu)
        console.trace("  < " + Hex.encode(response, uppercase: true, separator: " "))
        return response
    }

    func releaseTargets() async { await base.releaseTargets() }

    func close() async { await base.close() }

    /// `ACK`, `NAK 0h`, `16 bytes: 03 11 D1 01 ...`.
    static func describe(_ response: NFCRawResponse, secret: Bool) -> String {
        switch response {
        case .ack: return "ACK"
        case .nak(let code): return "NAK " + Hex.number(code) + "h"
        case .data(let bytes):
            let shown =
                secret
                ? Array(repeating: "**", count: bytes.count).joined(separator: " ")
                : Hex.encode(bytes, uppercase: true, separator: " ")
            return "\(bytes.count) byte\(bytes.count == 1 ? "" : "s"): " + shown
        }
    }
}

extension TracingReader: NFCReaderSignalling {
    /// Whether the reader underneath has lights or a buzzer ndeftool drives.
    var supportsSignals: Bool { (base as? any NFCReaderSignalling)?.supportsSignals ?? false }

    /// Shows `signal` on the reader underneath; false when it cannot.
    @discardableResult
    func signal(_ signal: NFCReaderSignal) async -> Bool {
        guard let signalling = base as? any NFCReaderSignalling else { return false }
        return await signalling.signal(signal)
    }
}
