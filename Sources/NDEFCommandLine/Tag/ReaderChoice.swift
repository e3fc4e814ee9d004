import NFCSession
import PCSCReader

/// The reader a tag command uses when neither `--reader` nor `NDEFTOOL_READER` names one: the
/// remembered PC/SC reader (``RememberedReader``) when it is connected, else the only PC/SC
/// reader, else an error that lists the readers (with several, a script must say which).
enum ReaderChoice {
    /// The reader to use, chosen among the PC/SC readers connected now.
    ///
    /// - Throws: a usage error when there is no reader (pcscd not running, or it lists none) or
    ///   several and none remembered: the message lists them and says how to choose.
    static func automatic(
        remembered: RememberedReader, pcsc: PCSCDirectory
    ) async throws(CommandLineError) -> ReaderAddress {
        let names: [String]
        var problem: String?
        do {
            names = try await pcsc.names()
        } catch {
            names = []
            problem = error.reason
        }
        if let remembered = remembered.load(),
            let url = try? PCSCReaderURL(parsing: remembered), let name = try? url.resolve(among: names),
            case .name(let wanted) = url.selector, name == wanted
        {
            return .pcsc(url, text: remembered)
        }
        if names.count == 1 {
            return .pcsc(PCSCReaderURL(selector: .name(names[0])), text: "pcsc:" + names[0])
        }
        let example = "for example --reader sim:ntag215 (a simulated NTAG215; add ?file=tag.nfc to keep it)"
        guard names.count > 1 else {
            throw .usage(
                "No reader given, and no PC/SC reader is connected"
                    + (problem.map { " (\($0))" } ?? "") + ": use --reader URL or set \(TagOptions.readerVariable), "
                    + example,
                help: "\(TagOptions.reader.synopsis)  \(TagOptions.reader.help)")
        }
        let list = names.enumerated().map { "  pcsc:\($0.offset)  \($0.element)" }.joined(separator: "\n")
        throw .usage(
            "No reader given, and \(names.count) PC/SC readers are connected: choose one with --reader "
                + "(or \(TagOptions.readerVariable)):\n\(list)")
    }
}
