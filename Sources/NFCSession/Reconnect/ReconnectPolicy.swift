/// How ``ReconnectingReader`` tries to get a reader back: exponential backoff between attempts,
/// within a number of attempts and a time limit.
public struct ReconnectPolicy: Sendable, Hashable {
    /// Whether the reader reconnects at all; false passes every failure to the caller as it is.
    public var isEnabled: Bool
    /// The pause after the first failed attempt.
    public var initialDelay: Duration
    /// The longest pause: each failed attempt doubles the pause up to this.
    public var maximumDelay: Duration
    /// The most attempts (nil: as many as fit in ``timeout``).
    public var maximumAttempts: Int?
    /// How long to keep trying.
    public var timeout: Duration

    /// Creates a policy; the defaults retry after 0.1 s, 0.2 s, 0.4 s ... up to 2 s between
    /// attempts, for 30 seconds.
    public init(
        isEnabled: Bool = true,
        initialDelay: Duration = .milliseconds(100),
        maximumDelay: Duration = .seconds(2),
        maximumAttempts: Int? = nil,
        timeout: Duration = .seconds(30)
    ) {
        self.isEnabled = isEnabled
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
        self.timeout = timeout
    }

    /// No reconnecting: the caller handles disconnects.
    public static let disabled = ReconnectPolicy(isEnabled: false)

    /// The pause after `failedAttempts` failed attempts (1 or more).
    public func delay(afterFailedAttempts failedAttempts: Int) -> Duration {
        var delay = max(.zero, initialDelay)
        var count = 1
        while count < failedAttempts, delay < maximumDelay {
            delay *= 2
            count += 1
        }
        return min(delay, max(.zero, maximumDelay))
    }
}
