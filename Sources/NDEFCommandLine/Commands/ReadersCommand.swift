import CommandLineKit
import LibNFCReader
import NFCReaders
import NFCSession
import PCSCReader
import TagInspection

/// `ndeftool readers`: every reader a tag command can use, with the backend that drives it.
enum ReadersCommand {
    static let json = OptionSpec.flag("json", help: "Print the list as JSON.")

    /// Simulated readers worth knowing, with what they are.
    static let simulatedExamples: [(url: String, about: String)] = [
        ("sim:ntag215", "a simulated NTAG215, blank, gone when the command ends"),
        ("sim:ntag215?file=tag.nfc", "the same, kept in tag.nfc between commands"),
        ("sim:ntag213", "a simulated NTAG213 (also ntag210, ntag212, ntag216, ultralight, ...)"),
        ("sim:type4", "a simulated NFC Forum Type 4 tag"),
    ]

    static let probe = OptionSpec.flag(
        "probe", help: "Open each libnfc device and look once for a tag (otherwise: tag unknown).")
    static let watch = OptionSpec.flag(
        "watch", help: "Keep watching: a line per reader or tag that comes or goes, until Ctrl-C.")

    /// The command.
    static let spec = CommandSpec(
        name: "readers",
        abstract: "List readers: PC/SC, libnfc, simulated, remembered.",
        discussion: """
            Each reader has a number (for --reader N), its backend (pcsc, libnfc), the URL \
            that names it for --reader, and whether a tag is on it. Lists pcscd's readers in its \
            order, with whether a tag (card) is on each; then the devices libnfc knows \
            (libnfc:CONNSTRING): those named by LIBNFC_DEVICE or /etc/nfc/libnfc.conf and the USB \
            readers its scan finds (a PN532 on a serial port is never scanned for: name it, as in \
            --reader libnfc:pn532_uart:/dev/ttyUSB0). A libnfc device is not opened just to look \
            for a tag (its tag is 'unknown') unless --probe is given; a PN532 on a serial port \
            that was used last is listed too while its device file exists. Then examples of \
            simulated readers (sim:), the reader used last, marked [default]: tag commands use \
            it when neither --reader nor NDEFTOOL_READER names one and it is connected (kept in \
            $XDG_CONFIG_HOME/ndeftool/last-reader, by default ~/.config/ndeftool/last-reader), \
            and the reader NDEFTOOL_READER names. A backend that cannot answer (pcscd not \
            running, libnfc failing) is a warning while another reader, a remembered one or \
            NDEFTOOL_READER's is listed, and an error (69) when none is.

            With --identify READER (a number or URL, as --reader takes) the reader blinks its \
            lights a few times so you can tell which one it is: ACR122U-style PC/SC readers \
            (profile acr122u, which take the LED command only while a tag is on them) and simulated \
            readers; other readers have no lights ndeftool drives, and the command exits with 69.

            With --watch the readers are watched: a line for each reader and tag there, then \
            one per reader or tag that comes or goes (with --json, one JSON object per line), \
            until Ctrl-C, which ends with status 0. libnfc's devices are listed again every 2 \
            seconds (the list only: no device is opened to look for a tag). When pcscd is not \
            running, or stops, the watch says so once on standard error and goes on; pcscd's \
            readers show once it runs.

            Examples:
              ndeftool readers
              ndeftool readers --json
              ndeftool readers --probe
              ndeftool readers --watch
              ndeftool readers --identify sim:ntag215
              NDEFTOOL_READER=sim:ntag213 ndeftool readers
            """,
        options: [json, probe, watch, ReadersIdentify.option],
        groups: [
            MessageOptions.group(
                verbose: "Also say on standard error what each backend answered (pcscd, libnfc).")
        ],
        run: run
    )

    /// One reader in the list.
    struct Entry: Encodable {
        /// The backend: `pcsc`, `libnfc` or `sim`.
        var kind: String
        var url: String
        var name: String
        /// The number for `--reader N`, from 1 (PC/SC then libnfc); nil for the simulated examples.
        var number: Int?
        var index: Int?
        var tagPresent: Bool?
        /// `present`, `absent` or `unknown`.
        var tag: String?
        var remembered: Bool
        var about: String?
    }

    /// The whole list, as `--json` prints it.
    struct Listing: Encodable {
        var readers: [Entry]
        var remembered: String?
        /// The reader `NDEFTOOL_READER` names: the tag commands' default.
        var defaultReader: String?
        var pcscProblem: String?
        var libnfcProblem: String?
    }

    /// `present`, `absent` or `unknown`.
    static func tagState(_ present: Bool?) -> String {
        present.map { $0 ? "present" : "absent" } ?? "unknown"
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        if let identify = invocation.values.value(ReadersIdentify.option.long) {
            return try await ReadersIdentify.run(identify, invocation)
        }
        if invocation.values.flag(watch.long) {
            return try await ReadersWatch.run(invocation, json: invocation.values.flag(json.long))
        }
        let listing = await list(invocation.io, probing: invocation.values.flag(probe.long))
        if invocation.values.flag(json.long) {
            try invocation.io.writeOutput(try MessageJSON.text(of: listing) + "\n")
        } else {
            try invocation.io.writeOutput(
                lines(listing, style: Style(io: invocation.io, stream: .output)).joined(separator: "\n") + "\n")
        }
        let messages = CommandMessages(invocation)
        let counts = Dictionary(grouping: listing.readers, by: \.kind).mapValues(\.count)
        messages.detail(
            "pcscd: " + (listing.pcscProblem ?? MessageDescription.count(counts["pcsc"] ?? 0, "reader")))
        messages.detail(
            "libnfc: " + (listing.libnfcProblem ?? MessageDescription.count(counts["libnfc"] ?? 0, "device")))
        // A backend that cannot answer is an error only when no reader is there to use: with a
        // PC/SC reader, a libnfc device, a remembered reader or NDEFTOOL_READER's listed, it is a
        // warning and the listing succeeds.
        let usable =
            listing.remembered != nil || listing.defaultReader != nil || listing.readers.contains { $0.kind != "sim" }
        let problems = [
            listing.pcscProblem.map { "PC/SC readers cannot be listed: \($0)" },
            listing.libnfcProblem.map { "libnfc devices cannot be listed: \($0)" },
        ].compactMap { $0 }
        let style = Style(io: invocation.io)
        for problem in problems {
            if usable {
                messages.warn("Warning: \(problem)")
            } else {
                invocation.io.writeError(style.error("Error:") + " \(problem)\n")
            }
        }
        return problems.isEmpty || usable ? .success : .unavailable
    }

    /// Every reader now; libnfc devices are opened to look for a tag only when `probing`.
    static func list(_ io: any CommandIO, probing: Bool) async -> Listing {
        let remembered = RememberedReader(io: io).load()
        var listing = Listing(
            readers: [], remembered: remembered, defaultReader: nil, pcscProblem: nil, libnfcProblem: nil)
        let rememberedAddress = remembered.flatMap {
            try? ReaderAddress(parsing: $0, origin: RememberedReader.fileName)
        }
        let pcsc = io.pcsc
        var number = 0
        do {
            let names = try await pcsc.names()
            for (index, name) in names.enumerated() {
                number += 1
                let present = await pcsc.tagPresent(name)
                var isRemembered = false
                if case .pcsc(let url, _) = rememberedAddress, case .name(let wanted) = url.selector {
                    isRemembered = wanted == name
                }
                listing.readers.append(
                    Entry(
                        kind: "pcsc", url: PCSCReaderURL(selector: .name(name)).description, name: name,
                        number: number, index: index, tagPresent: present, tag: tagState(present),
                        remembered: isRemembered))
            }
        } catch {
            listing.pcscProblem = error.reason
        }
        do {
            for (index, connstring) in try await io.libnfc.connstrings().enumerated() {
                number += 1
                let url = LibNFCReaderURL(selector: .connstring(connstring))
                let present = probing ? await io.libnfc.probe(connstring) : nil
                listing.readers.append(
                    Entry(
                        kind: "libnfc", url: url.description, name: connstring, number: number, index: index,
                        tagPresent: present, tag: tagState(present), remembered: rememberedAddress == .libnfc(url)))
            }
        } catch {
            listing.libnfcProblem = error.reason
        }
        let listed = listing.readers.compactMap { entry -> ReaderAddress? in
            entry.kind == "libnfc" ? try? ReaderAddress(parsing: entry.url, origin: "libnfc") : nil
        }
        if let device = ReaderChoice.unscannedDevice(remembered, listed: listed),
            case .connstring(let connstring) = device.selector
        {
            // A PN532 on a serial port that libnfc does not scan for: listed because it was used.
            number += 1
            let present = probing ? await io.libnfc.probe(connstring) : nil
            listing.readers.append(
                Entry(
                    kind: "libnfc", url: device.description, name: connstring, number: number, index: nil,
                    tagPresent: present, tag: tagState(present), remembered: true,
                    about: "remembered; libnfc does not scan serial ports"))
        }
        if let text = io.environment(TagOptions.readerVariable), !text.isEmpty {
            listing.defaultReader = text
        }
        for example in simulatedExamples {
            listing.readers.append(
                Entry(kind: "sim", url: example.url, name: example.url, remembered: false, about: example.about))
        }
        return listing
    }

    /// The list for people: one line per reader, its number and backend first.
    static func lines(_ listing: Listing, style: Style = Style(enabled: false)) -> [String] {
        var lines = ["PC/SC readers:"]
        let pcsc = listing.readers.filter { $0.kind == "pcsc" }
        if listing.pcscProblem != nil {
            lines.append("  (pcscd is not running)")
        } else if pcsc.isEmpty {
            lines.append("  (none connected)")
        }
        for entry in pcsc {
            lines.append(numbered(entry, "pcsc:\(entry.index ?? 0)  \(entry.name)  (\(tagText(entry, style)))", style))
        }
        lines.append("libnfc devices:")
        let libnfc = listing.readers.filter { $0.kind == "libnfc" }
        if listing.libnfcProblem != nil {
            lines.append("  (libnfc cannot be asked)")
        } else if libnfc.isEmpty {
            lines.append("  (none found; a PN532 on a serial port is named: --reader libnfc:pn532_uart:/dev/ttyUSB0)")
        }
        for entry in libnfc {
            let place = entry.index.map { "libnfc:\($0)" } ?? (entry.about ?? "")
            lines.append(numbered(entry, "\(entry.url)  (\(place), \(tagText(entry, style)))", style))
        }
        lines.append("Simulated readers (examples):")
        for entry in listing.readers where entry.kind == "sim" {
            lines.append("    " + row("sim", "\(entry.url)  \(entry.about ?? "")"))
        }
        lines.append("Remembered reader: " + (listing.remembered ?? "none"))
        if let reader = listing.defaultReader {
            lines.append("Default reader (\(TagOptions.readerVariable)): \(reader)")
        }
        return lines
    }

    /// `tag present`, `no tag`, `tag unknown`; present in green.
    static func tagText(_ entry: Entry, _ style: Style) -> String {
        switch entry.tagPresent {
        case .some(true): style.success("tag present")
        case .some(false): "no tag"
        case nil: "tag unknown"
        }
    }

    /// A numbered line: `  1 pcsc    pcsc:0  Reader 0  (no tag)  [default]`.
    static func numbered(_ entry: Entry, _ rest: String, _ style: Style) -> String {
        let number = String(entry.number ?? 0)
        return String(repeating: " ", count: max(0, 3 - number.count)) + number + " "
            + row(entry.kind, rest).dropFirst(2) + (entry.remembered ? "  " + style.bold("[default]") : "")
    }

    /// One line of the list: the backend, padded to a column, then the rest.
    static func row(_ backend: String, _ rest: String) -> String {
        "  " + backend + String(repeating: " ", count: max(1, 8 - backend.count)) + rest
    }

    /// Whether a tag is on the reader now; nil when pcscd does not say.
    static func tagPresent(in reader: String) async -> Bool? {
        do {
            for try await event in PCSCReaders.watchCard(in: reader) {
                switch event.presence {
                case .present, .mute: return true
                case .empty: return false
                case .readerRemoved: return nil
                }
            }
        } catch {
            return nil
        }
        return nil
    }
}

/// `ndeftool readers --identify READER`: blinks a reader's lights so a person can tell which
/// one it is (``NFCSession/NFCReaderSignalling``, ``NFCSession/NFCReaderSignal/identify``).
enum ReadersIdentify {
    static let option = OptionSpec.option(
        "identify", value: "reader",
        help: "Blink the lights of READER (a number or URL, as --reader takes) so you can tell which it is.")

    /// Opens the reader `text` names, sends it the identify signal, closes it.
    ///
    /// - Returns: 0 when the reader showed the signal; 69 when it has no lights ndeftool drives (a
    ///   PC/SC reader without the acr122u profile, a libnfc device) or did not take the command.
    static func run(_ text: String, _ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let io = invocation.io
        let address: ReaderAddress
        if !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) {
            guard let number = Int(text), number >= 1 else {
                throw .usage("Invalid reader '\(text)' in --identify: readers are numbered from 1")
            }
            address = try await ReaderChoice.numbered(
                number, pcsc: io.pcsc, libnfc: io.libnfc, remembered: RememberedReader(io: io).load())
        } else {
            address = try ReaderAddress(parsing: text, origin: "--identify")
        }
        let reader = try await address.open(console: nil)
        let style = Style(io: io)
        guard let signalling = reader as? any NFCReaderSignalling, signalling.supportsSignals else {
            await reader.close()
            io.writeError(
                style.error("Error:") + " the reader \(reader.name) has no lights or buzzer ndeftool can drive "
                    + "(only ACR122U-style PC/SC readers, profile acr122u, and simulated readers do)\n")
            return .unavailable
        }
        let shown = await signalling.signal(.identify)
        await reader.close()
        guard shown else {
            io.writeError(
                style.error("Error:") + " the reader \(reader.name) did not take the LED command (an ACR122U "
                    + "takes it only while a tag is on it)\n")
            return .unavailable
        }
        try io.writeOutput("Blinking the lights of \(reader.name)\n")
        return .success
    }
}
