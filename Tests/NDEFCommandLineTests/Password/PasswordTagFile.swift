import Foundation
import TestSupport
import Testing

/// A simulated NTAG21x or MIFARE Ultralight EV1 in a temporary tag file, with password files
/// beside it, for the `ndeftool password` tests run through the built binary.
final class PasswordTagFile {
    let folder: TemporaryDirectory
    let chip: String

    init(chip: String = "ntag215") throws {
        folder = try TemporaryDirectory("cli")
        self.chip = chip
    }

    /// The tag file (a Flipper .nfc dump: PWD, PACK and the failed PWD_AUTH count included).
    var path: String { folder.path("tag.nfc") }

    /// `argument` with a file name ending in `.txt` turned into the path of that file beside the tag.
    func resolving(_ argument: String) -> String {
        argument.hasSuffix(".txt") && !argument.contains("/") ? folder.path(argument) : argument
    }

    /// The reader URL, with extra `&key=value` options (faults) when given.
    func reader(_ faults: String = "") -> String { "sim:\(chip)?file=\(path)" + faults }

    /// A file holding `password` on its first line.
    func passwordFile(_ password: String, name: String = "pw.txt") throws -> String {
        try folder.file(name, text: password + "\n")
    }

    /// Runs `ndeftool` with `arguments`, `--reader` and `--wait 0`; `environment` adds to an
    /// environment without NDEFTOOL_READER or password variables.
    func run(
        _ arguments: [String], environment: [String: String] = [:], input: [UInt8] = [], faults: String = ""
    ) async throws -> RunResult {
        // The records of password changes are kept beside the tag, for the runs of one test.
        let base = [
            "NDEFTOOL_READER": "", "NDEFTOOL_PASSWORD": "", "NDEFTOOL_OLD_PASSWORD": "",
            "XDG_STATE_HOME": folder.path("state"),
        ]
        return try await BinaryRunner.run(
            arguments + ["--reader", reader(faults), "--wait", "0"], input: input,
            environment: base.merging(environment) { $1 })
    }

    /// The environment of a command run on another machine: no record of this tag's password
    /// changes, so a wrong password is sent (once), as the tests of attempt counting need.
    var elsewhere: [String: String] { ["XDG_STATE_HOME": folder.path("elsewhere")] }

    /// The tag file's text (empty when it does not exist yet).
    func contents() -> String {
        (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    }

    /// Page `page` of the tag file as written there (`DE AD BE EF`).
    func page(_ page: Int) -> String? {
        contents().split(separator: "\n").first { $0.hasPrefix("Page \(page): ") }
            .map { String($0.dropFirst("Page \(page): ".count)) }
    }

    /// The failed PWD_AUTH count the simulated chip keeps.
    var failedAttempts: Int? {
        contents().split(separator: "\n").first { $0.hasPrefix("Failed authentication attempts: ") }
            .flatMap { Int($0.dropFirst("Failed authentication attempts: ".count)) }
    }

    /// The JSON object `result` printed.
    static func object(_ result: RunResult) throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(result.output))
        return try #require(value as? [String: Any], "not a JSON object: \(result.outputText)")
    }

    /// The PWD_AUTH count of a `-v` run's last line (`10 tag commands: ..., 1 PWD_AUTH, ...`); 0 when none.
    static func passwordAuthCount(_ result: RunResult) -> Int {
        guard let line = result.error.split(separator: "\n").last(where: { $0.contains(" tag command") }) else {
            return 0
        }
        let parts = line.split(separator: ":").dropFirst().joined().split(separator: ",")
        for part in parts where part.hasSuffix(" PWD_AUTH") {
            return Int(part.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? 0
        }
        return 0
    }
}
