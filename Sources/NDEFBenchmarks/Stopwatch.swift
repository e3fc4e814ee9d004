/// Measures throughput: how many times per second a piece of work runs.
///
/// The work is first calibrated to an iteration count that takes at least the run length,
/// then timed over several runs with `ContinuousClock`; the median rate is reported.
struct Stopwatch {
    /// How long each timed run lasts at least.
    var runLength: Duration = .milliseconds(300)
    /// How many timed runs the median is taken over.
    var runs = 5

    /// The median rate, in calls of `work` per second.
    func rate(_ work: () -> Int) -> Double {
        let clock = ContinuousClock()
        var iterations = 1
        while true {
            let elapsed = clock.measure { sink(repeat: iterations, work) }
            if elapsed >= runLength / 4 {
                let scale = seconds(runLength) / seconds(elapsed)
                iterations = max(iterations, Int((Double(iterations) * scale * 1.1).rounded(.up)))
                break
            }
            iterations *= 2
        }
        var rates: [Double] = []
        for _ in 0..<runs {
            var elapsed = clock.measure { sink(repeat: iterations, work) }
            // A run that came out short (a faster CPU phase) is extended, never cut.
            var done = iterations
            while elapsed < runLength {
                elapsed += clock.measure { sink(repeat: iterations, work) }
                done += iterations
            }
            rates.append(Double(done) / seconds(elapsed))
        }
        rates.sort()
        return rates[rates.count / 2]
    }

    private func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// Runs `work` `count` times and keeps its results observable, so the optimizer cannot drop it.
@inline(never)
private func sink(repeat count: Int, _ work: () -> Int) {
    var total = 0
    for _ in 0..<count { total &+= work() }
    blackHole(total)
}

@inline(never)
private func blackHole(_ value: Int) {
    if value == Int.min { print("", terminator: "") }
}
