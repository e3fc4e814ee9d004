/// The time passed on a clock since a start, for code that is handed its clock as
/// `any Clock<Duration>` (a test passes one whose sleeps take no time).
package struct ElapsedTime: Sendable {
    private let read: @Sendable () -> Duration

    /// Starts counting now, on `clock`.
    package init(on clock: any Clock<Duration>) {
        read = Self.reader(clock)
    }

    /// The time passed since the start.
    package var duration: Duration { read() }

    private static func reader<C: Clock<Duration>>(_ clock: C) -> @Sendable () -> Duration {
        let start = clock.now
        return { start.duration(to: clock.now) }
    }
}
