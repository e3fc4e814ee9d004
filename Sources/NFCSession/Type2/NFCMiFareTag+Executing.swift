import HexText
import NFCWireFormat
import TagMemory

/// Sending planned page writes and reading them back (NFC Forum Type 2 Tag 1.1, 5.2 WRITE).
extension NFCMiFareTag {
    /// Calls `observer` after each acknowledged WRITE of every plan the tag sends from now on
    /// (message writes, erases, formats, locks, password changes), with the pages written and
    /// the pages the plan has: for a progress display. Nil stops the calls. The observer runs
    /// on the tag's executor: it must return at once.
    public func observeWriteProgress(_ observer: (@Sendable (NFCWriteProgress) -> Void)?) {
        writeProgressObserver = observer
    }

    /// Sends `steps` as WRITE A2h commands, each of which must be acknowledged (ACK, NTAG213/215/216
    /// 9.3). No write is repeated.
    ///
    /// - Throws: ``NFCReaderError/Code/tagConnectionLost`` with ``NFCReaderError/mayBeHalfWritten``
    ///   when the tag stops answering (the write in flight may have landed, whole or torn);
    ///   ``NFCReaderError/Code/tagUpdateFailure`` for a NAK (half-written when an earlier write was
    ///   acknowledged, or for NAK 5h, an EEPROM write error that may have changed the page) or a
    ///   garbled answer. Reasons name pages, never the bytes of a secret step.
    ///
    /// - Parameter sent: how many writes of the same plan were sent before `steps` (a plan sent in
    ///   parts), for the numbering in reasons and for whether an error may leave the tag half-written.
    func execute(_ steps: [PlanStep], purpose: String, after sent: [PlanStep] = []) async throws(NFCReaderError) {
        let total = sent.count + steps.count
        for (offset, step) in steps.enumerated() {
            let index = sent.count + offset
            let position = "WRITE \(index + 1) of \(total) (page \(step.address))"
            let frame = Type2Command.write.frame([UInt8(truncatingIfNeeded: step.address)] + step.data)
            let response: NFCRawResponse
            do {
                response = try await exchange(frame)
            } catch {
                switch error.code {
                case .tagConnectionLost:
                    throw NFCReaderError(
                        .tagConnectionLost,
                        "the tag stopped answering during \(position) of \(purpose): \(error.reason)",
                        mayBeHalfWritten: true)
                case .tagResponseError:
                    throw NFCReaderError(
                        .tagUpdateFailure, "garbled answer to \(position) of \(purpose): \(error.reason)",
                        mayBeHalfWritten: true)
                default:
                    throw NFCReaderError(
                        error.code, "\(position) of \(purpose): \(error.reason)", mayBeHalfWritten: index > 0)
                }
            }
            switch response {
            case .ack:
                writeProgressObserver?(NFCWriteProgress(written: index + 1, planned: total, purpose: purpose))
                continue
            case .nak(let code):
                throw NFCReaderError(
                    .tagUpdateFailure,
                    "the tag refused \(position) of \(purpose) with NAK \(code)h"
                        + (code == 0x5 ? " (EEPROM write error)" : " (locked, protected or invalid page)"),
                    mayBeHalfWritten: index > 0 || code == 0x5)
            case .data:
                throw NFCReaderError(
                    .tagUpdateFailure, "the tag answered \(position) of \(purpose) with data instead of ACK",
                    mayBeHalfWritten: true)
            }
        }
    }

    /// Reads back the pages `steps` wrote (secret steps excepted: PWD and PACK read as 00h) and
    /// compares them with `expected`, the image the plan leads to
    /// (``Type2Memory/applying(_:authenticated:)``, which knows that page 2 keeps its first two
    /// bytes and lock bits are OR-ed in).
    ///
    /// - Throws: ``NFCReaderError/Code/tagUpdateFailure`` naming the first page that differs;
    ///   ``NFCReaderError/Code/tagConnectionLost`` when the tag leaves during the read-back,
    ///   ``NFCReaderError/Code/readerUnavailable`` when the reader goes away; all half-written,
    ///   since the writes could not be confirmed.
    func verify(_ steps: [PlanStep], expected: [UInt8], purpose: String) async throws(NFCReaderError) {
        let pages = Set(steps.filter { !$0.isSecret }.map(\.address)).sorted()
        guard !pages.isEmpty else { return }
        var cache = makeCache()
        do {
            try await load(pages, into: &cache, limit: max(readablePageLimit(cache), (pages.last ?? 0) + 1))
        } catch {
            throw NFCReaderError(
                [.tagConnectionLost, .readerUnavailable].contains(error.code) ? error.code : .tagUpdateFailure,
                "the writes of \(purpose) were acknowledged but could not be read back: \(error.reason)",
                mayBeHalfWritten: true)
        }
        for page in pages {
            let wanted = Type2Page.contents(of: page, in: expected)
            guard let read = cache.page(page) else {
                throw NFCReaderError(
                    .tagUpdateFailure, "page \(page) written by \(purpose) could not be read back",
                    mayBeHalfWritten: true)
            }
            guard read == wanted else {
                throw NFCReaderError(
                    .tagUpdateFailure,
                    "page \(page) reads \(Hex.bytes(read)) after \(purpose), not the "
                        + "\(Hex.bytes(wanted ?? [])) written",
                    mayBeHalfWritten: true)
            }
        }
    }
}
