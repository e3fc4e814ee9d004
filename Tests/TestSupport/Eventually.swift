/// Checks `condition` every `interval` until it holds, at most `timeout`; whether it held.
///
/// The condition is checked once more after the time is up, so the answer "it did not hold"
/// always means "it did not hold when we last looked", never "we were not scheduled to look".
/// Waits with `Task.sleep`, never blocking a thread.
public func eventually(
    within timeout: Duration = .seconds(60), every interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async rethrows -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
        if try await condition() { return true }
        do { try await Task.sleep(for: interval) } catch { break }
    }
    return try await condition()
}
