import BenchmarkSupport
import Foundation
import HexText
import LibNFCReader
import NDEF
import NFCSession
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator

/// Write + verify of a 100-byte URI message on a factory NTAG215 through one simulated PN532 on a
/// pseudo-terminal (``SimulatorBridges/PN532SerialSimulator``), by this project (the session layer
/// over ``LibNFCReader/LibNFCReaderDevice`` and libnfc's real `pn532_uart` driver) and by nfcpy
/// 1.0.4 (`Scripts/lib/nfcpy-tag.py write`, its own PN532 driver and its own check,
/// `tag.ndef.has_changed`): the commands the tag received and the wall time.
struct LibNFCBenchmark {
    /// One tool's figures.
    struct Figures {
        /// The commands the tag received in one run (every run must send the same).
        var tally: CommandTally
        /// Median wall time of the write and its verification, from the activated tag on.
        var operationMilliseconds: Double
        /// Median wall time from opening the device (or starting the process) to the end.
        var totalMilliseconds: Double
        /// The commands the host sent the PN532, by command code, from opening it to the end (the
        /// same in every run).
        var chipCommands: [UInt8: Int]

        /// Every command the host sent the PN532.
        var chipCommandTotal: Int { chipCommands.values.reduce(0, +) }
    }

    var iterations: Int
    /// The Python with nfcpy and nfcpy-tag.py; nil skips nfcpy.
    var nfcpy: (python: String, script: String)?
    /// The built ndeftool, for the end-to-end time of `ndeftool write`; nil skips it.
    var ndeftool: String?
    /// A folder for the pseudo-terminal links.
    var directory: String

    static let message = BenchmarkMessages.uri(length: 100)

    /// A started simulator with a factory NTAG215 whose commands are recorded.
    private func serve(_ name: String) throws(BenchmarkFailure) -> PN532SerialSimulator {
        let reader = SimulatedReader(tag: .type2(SimulatedType2Tag(chip: .ntag215)))
        reader.withField { $0.isRecordingCommands = true }
        do {
            let simulator = try PN532SerialSimulator(reader: reader, linkPath: directory + "/" + name)
            try simulator.start()
            return simulator
        } catch {
            throw BenchmarkFailure("cannot start the simulated PN532: \(error.reason)")
        }
    }

    /// Checks that the tag holds the message and returns its commands.
    private func check(_ simulator: PN532SerialSimulator, tool: String) throws(BenchmarkFailure) -> CommandTally {
        let field = simulator.reader.field
        guard let memory = field.tags.first?.type2Tag?.memory,
            let bytes = try? Self.message.encoded(),
            let tlv = memory.ndefTLV,
            tlv.valueRanges.flatMap({ Array(memory.bytes[$0]) }) == bytes
        else { throw BenchmarkFailure("\(tool): the tag does not hold the message afterwards") }
        return CommandTally(field)
    }

    /// Runs `body` `iterations` times, each on a new simulator, and checks every run sent the same.
    private func repeated(
        _ tool: String, _ body: (PN532SerialSimulator) async throws(BenchmarkFailure) -> (Double, Double)
    ) async throws(BenchmarkFailure) -> Figures {
        var operations: [Double] = []
        var totals: [Double] = []
        var first: CommandTally?
        var chipCommands: [UInt8: Int] = [:]
        for iteration in 0..<iterations {
            let simulator = try serve("pn532-\(iteration)")
            defer { simulator.stop() }
            let (operation, total) = try await body(simulator)
            let tally = try check(simulator, tool: tool)
            if let first, first != tally {
                throw BenchmarkFailure(
                    "\(tool): run \(iteration + 1) sent \(tally.sequenceDescription), the first \(first.sequenceDescription)"
                )
            }
            first = tally
            chipCommands = simulator.status.commandCounts
            operations.append(operation)
            totals.append(total)
        }
        guard let first else { throw BenchmarkFailure("\(tool): no run") }
        return Figures(
            tally: first, operationMilliseconds: Statistics.median(operations),
            totalMilliseconds: Statistics.median(totals), chipCommands: chipCommands)
    }

    /// This project through libnfc, in process.
    func runOurs() async throws(BenchmarkFailure) -> Figures {
        try await repeated("ndeftool (libnfc)") { simulator throws(BenchmarkFailure) in
            let clock = ContinuousClock()
            let start = clock.now
            do {
                let device = try await LibNFCReaderDevice.open(connstring: simulator.connstring)
                let session = NFCTagReaderSession(reader: device)
                guard let tag = try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareTag else {
                    throw NFCReaderError(.tagNotSupported, "not a Type 2 tag")
                }
                let activated = clock.now
                try await tag.writeNDEF(Self.message)
                let end = clock.now
                await session.invalidate()
                await device.close()
                return (
                    Statistics.milliseconds(activated.duration(to: end)),
                    Statistics.milliseconds(start.duration(to: end))
                )
            } catch {
                throw BenchmarkFailure("ndeftool (libnfc): \(error)")
            }
        }
    }

    /// nfcpy, as a process; its operation time is what the script measures.
    func runNfcpy() async throws(BenchmarkFailure) -> Figures? {
        guard let nfcpy else { return nil }
        guard let messageHex = try? Hex.encode(Self.message.encoded()) else {
            throw BenchmarkFailure("the message does not encode")
        }
        return try await repeated("nfcpy") { simulator throws(BenchmarkFailure) in
            let run = try Self.runProcess(
                nfcpy.python, [nfcpy.script, simulator.connstring.dropPrefix(), "write", messageHex])
            guard run.status == 0,
                let answer = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any],
                let milliseconds = answer["milliseconds"] as? Double
            else { throw BenchmarkFailure("nfcpy-tag.py failed (\(run.status)): \(run.output) \(run.error)") }
            return (milliseconds, run.milliseconds)
        }
    }

    /// `ndeftool write --from -` as a process, through libnfc: the end-to-end time a user sees
    /// (start-up, libnfc's opening of the port, the write and its verification).
    func runOurCommand() async throws(BenchmarkFailure) -> Figures? {
        guard let ndeftool else { return nil }
        guard let bytes = try? Self.message.encoded() else { throw BenchmarkFailure("the message does not encode") }
        return try await repeated("ndeftool write") { simulator throws(BenchmarkFailure) in
            let arguments = ["write", "--from", "-", "--reader", "libnfc:" + simulator.connstring, "--wait", "5", "-q"]
            let run = try Self.runProcess(ndeftool, arguments, input: bytes)
            guard run.status == 0 else {
                throw BenchmarkFailure("ndeftool write failed (\(run.status)): \(run.error)")
            }
            return (run.milliseconds, run.milliseconds)
        }
    }

    /// A finished process.
    struct ProcessRun {
        var status: Int32
        var output: String
        var error: String
        var milliseconds: Double
    }

    /// Runs `executable` with `arguments` (LIBNFC_AUTO_SCAN=false), `input` on standard input.
    static func runProcess(
        _ executable: String, _ arguments: [String], input: [UInt8] = []
    ) throws(BenchmarkFailure) -> ProcessRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_AUTO_SCAN"] = "false"
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        let clock = ContinuousClock()
        let start = clock.now
        do {
            try process.run()
        } catch {
            throw BenchmarkFailure("cannot run \(executable): \(error)")
        }
        standardInput.fileHandleForWriting.write(Data(input))
        try? standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let elapsed = Statistics.milliseconds(start.duration(to: clock.now))
        return ProcessRun(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData, as: UTF8.self), milliseconds: elapsed)
    }
}

extension String {
    /// The serial port of a `pn532_uart:PORT` connection string.
    fileprivate func dropPrefix() -> String {
        hasPrefix("pn532_uart:") ? String(dropFirst("pn532_uart:".count)) : self
    }
}
