import Foundation
import TestSupport
import Testing

/// The vpcd port the CLI tests serve tags on through the real pcscd (reader `Virtual PCD 00 01`,
/// 35964). The tests that use it are nested in ``SharedVPCDPortTests``, which runs them one at a
/// time.
enum SecondVPCDPort {
    static let port = 35964
    static let readerName = "Virtual PCD 00 01"

    /// Runs `body`, then waits until pcscd has seen the last card leave the reader (it looks
    /// every 0.4 s), so that the next test starts with an empty reader.
    static func withPort(
        sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
    ) async throws {
        do {
            try await body()
        } catch {
            await waitUntilEmpty(sourceLocation: sourceLocation)
            throw error
        }
        await waitUntilEmpty(sourceLocation: sourceLocation)
    }

    /// Waits until pcscd says the reader holds no card (it looks every 0.4 s).
    static func waitUntilEmpty(sourceLocation: SourceLocation = #_sourceLocation) async {
        await waitForCard(present: false, sourceLocation: sourceLocation)
    }

    /// Waits until pcscd says a card is on the reader (it looks every 0.4 s).
    static func waitUntilPresent(sourceLocation: SourceLocation = #_sourceLocation) async {
        await waitForCard(present: true, sourceLocation: sourceLocation)
    }

    /// Waits until pcscd sees a card on the reader, or none (`Scripts/lib/pcsc-client.pl`: `wait
    /// present|absent`, at most 10 s).
    private static func waitForCard(present: Bool, sourceLocation: SourceLocation) async {
        let script = PackagePaths.root.appendingPathComponent("Scripts/lib/pcsc-client.pl").path
        let commands = "wait \(present ? "present" : "absent") \(readerName) 60000\nquit\n"
        do {
            // The pcscd of the test run, not a private one another suite of this process points
            // PCSCLITE_CSOCK_NAME at.
            let client = try ChildProcess(
                path: "/usr/bin/perl", [script], environment: ["PCSCLITE_CSOCK_NAME": nil],
                input: .bytes(Array(commands.utf8)))
            let result = await client.finish(timeout: .seconds(60), sourceLocation: sourceLocation)
            #expect(
                result.outputText.hasPrefix("ok"),
                "pcscd \(present ? "sees no card" : "still sees a card") on \(readerName): \(result.outputText)",
                sourceLocation: sourceLocation)
        } catch {
            Issue.record(error, sourceLocation: sourceLocation)
        }
    }
}

/// The tests that serve tags on ``SecondVPCDPort``, one at a time: each one's served card must
/// have left the reader before the next starts.
@Suite(.serialized, .timeLimit(.minutes(5))) enum SharedVPCDPortTests {}
