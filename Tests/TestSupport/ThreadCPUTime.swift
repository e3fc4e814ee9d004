import SystemSupport

/// The CPU time the calling thread spends in `body`, which must not suspend (it is synchronous).
///
/// Unlike the wall clock, this does not grow while other threads or processes have the CPU, so
/// the work of two bodies can be compared (a ratio) on a busy machine: the way to test "linear,
/// not quadratic" without a verdict on the machine's speed.
public func threadCPUTime(_ body: () throws -> Void) rethrows -> Duration {
    var start = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
    try body()
    var end = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
    return .seconds(end.tv_sec - start.tv_sec) + .nanoseconds(end.tv_nsec - start.tv_nsec)
}
