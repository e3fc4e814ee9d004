import HexText
import NFCSession
import TagMemory

/// What `read` and `dump` say when a tag refuses pages behind its read protection and no
/// password was given: from which page the tag is read-protected, and how to give the password,
/// rather than the first FAST_READ window that was refused.
///
/// With PROT set (NTAG213/215/216 8.8.1, MF0ULX1 8.6.1) every page from AUTH0 on answers a read
/// with NAK until PWD_AUTH; AUTH0 itself is in CFG0, which is behind the protection when AUTH0 is
/// at or before it. So AUTH0 is read when it can be (``NFCSession/NFCMiFareTag/passwordStatus()``),
/// and otherwise found by reading: one FAST_READ of a single page at a time (NTAG213/215/216
/// 10.3), halving the range between a page that reads and one that does not. A NAK sends the tag
/// back to IDLE; the session selects it again before the next command. Reads never count as
/// failed authentication attempts (AUTHLIM counts PWD_AUTH only, 8.8.1).
enum ReadProtection {
    /// The failure for `error` met while doing `activity` (`reading the tag`), on `tag`.
    static func failure(_ error: NFCReaderError, tag: any NFCNDEFTag, activity: String) async -> CommandLineError {
        guard error.code == .authenticationRequired, let type2 = tag as? NFCMiFareTag else {
            return TagFailure.error(error, while: activity)
        }
        let status = try? await type2.passwordStatus()
        var start: (page: Int, how: String)?
        switch status?.protection {
        case .from(let page, readProtected: true):
            start = (page, "AUTH0 \(Hex.number(page, minimumDigits: 2))h, PROT 1")
        case .unknown:
            start = await firstRefusedPage(type2).map {
                ($0, "found by reading: AUTH0 is behind the protection too")
            }
        default:
            break
        }
        var text = "\(activity): the tag is read-protected"
        if let start { text += " from page \(start.page) on (\(start.how))" }
        if status?.mechanism == .tripleDES {
            text +=
                ": reading needs MIFARE Ultralight C 3DES authentication, which ndeftool does not do "
                + "(\(error.code.rawValue))"
            return CommandLineError(.authenticationFailed, text)
        }
        text += ": reading needs its password (\(error.code.rawValue))\n" + TagPasswordOptions.advice
        return CommandLineError(.authenticationFailed, text)
    }

    /// The first page of `tag` that a single-page FAST_READ does not read, found by halving; nil
    /// when the chip or the reader has no FAST_READ, or a read fails otherwise than with a NAK.
    static func firstRefusedPage(_ tag: NFCMiFareTag) async -> Int? {
        guard let chip = tag.chip, chip.features.contains(.fastRead), let last = chip.configurationPages?.pages.last
        else { return nil }
        // A page known to read (-1: none yet) and one known not to.
        var readable = -1
        guard let lastReads = await reads(last, on: tag), !lastReads else { return nil }
        var refused = last
        while refused - readable > 1 {
            let middle = readable + (refused - readable) / 2
            guard let answer = await reads(middle, on: tag) else { return nil }
            if answer { readable = middle } else { refused = middle }
        }
        return refused
    }

    /// Whether page `page` reads (FAST_READ of that page alone); nil when the answer is neither
    /// data nor a NAK.
    private static func reads(_ page: Int, on tag: NFCMiFareTag) async -> Bool? {
        let number = UInt8(truncatingIfNeeded: page)
        do {
            return try await tag.sendMiFareCommand([0x3A, number, number]).count == 4 ? true : nil
        } catch {
            return error.code == .tagResponseError ? false : nil
        }
    }
}
