internal import CPCSC
import SystemSupport

/// An established PC/SC context (`SCardEstablishContext` with system scope), released when the
/// object goes away (`SCardReleaseContext`).
///
/// pcsc-lite serialises the calls made on one context; a call that waits (``statusChange(_:timeoutMilliseconds:)``)
/// holds the context until it returns, so each waiting watcher owns its own context, and
/// ``cancel()`` (`SCardCancel`, which pcsc-lite accepts from any thread) ends the wait. Every
/// method but ``cancel()`` blocks: call them from the device's `SerialQueueExecutor` or a watcher's queue.
final class PCSCContext: Sendable {
    /// The pcsc-lite handle.
    let handle: SCARDCONTEXT

    /// The reader name pcsc-lite reports reader arrivals and removals on.
    static let plugAndPlayReaderName = "\\\\?PnP?\\Notification"

    /// Establishes a context with pcscd.
    ///
    /// - Throws: `SCARD_E_NO_SERVICE` when pcscd is not running.
    init() throws(PCSCError) {
        var context: SCARDCONTEXT = 0
        try PCSCError.check(
            SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &context), "SCardEstablishContext")
        handle = context
    }

    deinit {
        _ = SCardReleaseContext(handle)
    }

    /// Ends a ``statusChange(_:timeoutMilliseconds:)`` waiting on this context: it throws
    /// `SCARD_E_CANCELLED`.
    func cancel() {
        _ = SCardCancel(handle)
    }

    /// The names of the readers pcscd has, in its order; empty when there are none.
    func readerNames() throws(PCSCError) -> [String] {
        // The list can change between the size query and the read: try again a few times.
        for _ in 0..<4 {
            var length: DWORD = 0
            var result = SCardListReaders(handle, nil, nil, &length)
            if Self.code(result) == PCSCStatusCode.noReadersAvailable { return [] }
            try PCSCError.check(result, "SCardListReaders")
            guard let count = Int(exactly: length), count > 0 else { return [] }
            var buffer = [CChar](repeating: 0, count: count)
            result = buffer.withUnsafeMutableBufferPointer { pointer in
                SCardListReaders(handle, nil, pointer.baseAddress, &length)
            }
            switch Self.code(result) {
            case PCSCStatusCode.insufficientBuffer: continue
            case PCSCStatusCode.noReadersAvailable: return []
            default: try PCSCError.check(result, "SCardListReaders")
            }
            let used = min(buffer.count, Int(exactly: length) ?? 0)
            return ReaderNameList.parse(buffer.prefix(used).map { UInt8(bitPattern: $0) })
        }
        throw PCSCError(status: PCSCStatusCode.insufficientBuffer, operation: "SCardListReaders")
    }

    /// Waits until one of `states` differs from its `currentState`, or `timeoutMilliseconds`
    /// pass (`SCardGetStatusChange`), and stores what pcscd reports in each `eventState` and `atr`.
    ///
    /// - Throws: `SCARD_E_TIMEOUT` when nothing changed in time, `SCARD_E_CANCELLED` after
    ///   ``cancel()``, `SCARD_E_NO_SERVICE` when pcscd stopped.
    func statusChange(_ states: inout [PCSCReaderState], timeoutMilliseconds: UInt32) throws(PCSCError) {
        // pcsc-lite reads the names during the call: keep NUL-terminated copies alive until it returns.
        let names = states.map { state in
            let utf8 = state.readerName.utf8CString
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: utf8.count)
            copy.initialize(from: Array(utf8), count: utf8.count)
            return UnsafeMutableBufferPointer(start: copy, count: utf8.count)
        }
        defer {
            for name in names { name.deallocate() }
        }
        var cStates: [SCARD_READERSTATE] = zip(states, names).map { state, name in
            var cState = SCARD_READERSTATE()
            cState.szReader = UnsafePointer(name.baseAddress)
            cState.dwCurrentState = DWORD(state.currentState)
            return cState
        }
        let result = cStates.withUnsafeMutableBufferPointer { pointer in
            SCardGetStatusChange(handle, DWORD(timeoutMilliseconds), pointer.baseAddress, DWORD(pointer.count))
        }
        try PCSCError.check(result, "SCardGetStatusChange", reader: states.count == 1 ? states[0].readerName : nil)
        for index in states.indices {
            let cState = cStates[index]
            states[index].eventState = UInt32(truncatingIfNeeded: cState.dwEventState)
            let count = min(Int(exactly: cState.cbAtr) ?? 0, Int(MAX_ATR_SIZE))
            states[index].atr = withUnsafeBytes(of: cState.rgbAtr) { Array($0.prefix(count)) }
        }
    }

    /// Connects to the card in `reader` with T=0 or T=1 (`SCardConnect`).
    ///
    /// - Throws: `SCARD_E_NO_SMARTCARD` without a card, `SCARD_E_SHARING_VIOLATION` when another
    ///   program holds the reader exclusively, `SCARD_E_UNKNOWN_READER` for an unknown name.
    func connect(reader: String, exclusive: Bool) throws(PCSCError) -> PCSCCard {
        var card: SCARDHANDLE = 0
        var activeProtocol: DWORD = 0
        let share = DWORD(exclusive ? SCARD_SHARE_EXCLUSIVE : SCARD_SHARE_SHARED)
        let result = SCardConnect(handle, reader, share, PCSCCard.protocols, &card, &activeProtocol)
        try PCSCError.check(result, "SCardConnect", reader: reader)
        return PCSCCard(context: self, handle: card, activeProtocol: activeProtocol, readerName: reader, share: share)
    }

    /// The low 32 bits of a pcsc-lite result.
    static func code(_ result: LONG) -> PCSCStatusCode { PCSCStatusCode(rawValue: UInt32(truncatingIfNeeded: result)) }
}

/// One reader's entry in a status wait (`SCARD_READERSTATE`, PC/SC part 5 3.1.11).
struct PCSCReaderState: Sendable, Hashable {
    /// The reader name, or ``PCSCContext/plugAndPlayReaderName``.
    var readerName: String
    /// The state the caller knows (`SCARD_STATE_*` bits; the event count in the high 16 bits).
    var currentState: UInt32
    /// The state pcscd reports.
    var eventState: UInt32 = 0
    /// The ATR of the card in the reader, if any.
    var atr: [UInt8] = []

    // SCARD_STATE_* values of pcsc-lite's pcsclite.h (checked against the header by the tests).
    static let unaware: UInt32 = 0x0000
    static let changed: UInt32 = 0x0002
    static let unknown: UInt32 = 0x0004
    static let unavailable: UInt32 = 0x0008
    static let empty: UInt32 = 0x0010
    static let present: UInt32 = 0x0020
    static let exclusive: UInt32 = 0x0080
    static let inUse: UInt32 = 0x0100
    static let mute: UInt32 = 0x0200

    /// The number of card insertions and removals pcscd counted (pcsc-lite keeps it in the high
    /// 16 bits of the event state).
    var eventCount: Int { Int(eventState >> 16) }

    /// The event state without the changed bit: what to pass as the next `currentState`.
    var settledState: UInt32 { eventState & ~Self.changed }
}

/// The reader names of a PC/SC multi-string (`SCardListReaders`, PC/SC part 5 3.1.6): names
/// ended by NUL, the list ended by an empty name.
enum ReaderNameList {
    /// The names in `bytes`, in order. Parsing stops at the first empty name (the double NUL);
    /// a last name without its NUL is kept; invalid UTF-8 is repaired, never trapped on.
    static func parse(_ bytes: some Collection<UInt8>) -> [String] {
        var names: [String] = []
        for part in bytes.split(separator: 0, omittingEmptySubsequences: false) {
            guard !part.isEmpty else { break }
            names.append(String(decoding: part, as: UTF8.self))
        }
        return names
    }
}
