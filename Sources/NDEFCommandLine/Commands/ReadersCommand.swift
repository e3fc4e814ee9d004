import NFCSession
import PCSCReader

/// `ndeftool readers`: every reader a tag command can use.
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
        abstract: "List the readers: PC/SC, simulated, remembered.",
        discussion: """
            Lists pcscd's readers in its order, with whether a tag (card) is on each and the \
            URL that names it for --reader (pcsc:INDEX, or pcsc:NAME), then examples of \
            simulated readers (sim:), and the PC/SC reader used last, which tag commands \
            prefer when neither --reader nor NDEFTOOL_READER names one (kept in \
            $XDG_CONFIG_HOME/ndeftool/last-reader, by default ~/.config/ndeftool/last-reader).

            Exits with 69 when pcscd is not running (the list still shows the simulated \
            readers, and the message says how to start pcscd).

            Examples:
              ndeftool readers
              ndeftool readers --json
            """,
        options: [json],
        run: run
    )

    /// One reader in the list.
    struct Entry: Encodable {
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
    }

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let remembered = RememberedReader(io: invocation.io).load()
        var listing = Listing(readers: [], remembered: remembered, pcscProblem: nil)
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
            return .unavailable
        }
        return .success
    }

    /// The list for people.
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
                "  pcsc:\(entry.index ?? 0)  \(entry.name)  (\(tag))" + (entry.remembered ? "  [remembered]" : ""))
        }
        lines.append("Simulated readers (examples):")
        for entry in listing.readers where entry.kind == "sim" {
            lines.append("  \(entry.url)  \(entry.about ?? "")")
        }
        lines.append("Remembered reader: " + (listing.remembered ?? "none"))
        return lines
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
