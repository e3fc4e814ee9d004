import CommandLineKit
import HexText
import JSONSupport
import NDEF
import NFCSession
import NTAG424

/// `ndeftool sdm status`: an NTAG 424 DNA's files, SDM settings, key versions, read counter and
/// the URL a phone reads now (NT4H2421Gx 10.5-10.7, 9.3).
enum SDMStatusCommand {
    static let keysFile = OptionSpec.option(
        "keys-file", value: "file",
        help: "The tag's keys as JSON ({\"k0\": \"32 hex\", ..., \"k4\": \"32 hex\"}): reads the counter where "
            + "a key guards it, and checks the URL a phone reads.")
    static let masterKeyFile = OptionSpec.option(
        "master-key-file", value: "file",
        help: "The master key the tag's keys were derived from ('sdm setup --master-key-file', 'batch "
            + "--sdm-master-key-file'), in place of --keys-file: the tag's keys are derived from it and the UID, "
            + "the shared SDMMetaRead key at the key number the tag's SDM settings name.")
    static let json = OptionSpec.flag("json", help: "Print the status as JSON.")

    /// The command.
    static let spec = CommandSpec(
        name: "status",
        abstract: "Show an NTAG 424 DNA's file settings, SDM, key versions, counter and the URL a phone reads.",
        discussion: """
            Reads GetVersion, the settings of files 01 (CC), 02 (NDEF) and 03, the five key \
            versions (00: the factory key, or a key never changed), the SDM read counter \
            (GetFileCounters, where SDMCtrRet allows it; with --keys-file also where a key \
            guards it) and the NDEF message as a phone reads it: with SDM on, that read \
            counts, as a phone's does. With --keys-file (or --master-key-file) the URL is \
            checked as 'ndeftool sdm verify' checks it. Nothing is written.

            Exit status: 0; 76 when the tag is not an NTAG 424 DNA; 78 when a key of \
            --keys-file (or derived from --master-key-file) is refused.

            Examples:
              ndeftool sdm status --reader sim:ntag424
              ndeftool sdm status --reader sim:ntag424 --json
              ndeftool sdm status --reader sim:ntag424 --master-key-file sdm-master.hex
            """,
        options: [keysFile, masterKeyFile, json],
        groups: [TagOptions.group],
        run: run
    )

    @Sendable static func run(_ invocation: CommandInvocation) async throws(CommandLineError) -> ExitStatus {
        let values = invocation.values
        if values.isGiven(keysFile.long) && values.isGiven(masterKeyFile.long) {
            throw .usage("give --keys-file or --master-key-file, not both")
        }
        let fileKeys = try values.value(keysFile.long).map { path throws(CommandLineError) in
            try SDMKeysFile.read(path, option: keysFile)
        }
        let master = try values.value(masterKeyFile.long).map { path throws(CommandLineError) in
            try SDMKeyFile.read(path, option: masterKeyFile)
        }
        let connection = try TagConnection(invocation)
        return try await connection.runOnTag("reading the NTAG 424 DNA") { tag in
            guard let ntag = NFCNTAG424Tag.commands(of: tag) else {
                throw CommandLineError(
                    .tagError, "this is \(tag.chipName ?? "a tag") without ISO-DEP, not an NTAG 424 DNA")
            }
            let keys: SDMStatusReport.Keys? = fileKeys.map { .file($0) } ?? master.map { .master($0) }
            let report = try await SDMStatusReport.read(ntag, keys: keys)
            if values.flag(json.long) {
                try invocation.io.writeOutput(try MessageJSON.text(of: report) + "\n")
            } else {
                try invocation.io.writeOutput(report.lines.joined(separator: "\n") + "\n")
            }
            return .success
        }
    }
}

/// The five keys of an NTAG 424 DNA in a JSON file: `{"k0": "32 hex", ..., "k4": "32 hex"}`.
enum SDMKeysFile {
    static func read(_ path: String, option: OptionSpec) throws(CommandLineError) -> [[UInt8]] {
        let bytes = try FileAccess.readFile(path: path, limit: 64 * 1024)
        let name = "--\(option.long) \(InputReader.name(of: path))"
        let value: JSONValue
        do {
            value = try JSONValue.parse(
                bytes,
                options: JSONParseOptions(
                    maximumDepth: 4, rejectsDuplicateKeys: true, rejectsInvalidUTF8: true, rejectsLoneSurrogates: true))
        } catch {
            throw CommandLineError(.dataError, "\(name): not JSON: \(error)")
        }
        guard case .object(let members) = value else {
            throw CommandLineError(.dataError, "\(name): the keys are an object {\"k0\": \"…\", …, \"k4\": \"…\"}")
        }
        var keys: [[UInt8]] = []
        for number in 0..<5 {
            guard let entry = members.first(where: { $0.key == "k\(number)" })?.value, case .string(let text) = entry,
                text.utf8.count == 32, let key = try? Hex.decode(text), key.count == 16
            else {
                throw CommandLineError(.dataError, "\(name): \"k\(number)\" must be 32 hex characters")
            }
            keys.append(key)
        }
        if let extra = members.first(where: { !["k0", "k1", "k2", "k3", "k4"].contains($0.key) }) {
            throw CommandLineError(.dataError, "\(name): unknown key \"\(extra.key)\"")
        }
        return keys
    }
}
