import Foundation
import NFCSession
import Testing

@testable import NDEFCommandLine

/// Standard streams in memory that claim to be terminals, with answers typed in advance: for the
/// behaviour meant for a person (questions, prompts, colour, progress).
final class TerminalTestIO: CommandIO {
    var output: [UInt8] = []
    var error = ""
    var variables: [String: String]
    var answers: [String]
    var terminals: Set<StandardStream>
    var pcsc = PCSCDirectory.unavailable
    var libnfc = LibNFCDirectory.none

    init(
        variables: [String: String] = [:], answers: [String] = [],
        terminals: Set<StandardStream> = [.input, .output, .error]
    ) {
        self.variables = variables
        self.answers = answers
        self.terminals = terminals
    }

    var outputText: String { String(decoding: output, as: UTF8.self) }

    func readStandardInput() throws(CommandLineError) -> [UInt8] { [] }
    func writeOutput(_ bytes: [UInt8]) throws(CommandLineError) { output += bytes }
    func writeError(_ text: String) { error += text }
    func environment(_ name: String) -> String? { variables[name] }
    func isTerminal(_ stream: StandardStream) -> Bool { terminals.contains(stream) }

    func readLine() -> String? {
        answers.isEmpty ? nil : answers.removeFirst()
    }
}

/// A pcscd with these readers, each with a tag when its name ends in 1.
func fakePCSC(_ names: [String]) -> PCSCDirectory {
    PCSCDirectory(names: { () throws(NFCReaderError) in names }, tagPresent: { $0.hasSuffix("1") })
}

/// libnfc with these devices.
func fakeLibNFC(_ connstrings: [String], probe: Bool? = nil) -> LibNFCDirectory {
    LibNFCDirectory(connstrings: { () throws(NFCReaderError) in connstrings }, probe: { _ in probe })
}
