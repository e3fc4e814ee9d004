import NDEF
import NFCSession

/// A failed PC/SC call: the raw result code, its name and meaning, and where it happened.
///
/// ``check(_:_:reader:)`` is the one place where PC/SC result codes (PC/SC Workgroup
/// specification part 5, `SCARD_*` in pcsc-lite's `pcsclite.h`) become errors. A code missing
/// pcsc-lite does not define is kept as it is, shown in hex (``PCSCStatusCode``). ``readerError`` turns the failure
/// into the session's ``NFCSession/NFCReaderError``, with a hint for the usual setup problems.
/// Errors are equal when their statuses are.
public struct PCSCError: NDEFToolError, Hashable {
    /// The PC/SC result, ``PCSCStatusCode/noService`` (`0x8010001D`).
    public let status: PCSCStatusCode
    /// The PC/SC call that failed, `SCardConnect`.
    public let operation: String
    /// The reader involved, if any.
    public let readerName: String?

    /// An error for `status`, returned by `operation`.
    public init(status: PCSCStatusCode, operation: String, readerName: String? = nil) {
        self.status = status
        self.operation = operation
        self.readerName = readerName
    }

    /// Throws the error a PC/SC result stands for; returns for `SCARD_S_SUCCESS` (0).
    ///
    /// pcsc-lite's `LONG` is 64 bits wide on Linux and 32 bits on macOS: the result is reduced to
    /// its low 32 bits, where every code lives.
    public static func check(
        _ result: some BinaryInteger, _ operation: String, reader: String? = nil
    ) throws(PCSCError) {
        let code = UInt32(truncatingIfNeeded: result)
        guard code != 0 else { return }
        throw PCSCError(status: PCSCStatusCode(rawValue: code), operation: operation, readerName: reader)
    }

    /// What went wrong, for people; unknown codes say so.
    public var message: String {
        status.meaning ?? "PC/SC error \(status.hexValue), a code pcsc-lite does not define"
    }

    public var description: String {
        var place = operation
        if let readerName { place += " on \"\(readerName)\"" }
        return "\(message) (\(status) from \(place))"
    }

    /// The session error: the code's ``PCSCStatusCode/readerErrorCode`` (reader-unavailable for
    /// an unknown code) and a reason that names the call, the reader, the PC/SC code and, for
    /// setup problems, what to do (see ``hint``).
    public var readerError: NFCReaderError {
        var reason = description
        if let hint { reason += ". " + hint }
        return NFCReaderError(status.readerErrorCode, reason)
    }

    /// Advice for failures with a known cause on Linux: no readers (an ACR122U claimed by the
    /// kernel's NFC driver), an unknown reader, a busy reader.
    public var hint: String? {
        switch status {
        case .noReadersAvailable:
            "To list what pcscd sees, run `pcsc_scan -r`. " + Self.kernelDriverHint
        case .unknownReader:
            "To list what pcscd sees, run `pcsc_scan -r`"
        case .sharingViolation:
            "Programs that keep readers open: pcsc_scan, browsers' smart-card plugins, other NFC tools"
        default:
            nil
        }
    }

    /// Why an ACS ACR122U can be invisible to pcscd, and the fix: the kernel's NFC stack
    /// (`pn533_usb`) claims the reader first; blacklisting it leaves the reader to pcscd's CCID
    /// driver.
    public static let kernelDriverHint =
        "An ACR122U plugged in but not listed is usually claimed by the kernel's pn533 NFC driver "
        + "(`lsmod | grep pn533`): blacklist it by writing the lines `blacklist pn533_usb`, "
        + "`blacklist pn533` and `blacklist nfc` to /etc/modprobe.d/blacklist-pn533.conf, then run "
        + "`sudo modprobe -r pn533_usb pn533 nfc` (or reboot) and replug the reader"

    /// The session error code the status becomes (``readerError``): through ``NDEF/NDEFToolError``
    /// every error of the package has a kebab-case code.
    public var code: NFCReaderError.Code { status.readerErrorCode }

    /// The session error's reason: the message, the call, the device and any hint.
    public var reason: String { readerError.reason }

    /// Errors are equal when their statuses are.
    public static func == (lhs: PCSCError, rhs: PCSCError) -> Bool { lhs.status == rhs.status }

    public func hash(into hasher: inout Hasher) { hasher.combine(status) }
}

/// Telling a stopped pcscd from other failures.
extension PCSCError {
    /// Codes that speak for themselves: the card or reader went away, the reader is busy, the
    /// wait was cancelled or timed out, pcscd is not running.
    private static let selfExplaining: Set<PCSCStatusCode> =
        PCSCStatusCode.cardGone.union([
            PCSCStatusCode.sharingViolation, PCSCStatusCode.cancelled, PCSCStatusCode.timeout, PCSCStatusCode.noService,
            PCSCStatusCode.noReadersAvailable,
        ])

    /// This error, or `SCARD_E_NO_SERVICE` when pcscd turns out not to be running.
    ///
    /// A call in progress when pcscd stops can return odd codes (a wait of pcsc-lite 1.9 has
    /// returned `SCARD_W_SECURITY_VIOLATION`, and `SCARD_F_COMM_ERROR` is common): for any code
    /// that does not explain itself, a new context is tried, and if pcscd is not there that is
    /// the error reported, with its hint. Blocks: call it where PC/SC calls may block.
    ///
    /// The new context can itself fail with an odd code while the old daemon's socket is still
    /// being torn down (pcsc-lite reports a connection closed before its handshake as
    /// `SCARD_W_SECURITY_VIOLATION`, as for a polkit refusal); then the daemon's socket is
    /// asked directly (``PCSCDaemonSocket/isAccepting()``): nothing listening is a stopped pcscd.
    func confirmingService() -> PCSCError {
        guard !Self.selfExplaining.contains(status) else { return self }
        let noService = PCSCError(status: .noService, operation: operation, readerName: readerName)
        do {
            _ = try PCSCContext()
            return self
        } catch {
            if error.status == PCSCStatusCode.noService { return noService }
            return PCSCDaemonSocket.isAccepting() ? self : noService
        }
    }
}
