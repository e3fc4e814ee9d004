import BenchmarkSupport
import NDEF
import NFCSession
import PCSCReader
import SimulatedReader
import SimulatorBridges
import TagMemory
import TagSimulator

/// Tag operations on a simulated NTAG215 served by the vpcd card bridge to the real pcscd, through
/// ``PCSCReader/PCSCReaderDevice`` with one reader profile: the APDUs pcscd carried, the commands
/// the tag received and the median wall time of each operation, next to the round-trip floor of
/// one APDU measured in the same run.
struct PCSCBenchmark {
    /// A backend profile and the reader the vpcd card plays for it.
    struct Profile {
        var backend: PCSCReaderProfile
        var card: ContactlessReaderProfile

        static let all = [
            Profile(backend: .acr122u, card: .acr122u),
            Profile(backend: .pcscTransparent, card: .pcsc202),
            Profile(backend: .generic, card: .pcsc202),
        ]
    }

    /// The figures of one operation.
    struct Operation {
        var label: String
        /// APDUs through pcscd in one run of the operation.
        var apdus: Int
        /// The commands the tag received in one run.
        var tally: CommandTally
        /// Median wall time, in milliseconds.
        var medianMilliseconds: Double
    }

    /// The simulated card the operations run on.
    enum Card: String, CaseIterable {
        /// A factory NTAG215.
        case ntag215 = "NTAG215"
        /// A factory MIFARE Classic 1K (transport keys), formatted for NDEF by the operations.
        case classic1K = "MIFARE Classic 1K"

        /// A factory card of this kind.
        var factoryTag: SimulatedTag {
            switch self {
            case .ntag215: .type2(SimulatedType2Tag(chip: .ntag215))
            case .classic1K: .classic(SimulatedClassicTag(type: .classic1K))
            }
        }

        /// The operations, in order, on a factory card each iteration.
        var labels: [String] {
            switch self {
            case .ntag215:
                [
                    "session + identification", "writeNDEF 100 B (verified)", "readNDEF 100 B",
                    "readMemory (all 135 pages)",
                ]
            case .classic1K:
                [
                    "session + identification", "format (prepare + format)", "writeNDEF 100 B (verified)",
                    "readNDEF 100 B",
                ]
            }
        }
    }

    /// The figures of one profile.
    struct Outcome {
        var profile: Profile
        var card: Card
        /// The median time of one APDU that pcscd and the card bridge answer without the tag
        /// (GET DATA of the UID), in milliseconds: the floor of every APDU.
        var floorMilliseconds: Double
        var operations: [Operation]
    }

    var readerName: String
    var port: UInt16
    var iterations: Int
    var floorSamples: Int

    /// Runs every operation on `card` `iterations` times with `profile`.
    func run(_ profile: Profile, card kind: Card = .ntag215) async throws(BenchmarkFailure) -> Outcome {
        let labels = kind.labels
        let reader = SimulatedReader(tag: kind.factoryTag)
        let card: VirtualPCDCard
        do {
            card = try VirtualPCDCard(reader: reader, configuration: .init(port: port, profile: profile.card))
            try card.start()
        } catch {
            throw BenchmarkFailure("cannot serve the simulated tag on vpcd port \(port): \(error.reason)")
        }
        defer { card.stop() }
        let device = PCSCReaderDevice(readerName: readerName, profile: profile.backend, exclusive: true)
        defer { Task { await device.close() } }
        try await waitForTag(device)
        let floor = try await measureFloor(device)
        var samples = Array(repeating: [Double](), count: labels.count)
        var apdus = Array(repeating: 0, count: labels.count)
        var tallies: [CommandTally?] = Array(repeating: nil, count: labels.count)
        for iteration in 0..<iterations {
            let figures =
                kind == .ntag215
                ? try await runOnce(device: device, reader: reader, card: card)
                : try await runClassicOnce(device: device, reader: reader, card: card)
            for (index, figure) in figures.enumerated() {
                if let first = tallies[index], first != figure.tally || apdus[index] != figure.apdus {
                    throw BenchmarkFailure(
                        "\(labels[index]): iteration \(iteration + 1) sent \(figure.apdus) APDUs, "
                            + "\(figure.tally.sequenceDescription); the first \(apdus[index]), "
                            + first.sequenceDescription)
                }
                tallies[index] = figure.tally
                apdus[index] = figure.apdus
                samples[index].append(figure.milliseconds)
            }
        }
        let operations = labels.indices.compactMap { index in
            tallies[index].map {
                Operation(
                    label: labels[index], apdus: apdus[index], tally: $0,
                    medianMilliseconds: Statistics.median(samples[index]))
            }
        }
        return Outcome(profile: profile, card: kind, floorMilliseconds: floor, operations: operations)
    }

    /// Polls until pcscd reports the card and the device connects to it.
    private func waitForTag(_ device: PCSCReaderDevice) async throws(BenchmarkFailure) {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(10))
        while clock.now < deadline {
            do {
                if try await !device.pollTargets().isEmpty { return }
            } catch {
                throw BenchmarkFailure("polling \(readerName): \(error.reason)")
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        throw BenchmarkFailure("the card never showed in \(readerName) (is this pcscd's vpcd port \(port)?)")
    }

    /// The median time of GET DATA (UID), answered by the card bridge without the tag.
    private func measureFloor(_ device: PCSCReaderDevice) async throws(BenchmarkFailure) -> Double {
        let clock = ContinuousClock()
        var times: [Double] = []
        for _ in 0..<floorSamples {
            let start = clock.now
            do {
                _ = try await device.sendAPDU([0xFF, 0xCA, 0x00, 0x00, 0x00])
            } catch {
                throw BenchmarkFailure("GET DATA: \(error.reason)")
            }
            times.append(Statistics.milliseconds(start.duration(to: clock.now)))
        }
        return Statistics.median(times)
    }

    /// One figure of one iteration.
    private struct Sample {
        var apdus: Int
        var tally: CommandTally
        var milliseconds: Double
    }

    /// One iteration on a factory tag: session, write, read, full read.
    private func runOnce(
        device: PCSCReaderDevice, reader: SimulatedReader, card: VirtualPCDCard
    ) async throws(BenchmarkFailure) -> [Sample] {
        let uid = SimulatedType2Tag(chip: .ntag215).uid
        reader.withField { field in
            _ = field.remove(uid: uid)
            _ = field.insert(.type2(SimulatedType2Tag(chip: .ntag215)))
            field.resetCommandCounts()
            field.isRecordingCommands = true
        }
        let message = BenchmarkMessages.uri(length: 100)
        let session = NFCTagReaderSession(reader: device)
        var samples: [Sample] = []
        var tag: NFCMiFareTag?
        do {
            try await measure(reader, card, into: &samples) {
                guard let found = try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareTag else {
                    throw NFCReaderError(.tagNotSupported, "the tag is not a Type 2 tag")
                }
                tag = found
            }
            guard let tag else { throw NFCReaderError(.tagNotSupported, "no tag") }
            try await measure(reader, card, into: &samples) { try await tag.writeNDEF(message) }
            var read: NFCNDEFMessage?
            try await measure(reader, card, into: &samples) { read = try await tag.readNDEF() }
            guard read == message else { throw NFCReaderError(.tagResponseError, "read back another message") }
            var memory: Type2Memory?
            try await measure(reader, card, into: &samples) { memory = try await tag.readMemory() }
            guard memory?.bytes.count == 135 * 4 else {
                throw NFCReaderError(.tagResponseError, "readMemory returned \(memory?.bytes.count ?? 0) bytes")
            }
        } catch {
            await session.invalidate()
            throw BenchmarkFailure("\(error)")
        }
        await session.invalidate()
        return samples
    }

    /// One iteration on a factory MIFARE Classic 1K: session, format, write, read.
    private func runClassicOnce(
        device: PCSCReaderDevice, reader: SimulatedReader, card: VirtualPCDCard
    ) async throws(BenchmarkFailure) -> [Sample] {
        let uid = SimulatedClassicTag(type: .classic1K).uid
        reader.withField { field in
            _ = field.remove(uid: uid)
            _ = field.insert(Card.classic1K.factoryTag)
            field.resetCommandCounts()
            field.isRecordingCommands = true
        }
        let message = BenchmarkMessages.uri(length: 100)
        let keys = MifareClassicKeyring(keyBToInstall: MifareClassicKey((0x4B, 0x65, 0x79, 0x20, 0x42, 0x21)))
        let session = NFCTagReaderSession(reader: device)
        var samples: [Sample] = []
        var tag: NFCMiFareClassicTag?
        do {
            try await measure(reader, card, into: &samples) {
                guard let found = try await session.nextTag(timeout: .seconds(5)) as? NFCMiFareClassicTag else {
                    throw NFCReaderError(.tagNotSupported, "the card is not a MIFARE Classic card")
                }
                tag = found
            }
            guard let tag else { throw NFCReaderError(.tagNotSupported, "no card") }
            try await measure(reader, card, into: &samples) {
                try await tag.format(keys: keys, confirmation: try await tag.prepareFormat(keys: keys))
            }
            try await measure(reader, card, into: &samples) { try await tag.writeNDEF(message) }
            var read: NFCNDEFMessage?
            try await measure(reader, card, into: &samples) { read = try await tag.readNDEF() }
            guard read == message else { throw NFCReaderError(.tagResponseError, "read back another message") }
        } catch {
            await session.invalidate()
            throw BenchmarkFailure("\(error)")
        }
        await session.invalidate()
        return samples
    }

    /// Runs `body`, appending its APDUs, tag commands and wall time to `samples`.
    private func measure(
        _ reader: SimulatedReader, _ card: VirtualPCDCard, into samples: inout [Sample],
        _ body: () async throws -> Void
    ) async throws {
        reader.withField { $0.resetCommandCounts() }
        let apdusBefore = card.status.apduCount
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        let elapsed = Statistics.milliseconds(start.duration(to: clock.now))
        samples.append(
            Sample(
                apdus: card.status.apduCount - apdusBefore, tally: CommandTally(reader.field), milliseconds: elapsed))
    }
}
