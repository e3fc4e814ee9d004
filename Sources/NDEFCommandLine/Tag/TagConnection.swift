import LibNFCReader
import NFCReaders
import NFCSession
import PCSCReader

/// The way tag commands reach a tag: opens the reader the options name, waits for exactly one
/// tag with an ``NFCSession/NFCTagReaderSession``, runs the command's operation on it, then
/// ends the session and closes the reader, whatever happened.
///
/// This is the only place the command line starts sessions; errors from the reader, the
/// session and the tag become command-line failures through ``TagFailure``.
struct TagConnection {
    /// The shared options.
    let settings: TagSettings
    /// Where progress and verbose output go.
    let console: TagConsole
    /// Where the last PC/SC reader used is kept.
    let remembered: RememberedReader
    /// pcscd's readers, for choosing one.
    let pcsc: PCSCDirectory
    /// libnfc's devices, for choosing one.
    let libnfc: LibNFCDirectory
    /// Whether the command changes the tag: a PC/SC reader is then connected exclusively
    /// (`SCARD_SHARE_EXCLUSIVE`), so no other program's commands interleave with the writes.
    let writes: Bool

    /// A connection with the shared options of `invocation`, for a command that changes the tag
    /// when `writes`.
    init(_ invocation: CommandInvocation, writes: Bool = false) throws(CommandLineError) {
        self.writes = writes
        settings = try TagOptions.settings(invocation)
        console = TagConsole(io: invocation.io, settings: settings)
        remembered = RememberedReader(io: invocation.io)
        pcsc = invocation.io.pcsc
        libnfc = invocation.io.libnfc
    }

    /// Waits for a tag and runs `body` on it.
    ///
    /// - Parameters:
    ///   - activity: what the operation does, for error messages (`writing the message`).
    ///   - resume: the command that completes the operation when it is interrupted part way.
    ///   - body: the operation; it may throw ``NFCSession/NFCReaderError`` or ``CommandLineError``.
    func run(
        _ activity: String,
        resume: String? = nil,
        _ body: (NFCMiFareTag) async throws -> ExitStatus
    ) async throws(CommandLineError) -> ExitStatus {
        try await run(activity, resume: resume) { tag, _ in try await body(tag) }
    }

    /// Waits for a Type 2 tag and runs `body` on it and the reader's address; a Type 4 tag is
    /// refused (exit status 76), for the commands that handle Type 2 tags only.
    func run(
        _ activity: String,
        resume: String? = nil,
        _ body: (NFCMiFareTag, ReaderAddress) async throws -> ExitStatus
    ) async throws(CommandLineError) -> ExitStatus {
        try await runOnTag(activity, resume: resume) { tag, address in
            guard let type2 = tag as? NFCMiFareTag else {
                throw CommandLineError(
                    .tagError,
                    "tag \(tag.targetInfo.uidDescription) is an \(tag.chipName ?? "unknown tag"): this command handles "
                        + "NFC Forum Type 2 tags (NTAG21x, MIFARE Ultralight) in this version")
            }
            return try await body(type2, address)
        }
    }

    /// Waits for a tag of either kind (Type 2 or Type 4) and runs `body` on it.
    func runOnTag(
        _ activity: String,
        resume: String? = nil,
        _ body: (any NFCNDEFTag) async throws -> ExitStatus
    ) async throws(CommandLineError) -> ExitStatus {
        try await runOnTag(activity, resume: resume) { tag, _ in try await body(tag) }
    }

    /// Waits for a tag of either kind and runs `body` on it and the reader's address (the one
    /// chosen when none was given: ``ReaderChoice``). A PC/SC reader the command used
    /// successfully is remembered (``RememberedReader``) for the next command that names none.
    func runOnTag(
        _ activity: String,
        resume: String? = nil,
        _ body: (any NFCNDEFTag, ReaderAddress) async throws -> ExitStatus
    ) async throws(CommandLineError) -> ExitStatus {
        let address: ReaderAddress
        if let given = settings.reader {
            address = given
        } else if let number = settings.readerNumber {
            address = try await ReaderChoice.numbered(
                number, pcsc: pcsc, libnfc: libnfc, remembered: remembered.load())
        } else {
            address = try await ReaderChoice.automatic(
                remembered: remembered, pcsc: pcsc, libnfc: libnfc, console: console)
        }
        let reader = TracingReader(
            try await address.open(console: console, wait: settings.wait, exclusive: writes), console: console)
        let console = self.console
        let session = NFCTagReaderSession(reader: reader) { event in console.show(event) }
        let tag: any NFCNDEFTag
        do {
            tag = try await waitForTag(session)
        } catch {
            await close(session, reader)
            throw error
        }
        // On a terminal: `Writing: 12 of 40 page writes`, once a plan has written a few.
        let unit = tag.writeCommandName
        await tag.observeWriteProgress { progress in
            guard progress.written >= TracingReader.progressAfter else { return }
            console.progress("Writing: \(progress.written) of \(PlanReport.count(progress.planned, unit))")
        }
        let status: ExitStatus
        // A Ctrl-C held during writes (InterruptGuard) stops the process when the operation ends.
        defer { InterruptGuard.leave() }
        do {
            status = try await body(tag, address)
        } catch let error as NFCReaderError {
            await close(session, reader)
            throw TagFailure.error(error, while: activity, resume: resume)
        } catch let error as CommandLineError {
            await close(session, reader)
            throw error
        } catch {
            await close(session, reader)
            throw CommandLineError(.tagError, "\(activity): \(error)")
        }
        await close(session, reader)
        await remember(address, reader)
        console.done("Done: remove the tag.")
        return status
    }

    /// Remembers the reader used: a PC/SC reader by its full name (with the URL's options), a
    /// libnfc device by its connection string; never a simulated one.
    private func remember(_ address: ReaderAddress, _ reader: TracingReader) async {
        let used: String
        switch address {
        case .pcsc(let url, _):
            used =
                PCSCReaderURL(selector: .name(reader.name), profile: url.profile, exclusive: url.exclusive)
                .description
        case .libnfc:
            used = LibNFCReaderURL(selector: .connstring(reader.name)).description
        case .simulated:
            return
        }
        if let failure = await remembered.save(used) {
            console.trace("The reader was not remembered: \(failure)")
        }
    }

    /// The one tag in the field.
    private func waitForTag(_ session: NFCTagReaderSession) async throws(CommandLineError) -> any NFCNDEFTag {
        let tag: any NFCNDEFTag
        do {
            tag = try await session.nextTag(timeout: settings.wait)
        } catch {
            if error.code == .timeout {
                let seen = console.tagsSeenAtOnce
                let immediate = settings.wait == .zero
                let what: String
                if seen > 1 {
                    what =
                        "\(seen) tags were in the field "
                        + (immediate ? "when the reader looked" : "for all of \(Self.seconds(settings.wait))")
                        + ": none was touched"
                } else {
                    what = immediate ? "no tag was at the reader" : "no tag came within \(Self.seconds(settings.wait))"
                }
                let code: NFCReaderError.Code = seen > 1 ? .multipleTagsFound : .timeout
                throw TagFailure.error(NFCReaderError(code, what), while: "waiting for a tag")
            }
            throw TagFailure.error(error, while: "waiting for a tag")
        }
        console.trace("Tag \(tag)")
        return tag
    }

    /// Ends the session and closes the reader (a simulated reader saves its tag file then).
    private func close(_ session: NFCTagReaderSession, _ reader: TracingReader) async {
        console.endProgress()
        await session.invalidate()
        await reader.close()
        console.trace(reader.summary)
    }

    /// `15 seconds`, `0.5 seconds`.
    static func seconds(_ duration: Duration) -> String {
        let milliseconds = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        if milliseconds % 1000 == 0 {
            let seconds = milliseconds / 1000
            return "\(seconds) second\(seconds == 1 ? "" : "s")"
        }
        return "\(Double(milliseconds) / 1000) seconds"
    }
}
