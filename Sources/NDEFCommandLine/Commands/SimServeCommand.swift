import CommandLineKit
import NFCReaders
import NFCSession
import SimulatedReader
import SimulatorBridges
import SystemSupport
import TagInspection
import TagSimulator

/// `ndeftool sim serve`: simulated tags as cards in pcscd's virtual readers, or each in the
/// field of a simulated PN532 on a pseudo-terminal (`--pn532`) for libnfc and nfcpy.
enum SimServeCommand {
    static let vpcd = OptionSpec.option(
        "vpcd", value: "port", repeatable: true,
        help: "The vpcd port of a reader, one per tag, in order (default: 35963, 35964, ... for the tags).")
    static let profile = OptionSpec.option(
        "profile", value: "name", default: ContactlessReaderProfile.combined.name,
        values: ContactlessReaderProfile.all.map(\.name),
        help: "The reader's pass-through: ACR122U Direct Transmit, PC/SC 2.02 transparent session, or both.")
    static let reinsert = OptionSpec.option(
        "reinsert-after", value: "ms",
        help: "After the remove-after fault, put the tag back after <ms> milliseconds (default: never).")
    static let pn532 = OptionSpec.option(
        "pn532", value: "path", repeatable: true,
        help: """
            Instead of vpcd: a simulated PN532 on a pseudo-terminal, <path> a symbolic link to \
            it (libnfc: pn532_uart:<path>); one per tag, in order.
            """)

    /// The command.
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve simulated tags to pcscd through vpcd, or to libnfc as a PN532.",
        discussion: """
            By default each tag becomes the card in a 'Virtual PCD' reader of pcscd (Debian package \
            vsmartcard-vpcd, readers 'Virtual PCD 00 00' on port 35963 and 'Virtual PCD 00 01' \
            on 35964): PC/SC programs see a contactless reader with the tag in its field, with \
            the ATR, GET DATA, READ BINARY and UPDATE BINARY of PC/SC Part 3 and the \
            pass-through of --profile for raw commands. Only 127.0.0.1 is contacted. The tag \
            file (file=PATH) is updated after every command that changes the tag. Faults in \
            the URL act as on a real reader: remove-after takes the card out during that \
            command.

            Runs until interrupted (Ctrl-C or SIGTERM), then exits with status 0. pcscd must \
            run (as root: /usr/sbin/pcscd -f); the card connects when it can.

            With --pn532 each tag lies instead in the field of its own simulated NXP PN532 \
            speaking the PN532's serial (HSU) frames on a pseudo-terminal: <path> becomes a \
            symbolic link to the terminal (a stale link there is replaced, any other file is \
            refused), and libnfc's pn532_uart driver (nfc-list, nfc-mfultralight, nfc-poll) \
            or nfcpy reach it as a serial port. The connstring to use is printed. \
            Two tags in one field: 'sim:ntag215?second-tag=1'. --vpcd, --profile and --pn532 \
            do not go together.

            The tamper loops of the NTAG 424 DNA TT tags served (sim:ntag424tt) follow the \
            process's signals: SIGUSR1 opens them (a broken seal), SIGUSR2 closes them again; \
            a tag with TagTamper enabled latches the opening, as the chip does. Each signal \
            is noted on standard error.

            Examples:
              ndeftool sim serve 'sim:ntag215?file=tag.nfc'
              ndeftool sim serve --vpcd 35963 sim:ntag213 --vpcd 35964 sim:type4
              ndeftool sim serve --reinsert-after 500 'sim:ntag215?remove-after=20'
              ndeftool sim serve --profile acr122u sim:ntag215
              ndeftool sim serve --pn532 /tmp/pn532 'sim:ntag215?file=tag.nfc'
              # and in another terminal: LIBNFC_DEVICE=pn532_uart:/tmp/pn532 nfc-list
              ndeftool sim serve --pn532 /tmp/a sim:ntag213 --pn532 /tmp/b sim:type4
            """,
        arguments: [ArgumentSpec("tag", help: "A simulated tag, as a sim: reader URL.", repeating: true)],
        options: [vpcd, profile, reinsert, pn532],
        groups: [
            MessageOptions.group(
                verbose: "When stopped, also print how many commands each tag answered.")
        ],
        run: run
    )

    /// SIGUSR1 opens the tamper loops of the NTAG 424 DNA TT tags served, SIGUSR2 closes them
    /// (``TagSimulator/SimulatedTagTamperControl``: one atomic store), each said on standard
    /// error (a write of a static string): only async-signal-safe calls.
    static func followTamperSignals() {
        handle(SIGUSR1, with: openTamperLoops)
        handle(SIGUSR2, with: closeTamperLoops)
    }

    /// Installs `handler` for `number` (restarting interrupted system calls).
    private static func handle(_ number: Int32, with handler: @escaping @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = handler
        #else
            action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        sigaction(number, &action, nil)
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        let tags = values.arguments("tag")
        followTamperSignals()
        guard !tags.isEmpty else { throw .missingArgument("<tag> ...") }
        let links = values.values(pn532.long)
        if !links.isEmpty {
            guard !values.isGiven(vpcd.long), !values.isGiven(profile.long) else {
                throw .usage("--pn532 serves the tags to libnfc, not to vpcd: leave out --vpcd and --profile")
            }
            return try await servePN532(invocation, tags: tags, links: links)
        }
        let ports = try self.ports(values.values(vpcd.long), count: tags.count)
        let chosen = values.value(profile.long) ?? ContactlessReaderProfile.combined.name
        guard let readerProfile = ContactlessReaderProfile.named(chosen) else {
            throw .invalidValue(chosen, for: profile)
        }
        let delay = try values.integerValue(reinsert.long, in: 0...3_600_000)
        let messages = CommandMessages(invocation)
        let isQuiet = messages.level.isQuiet
        let waiter = SignalWaiter()
        var cards: [VirtualPCDCard] = []
        for (text, port) in zip(tags, ports) {
            let reader = try await open(text)
            let configuration = VirtualPCDCard.Configuration(
                port: port, profile: readerProfile, reinsertAfterMilliseconds: delay)
            do {
                let card = try VirtualPCDCard(reader: reader, configuration: configuration) { event in
                    var isProblem = false
                    if case .saveFailed = event { isProblem = true }
                    guard !isQuiet || isProblem else { return }
                    _ = FileAccess.writeAll(Array("[vpcd \(port)] \(event)\n".utf8), descriptor: 2)
                }
                try card.start()
                cards.append(card)
            } catch {
                for card in cards { await card.shutDown() }
                throw CommandLineError(.unavailable, "cannot serve \(text) on port \(port): \(error.reason)")
            }
            messages.note("Serving \(text) on vpcd port \(port) (127.0.0.1).")
        }
        messages.note("Press Ctrl-C to stop.")
        let signal = await waiter.wait() ?? 0
        for card in cards { await card.shutDown() }
        messages.note("Stopped (signal \(signal)).")
        for (card, port) in zip(cards, ports) {
            let status = card.status
            messages.detail(
                "[vpcd \(port)] \(MessageDescription.count(status.apduCount, "command APDU")) answered over "
                    + MessageDescription.count(status.connectionCount, "connection")
                    + (status.signals.isEmpty
                        ? "" : "; reader signals: " + status.signals.map(\.rawValue).joined(separator: ", ")))
        }
        return .success
    }

    /// `--pn532`: one simulated PN532 per tag, each on its own pseudo-terminal.
    static func servePN532(
        _ invocation: CommandInvocation, tags: [String], links: [String]
    ) async throws(CommandLineError) -> ExitStatus {
        guard links.count == tags.count else {
            throw .usage("Give one --pn532 path per tag: \(links.count) path(s) for \(tags.count) tag(s)")
        }
        guard Set(links).count == links.count else { throw .usage("A --pn532 path is given twice") }
        let delay = try invocation.values.integerValue(reinsert.long, in: 0...3_600_000)
        let messages = CommandMessages(invocation)
        let isQuiet = messages.level.isQuiet
        var readers: [SimulatedReader] = []
        for text in tags { readers.append(try await open(text)) }
        let waiter = SignalWaiter()
        var chips: [PN532SerialSimulator] = []
        for ((text, link), reader) in zip(zip(tags, links), readers) {
            do {
                let chip = try PN532SerialSimulator(reader: reader, linkPath: link, reinsertAfterMilliseconds: delay) {
                    event in
                    var isProblem = false
                    if case .saveFailed = event { isProblem = true }
                    guard !isQuiet || isProblem else { return }
                    _ = FileAccess.writeAll(Array("[pn532 \(link)] \(event)\n".utf8), descriptor: 2)
                }
                try chip.start()
                chips.append(chip)
                messages.note(
                    "Serving \(text) on a simulated PN532 at \(link) (\(chip.slavePath)): "
                        + "LIBNFC_DEVICE=\(chip.connstring)")
            } catch {
                for chip in chips { await chip.shutDown() }
                throw CommandLineError(.unavailable, "cannot serve \(text) on \(link): \(error.reason)")
            }
        }
        messages.note("Press Ctrl-C to stop.")
        let signal = await waiter.wait() ?? 0
        for chip in chips { await chip.shutDown() }
        messages.note("Stopped (signal \(signal)).")
        for (chip, link) in zip(chips, links) {
            let status = chip.status
            messages.detail(
                "[pn532 \(link)] \(MessageDescription.count(status.commandCounts.values.reduce(0, +), "command"))"
                    + " (\(status.refusedCount) refused), "
                    + MessageDescription.count(status.droppedFrameCount, "frame") + " dropped")
        }
        return .success
    }

    /// The port of each tag: those given (as many as tags), else 35963 onwards.
    static func ports(_ given: [String], count: Int) throws(CommandLineError) -> [UInt16] {
        guard !given.isEmpty else {
            return (0..<count).map { VirtualPCDCard.Configuration.firstPort &+ UInt16(truncatingIfNeeded: $0) }
        }
        guard given.count == count else {
            throw .usage("Give one --vpcd port per tag: \(given.count) port(s) for \(count) tag(s)")
        }
        var ports: [UInt16] = []
        for text in given {
            guard let port = UInt16(text), port > 0 else {
                throw .invalidValue(text, for: vpcd, reason: "expected a port from 1 to 65535")
            }
            guard !ports.contains(port) else { throw .usage("The vpcd port \(port) is given twice") }
            ports.append(port)
        }
        return ports
    }

    /// Opens the simulated reader `text` names (without `unplug-after` or `signal-after`, which
    /// the bridges do not take).
    static func open(_ text: String) async throws(CommandLineError) -> SimulatedReader {
        guard case .simulated(let url, _) = try ReaderAddress(parsing: text, origin: "<tag>") else {
            throw .usage("A tag to serve is a simulated reader URL (sim:CHIP?OPTIONS), not '\(text)'")
        }
        if url.unplug != nil {
            throw .usage(
                "unplug-after pulls out a simulated reader used with --reader; a served tag's reader is pcscd's "
                    + "or the PN532's: leave it out of '\(text)'")
        }
        if url.processSignal != nil {
            throw .usage(
                "signal-after cuts the process that uses a simulated reader with --reader; a served tag's "
                    + "commands come from another process: leave it out of '\(text)'")
        }
        do {
            return try await SimulatedReader(url: url, name: text)
        } catch {
            throw TagFailure.error(error, while: "opening the simulated tag \(text)")
        }
    }
}

/// `ndeftool sim`: the simulated tags, served to other programs.
enum SimCommand {
    /// The command group.
    static let spec = CommandSpec(
        name: "sim",
        abstract: "Serve simulated tags to real reader stacks.",
        discussion: """
            A simulated tag is named as a reader URL, sim:CHIP?OPTIONS, as for --reader: \
            chips ntag210, ntag212, ntag213, ntag215, ntag216, ultralight, ultralight-c, \
            ultralight-ev1, ultralight-ev1-128 and type4; options file=PATH (keep the tag in \
            a file), uid=HEX and the faults remove-after=N, in-flight=complete|none|tear, \
            second-tag=1, latency-ms=N and corrupt-every=N (the README has them all).

            The tamper loops of the NTAG 424 DNA TT tags served (sim:ntag424tt) follow the \
            process's signals: SIGUSR1 opens them (a broken seal), SIGUSR2 closes them again; \
            a tag with TagTamper enabled latches the opening, as the chip does. Each signal \
            is noted on standard error.

            Examples:
              ndeftool sim serve 'sim:ntag215?file=tag.nfc'
              ndeftool sim serve --pn532 /tmp/pn532 sim:ntag213
            """,
        subcommands: [SimServeCommand.spec]
    )
}

/// `sim serve`'s SIGUSR1 handler: the tamper loops open (``SimServeCommand/followTamperSignals()``).
private func openTamperLoops(_: Int32) {
    SimulatedTagTamperControl.overrideLoop(open: true)
    let note: StaticString = "[sim] SIGUSR1: the tamper loops are open\n"
    _ = write(2, note.utf8Start, note.utf8CodeUnitCount)
}

/// `sim serve`'s SIGUSR2 handler: the tamper loops closed.
private func closeTamperLoops(_: Int32) {
    SimulatedTagTamperControl.overrideLoop(open: false)
    let note: StaticString = "[sim] SIGUSR2: the tamper loops are closed\n"
    _ = write(2, note.utf8Start, note.utf8CodeUnitCount)
}
