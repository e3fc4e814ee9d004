import Synchronization
import SystemSupport

/// Keeps Ctrl-C (SIGINT) and SIGTERM from stopping the process in the middle of a run of writes
/// to a tag, where stopping would leave the tag half-written.
///
/// Outside writes the signals act as usual: the process ends at once (nothing is lost, the tag
/// is as it was or completely written). While the last command sent to the tag was a write
/// (Type 2 WRITE, COMPATIBILITY_WRITE, WRITE_SIG, LOCK_SIG, INCR_CNT; Type 4 UPDATE BINARY,
/// WRITE BINARY), a signal is held: a note goes to standard error, and the process stops as soon
/// as the run of writes ends (at the next command that is not a write, usually the read-back,
/// or when the operation ends). A second signal while one is held stops the process at once.
///
/// Installed by the real process only (``NDEFCommandLine/main(_:)``); commands that wait for a
/// signal themselves (``SignalWaiter``) replace it for their run.
enum InterruptGuard {
    /// 1 while the last command sent to a tag was a write. Read by the signal handler (a
    /// lock-free atomic: async-signal-safe).
    private static let isWriting = Atomic<Int32>(0)
    /// The signal held until the writes end, 0 when none. Set by the signal handler.
    private static let held = Atomic<Int32>(0)

    private static let note =
        Array(
            "\nInterrupt received: finishing the writes in progress so the tag is not left half-written "
                .utf8) + Array("(press Ctrl-C again to stop at once).\n".utf8)

    /// Installs the handler for SIGINT and SIGTERM.
    static func install() {
        // Initialised here, never first in the handler (a global's lazy initialisation is not
        // async-signal-safe).
        isWriting.store(0, ordering: .sequentiallyConsistent)
        held.store(0, ordering: .sequentiallyConsistent)
        _ = note.count
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            #if canImport(Darwin)
                action.__sigaction_u.__sa_handler = { number in InterruptGuard.received(number) }
            #else
                action.__sigaction_handler.sa_handler = { number in InterruptGuard.received(number) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
    }

    /// The handler: only async-signal-safe calls (write, signal, raise).
    private static func received(_ number: Int32) {
        if isWriting.load(ordering: .sequentiallyConsistent) != 0,
            held.compareExchange(expected: 0, desired: number, ordering: .sequentiallyConsistent).exchanged
        {
            note.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
            return
        }
        stop(number)
    }

    /// Ends the process by `number` with its default action, as if it had not been caught, at
    /// once: the default action back, the signal unblocked in the calling thread (blocked there
    /// while its handler runs, or by a thread of the pool) and raised in it. Only
    /// async-signal-safe calls: a signal handler calls it. Exit status 128 + `number` should
    /// the signal still not end the process.
    static func stop(_ number: Int32) {
        signal(number, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, number)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        raise(number)
        _exit(128 + number)
    }

    /// Called before each command to a tag: `isWrite` tells whether it writes. A held signal
    /// stops the process before a command that does not write.
    static func commandStarting(isWrite: Bool) {
        if !isWrite, held.load(ordering: .sequentiallyConsistent) != 0 {
            leave()
        }
        isWriting.store(isWrite ? 1 : 0, ordering: .sequentiallyConsistent)
    }

    /// Called when an operation on the tag ends: a held signal stops the process now.
    static func leave() {
        isWriting.store(0, ordering: .sequentiallyConsistent)
        let number = held.load(ordering: .sequentiallyConsistent)
        guard number != 0 else { return }
        let text = Array("Stopped after the writes in progress completed.\n".utf8)
        text.withUnsafeBufferPointer { _ = write(2, $0.baseAddress, $0.count) }
        stop(number)
    }

    /// Whether a Type 2 command frame writes to the tag: WRITE (A2h), COMPATIBILITY_WRITE (A0h),
    /// INCR_CNT (A5h), WRITE_SIG (A9h), LOCK_SIG (ACh). The data frame that follows a
    /// COMPATIBILITY_WRITE is a write too; ``CommandTrace`` knows which frame that is.
    static func isWrite(frame: [UInt8]) -> Bool {
        guard let opcode = frame.first else { return false }
        return [0xA2, 0xA0, 0xA5, 0xA9, 0xAC].contains(opcode)
    }

    /// Whether an APDU writes to the tag: UPDATE BINARY (D6h, D7h), WRITE BINARY (D0h, D1h),
    /// UPDATE RECORD (DCh), APPEND RECORD (E2h) (ISO/IEC 7816-4, 11.2 and 11.3).
    static func isWrite(apdu: [UInt8]) -> Bool {
        apdu.count > 1 && [0xD6, 0xD7, 0xD0, 0xD1, 0xDC, 0xE2].contains(apdu[1])
    }
}
