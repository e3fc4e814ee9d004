import LibNFCReader
import NFCSession
import PCSCReader

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

    /// The command.
    static let spec = CommandSpec(
        name: "readers",
        abstract: "List readers: PC/SC, libnfc, simulated, remembered.",
        discussion: """
            Each line starts with the backend (pcsc, libnfc, sim), then the URL that names the \
            reader for --reader. Lists pcscd's readers in its order, with whether a tag (card) \
            is on each (pcsc:INDEX, or pcsc:NAME); the devices libnfc knows (libnfc:CONNSTRING): \
            those named by LIBNFC_DEVICE or /etc/nfc/libnfc.conf and the USB readers its scan \
            finds (a PN532 on a serial port is never scanned for: name it, as in \
            --reader libnfc:pn532_uart:/dev/ttyUSB0); then examples of simulated readers (sim:), \
            and the PC/SC reader used last, which tag commands prefer when neither --reader nor \
            NDEFTOOL_READER names one (kept in $XDG_CONFIG_HOME/ndeftool/last-reader, by default \
            ~/.config/ndeftool/last-reader).

            Exits with 69 when pcscd is not running or libnfc cannot be asked (the list still \
            shows the other readers, and the message says what to do).

            Examples:
              ndeftool readers
              ndeftool readers --json
            """,
        options: [json],
        run: run
    )

    /// One reader in the list.
    struct Entry: Encodable {
        /// The backend: `pcsc`, `libnfc` or `sim`.
        var kind: String
        var url: String
        var name: String
        var index: Int?
        var tagPresent: Bool?
        var remembered: Bool
        var about: String?
    }

    /// The whole list, as `--json` prints it.
    struct Listing: Encodable {
        var readers: [Entry]
        var remembered: String?
        var pcscProblem: String?
        var libnfcProblem: String?
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let remembered = RememberedReader(io: invocation.io).load()
        var listing = Listing(readers: [], remembered: remembered, pcscProblem: nil, libnfcProblem: nil)
        let rememberedName: String? = remembered.flatMap { text in
            guard let url = try? PCSCReaderURL(parsing: text), case .name(let name) = url.selector else { return nil }
            return name
        }
        let pcsc = invocation.io.pcsc
        do {
            let names = try await pcsc.names()
            for (index, name) in names.enumerated() {
                listing.readers.append(
                    Entry(
                        kind: "pcsc", url: PCSCReaderURL(selector: .name(name)).description, name: name, index: index,
                        tagPresent: await pcsc.tagPresent(name), remembered: name == rememberedName))
            }
        } catch {
            listing.pcscProblem = error.reason
        }
        do {
            for (index, connstring) in try await invocation.io.libnfc.connstrings().enumerated() {
                listing.readers.append(
                    Entry(
                        kind: "libnfc", url: LibNFCReaderURL(selector: .connstring(connstring)).description,
                        name: connstring, index: index, remembered: false))
            }
        } catch {
            listing.libnfcProblem = error.reason
        }
        for example in simulatedExamples {
            listing.readers.append(
                Entry(kind: "sim", url: example.url, name: example.url, remembered: false, about: example.about))
        }
        if invocation.values.flag(json.long) {
            try invocation.io.writeOutput(try MessageJSON.text(of: listing) + "\n")
        } else {
            try invocation.io.writeOutput(lines(listing).joined(separator: "\n") + "\n")
        }
        if let problem = listing.pcscProblem {
            invocation.io.writeError("Error: PC/SC readers cannot be listed: \(problem)\n")
        }
        if let problem = listing.libnfcProblem {
            invocation.io.writeError("Error: libnfc devices cannot be listed: \(problem)\n")
        }
        return listing.pcscProblem == nil && listing.libnfcProblem == nil ? .success : .unavailable
    }

    /// The list for people: one line per reader, the backend first.
    static func lines(_ listing: Listing) -> [String] {
        var lines = ["PC/SC readers:"]
        let pcsc = listing.readers.filter { $0.kind == "pcsc" }
        if listing.pcscProblem != nil {
            lines.append("  (pcscd is not running)")
        } else if pcsc.isEmpty {
            lines.append("  (none connected)")
        }
        for entry in pcsc {
            let tag = entry.tagPresent.map { $0 ? "tag present" : "no tag" } ?? "tag unknown"
            lines.append(
                row("pcsc", "pcsc:\(entry.index ?? 0)  \(entry.name)  (\(tag))")
                    + (entry.remembered ? "  [remembered]" : ""))
        }
        lines.append("libnfc devices:")
        let libnfc = listing.readers.filter { $0.kind == "libnfc" }
        if listing.libnfcProblem != nil {
            lines.append("  (libnfc cannot be asked)")
        } else if libnfc.isEmpty {
            lines.append("  (none found; a PN532 on a serial port is named: --reader libnfc:pn532_uart:/dev/ttyUSB0)")
        }
        for entry in libnfc {
            lines.append(row("libnfc", "\(entry.url)  (libnfc:\(entry.index ?? 0))"))
        }
        lines.append("Simulated readers (examples):")
        for entry in listing.readers where entry.kind == "sim" {
            lines.append(row("sim", "\(entry.url)  \(entry.about ?? "")"))
        }
        lines.append("Remembered reader: " + (listing.remembered ?? "none"))
        return lines
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
