import BenchmarkSupport
import NFCSession
import SimulatedReader
import TagSimulator

/// Runs a ``TagBenchmark`` a number of times, each time on a fresh simulated reader and tag, and
/// measures the commands and the wall time of the operation.
///
/// One iteration: open the reader from the benchmark's URL (with `latency-ms=N` when
/// ``latencyMilliseconds`` is above 0) and, when the benchmark has capabilities of its own, put
/// its field behind a reader that reports them; with the latency off, run the preparation in a
/// first session; then reset the command counts, start the clock, open a session, wait for the
/// tag (polling, selection and identification) and run the operation; stop the clock, read the
/// counts and check the tag. Reader set-up, preparation and the checks are outside the time.
struct TagBenchmarkRunner {
    /// The outcome of a benchmark.
    struct Measurement {
        /// The commands of one iteration (every iteration must send the same).
        var tally: CommandTally
        /// The median wall time of an iteration's operation, in milliseconds.
        var medianMilliseconds: Double
        /// The number of iterations.
        var iterations: Int
    }

    /// Iterations per benchmark.
    var iterations: Int
    /// The latency the simulated reader adds to each command, in milliseconds (0: none).
    var latencyMilliseconds: Int

    /// Runs `benchmark`.
    func run(_ benchmark: TagBenchmark) async throws(BenchmarkFailure) -> Measurement {
        var times: [Double] = []
        var first: CommandTally?
        for iteration in 0..<max(1, iterations) {
            let (tally, milliseconds) = try await runOnce(benchmark)
            if let first, first != tally {
                throw BenchmarkFailure(
                    "\(benchmark.id): iteration \(iteration + 1) sent \(tally.sequenceDescription), "
                        + "the first \(first.sequenceDescription)")
            }
            first = first ?? tally
            times.append(milliseconds)
        }
        return Measurement(
            tally: first ?? CommandTally(SimulatedField()), medianMilliseconds: Statistics.median(times),
            iterations: times.count)
    }

    /// The benchmark's URL with the runner's latency.
    func url(for benchmark: TagBenchmark) -> String {
        guard latencyMilliseconds > 0 else { return benchmark.url }
        return benchmark.url + (benchmark.url.contains("?") ? "&" : "?") + "latency-ms=\(latencyMilliseconds)"
    }

    /// One iteration: the commands and the wall time in milliseconds.
    private func runOnce(_ benchmark: TagBenchmark) async throws(BenchmarkFailure) -> (CommandTally, Double) {
        let url = url(for: benchmark)
        var reader: SimulatedReader
        do {
            reader = try await SimulatedReader(url: url)
        } catch {
            throw BenchmarkFailure("\(benchmark.id): cannot open \(url): \(error)")
        }
        if let capabilities = benchmark.capabilities {
            reader = SimulatedReader(name: url, field: reader.field, capabilities: capabilities)
        }
        do {
            let outcome = try await measure(benchmark, on: reader)
            await reader.close()
            return outcome
        } catch {
            await reader.close()
            throw error
        }
    }

    /// Prepares the tag in `reader`, runs the operation and checks the tag.
    private func measure(
        _ benchmark: TagBenchmark, on reader: SimulatedReader
    ) async throws(BenchmarkFailure) -> (CommandTally, Double) {
        if let prepare = benchmark.prepare {
            let faults = reader.withField { $0.faults }
            reader.withField { $0.arm(.none) }
            let session = NFCTagReaderSession(reader: reader)
            do {
                try await prepare(try await session.nextTag(timeout: .seconds(5)))
            } catch {
                throw BenchmarkFailure("\(benchmark.id): the preparation failed: \(error)")
            }
            await session.invalidate()
            reader.withField { $0.arm(faults) }
        }
        reader.withField { field in
            field.resetCommandCounts()
            field.isRecordingCommands = true
        }
        let clock = ContinuousClock()
        let start = clock.now
        let session = NFCTagReaderSession(reader: reader)
        do {
            try await benchmark.operation(try await session.nextTag(timeout: .seconds(5)))
        } catch {
            throw BenchmarkFailure("\(benchmark.id): the operation failed: \(error)")
        }
        let elapsed = start.duration(to: clock.now)
        await session.invalidate()
        let field = reader.field
        if let problem = benchmark.verify(field) {
            throw BenchmarkFailure("\(benchmark.id): \(problem)")
        }
        return (CommandTally(field), Statistics.milliseconds(elapsed))
    }
}
