import NFCSession
import SimulatedReader
import Synchronization

/// A socket a ``SimulatedReader`` is plugged into: while unplugged, every reader opened from it
/// throws reader-unavailable, as a PC/SC reader that was pulled out does. The simulated tag stays
/// the same across plugs, as a tag lying on the reader would.
final class ReaderSocket: Sendable {
    private struct State {
        var isPlugged = true
        var openCount = 0
        /// Unplugs after this many more frames (the frame itself fails).
        var unplugAfterFrames: Int?
    }

    let base: SimulatedReader
    private let state = Mutex(State())

    init(_ base: SimulatedReader) { self.base = base }

    var isPlugged: Bool { state.withLock { $0.isPlugged } }
    var openCount: Int { state.withLock { $0.openCount } }

    func unplug() { state.withLock { $0.isPlugged = false } }
    func plug() { state.withLock { $0.isPlugged = true } }
    func unplug(afterFrames count: Int) { state.withLock { $0.unplugAfterFrames = count } }

    /// Opens the reader, as the reopen closure of a ``NFCSession/ReconnectingReader`` does.
    func open() throws(NFCReaderError) -> any NFCReaderDevice {
        let isPlugged = state.withLock { state in
            state.openCount += 1
            return state.isPlugged
        }
        guard isPlugged else { throw NFCReaderError(.readerUnavailable, "the test reader is unplugged") }
        return UnpluggableReader(socket: self)
    }

    /// Throws reader-unavailable while unplugged; counts down to an armed unplug for frames.
    func check(frame: Bool = false) throws(NFCReaderError) {
        let isPlugged = state.withLock { state in
            if frame, let remaining = state.unplugAfterFrames {
                if remaining == 0 {
                    state.isPlugged = false
                    state.unplugAfterFrames = nil
                } else {
                    state.unplugAfterFrames = remaining - 1
                }
            }
            return state.isPlugged
        }
        guard isPlugged else { throw NFCReaderError(.readerUnavailable, "the test reader was unplugged") }
    }
}

/// One opening of the reader in a ``ReaderSocket``.
final class UnpluggableReader: NFCReaderDevice {
    let socket: ReaderSocket
    private let isClosed = Mutex(false)

    init(socket: ReaderSocket) { self.socket = socket }

    var name: String { "unpluggable" }
    var capabilities: NFCReaderCapabilities { socket.base.capabilities }

    private func check(frame: Bool = false) throws(NFCReaderError) {
        if isClosed.withLock({ $0 }) { throw NFCReaderError(.readerUnavailable, "closed") }
        try socket.check(frame: frame)
    }

    func pollTargets() async throws(NFCReaderError) -> [NFCTargetInfo] {
        try check()
        return try await socket.base.pollTargets()
    }

    func select(_ target: NFCTargetInfo) async throws(NFCReaderError) {
        try check()
        try await socket.base.select(target)
    }

    func transceive(_ frame: [UInt8]) async throws(NFCReaderError) -> NFCRawResponse {
        try check(frame: true)
        return try await socket.base.transceive(frame)
    }

    func sendAPDU(_ apdu: [UInt8]) async throws(NFCReaderError) -> [UInt8] {
        try check(frame: true)
        return try await socket.base.sendAPDU(apdu)
    }

    func releaseTargets() async {}

    func close() async { isClosed.withLock { $0 = true } }
}
