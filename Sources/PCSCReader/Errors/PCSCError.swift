import NFCSession

/// A failed PC/SC call: the raw result code, its name and meaning, and where it happened.
///
/// ``check(_:_:reader:)`` is the one place where PC/SC result codes (PC/SC Workgroup
/// specification part 5, `SCARD_*` in pcsc-lite's `pcsclite.h`) become errors. A code missing
/// from ``PCSCStatusCode/all`` is kept as it is, shown in hex. ``readerError`` turns the failure
/// into the session's ``NFCSession/NFCReaderError``, with a hint for the usual setup problems.
/// Errors are equal when their codes are.
public struct PCSCError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 32-bit result code, `0x8010001D`.
    public let code: UInt32
    /// The PC/SC call that failed, `SCardConnect`.
    public let operation: String
    /// The reader involved, if any.
    public let readerName: String?

    /// An error for `code`, returned by `operation`.
    public init(code: UInt32, operation: String, readerName: String? = nil) {
        self.code = code
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
        throw PCSCError(code: code, operation: operation, readerName: reader)
    }

    /// The table entry of the code; nil for a code pcsc-lite does not define.
    public var status: PCSCStatusCode? { PCSCStatusCode.named(code) }

    /// The macro name (`SCARD_E_NO_SERVICE`), or nil for an unknown code.
    public var name: String? { status?.name }

    /// The code as eight hex digits with `0x`, `0x8010001D`.
    public var hexCode: String {
        let digits = String(code, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }

    /// What went wrong, for people; unknown codes say so.
    public var message: String {
        status?.meaning ?? "PC/SC error \(hexCode), a code pcsc-lite does not define"
    }

    /// The code followed by its name, `SCARD_E_NO_SERVICE 0x8010001D`, or the hex alone.
    public var codeDescription: String {
        if let name { return "\(name) \(hexCode)" }
        return hexCode
    }

    public var description: String {
        var place = operation
        if let readerName { place += " on \"\(readerName)\"" }
        return "\(message) (\(codeDescription) from \(place))"
    }

    /// The session error: the code's ``PCSCStatusCode/readerErrorCode`` (reader-unavailable for
    /// an unknown code) and a reason that names the call, the reader, the PC/SC code and, for
    /// setup problems, what to do (see ``hint``).
    public var readerError: NFCReaderError {
        var reason = description
        if let hint { reason += ". " + hint }
        return NFCReaderError(status?.readerErrorCode ?? .readerUnavailable, reason)
    }

    /// Advice for failures with a known cause on Linux: no readers (an ACR122U claimed by the
    /// kernel's NFC driver), an unknown reader, a busy reader.
    public var hint: String? {
        switch code {
        case 0x8010_002E:
            "To list what pcscd sees, run `pcsc_scan -r`. " + Self.kernelDriverHint
        case 0x8010_0009:
            "To list what pcscd sees, run `pcsc_scan -r`"
        case 0x8010_000B:
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

    /// Errors are equal when their codes are.
    public static func == (lhs: PCSCError, rhs: PCSCError) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
