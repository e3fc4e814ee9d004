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
    private let counts = Mutex<[String: Int]>([:])
    /// Whether the last frame was a COMPATIBILITY_WRITE, whose data frame follows.
    private let compatibilityWritePending = Mutex(false)
    /// The PWD and PACK pages whose writes are hidden, and whether the next frame is the data
    /// of a COMPATIBILITY_WRITE to one of them.
    private let secrets = Mutex<(pages: Set<Int>, nextFrameSecret: Bool)>((allPasswordPages, false))

    /// The PWD and PACK pages of every chip with PWD_AUTH, for a chip not identified (yet).
    static let allPasswordPages = Set(
        Type2ChipCatalogue.all.compactMap(\.configurationPages).flatMap { [$0.password, $0.passwordAcknowledge] })

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
    var commandCounts: [String: Int] { counts.withLock { $0 } }

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
        let afterCompatibilityWrite = compatibilityWritePending.withLock { pending in
            defer { pending = frame.first == 0xA0 }
            return pending
        }
        InterruptGuard.commandStarting(
            isWrite: InterruptGuard.isWrite(frame: frame, afterCompatibilityWrite: afterCompatibilityWrite))
        let name = Type2Command.name(of: frame.first)
        counts.withLock { $0[name, default: 0] += 1 }
        // The progress of page writes comes from the tag (NFCWriteProgress: writes done of
        // writes planned, ``TagConnection``).
        if frame.first != 0xA2 {
            // The writes are over (the verification reads follow): the progress line stays as it is.
            console.endProgress()
        }
        let isSecret = frame.first == 0x1B
        if console.isVerbose {
            console.trace("  > " + shown(frame) + "  \(name)")
        }
        do {
            let response = try await base.transceive(frame)
            if frame.first == 0x60, case .data(let version) = response,
                let chip = Type2ChipCatalogue.chip(forVersion: version)
            {
                let pages = chip.configurationPages.map { Set([$0.password, $0.passwordAcknowledge]) } ?? []
                secrets.withLock { $0.pages = pages }
            }
            if console.isVerbose { console.trace("  < " + Self.describe(response, secret: isSecret)) }
            return response
        } catch {
            console.trace("  < no answer: \(error.reason)")
            throw error
        }
    }

    /// `30 04`, `1B ** ** ** **`, `A2 85 ** ** ** **`: the frame as hex, the password bytes hidden.
    private func shown(_ frame: [UInt8]) -> String {
        let hidden = secrets.withLock { state -> Int? in
            if state.nextFrameSecret {
                state.nextFrameSecret = false
                return 0
            }
            guard let opcode = frame.first else { return nil }
            if opcode == 0x1B { return 1 }
            guard opcode == 0xA2 || opcode == 0xA0, frame.count > 1, state.pages.contains(Int(frame[1])) else {
                return nil
            }
            if opcode == 0xA0 { state.nextFrameSecret = true }
            return 2
        }
        guard let hidden, frame.count > hidden else { return Hex.encode(frame, uppercase: true, separator: " ") }
        let masked = Array(repeating: "**", count: frame.count - hidden).joined(separator: " ")
        return hidden == 0
            ? masked : Hex.encode(frame.prefix(hidden), uppercase: true, separator: " ") + " " + masked
    }

    func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        InterruptGuard.commandStarting(isWrite: InterruptGuard.isWrite(apdu: apdu))
        counts.withLock { $0["APDU", default: 0] += 1 }
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
