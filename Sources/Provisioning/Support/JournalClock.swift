import SystemSupport

/// The wall-clock time as journals and reports write it: ISO 8601 / RFC 3339 in UTC with
/// milliseconds, e.g. `2025-03-14T09:26:53.589Z`.
public enum JournalClock {
    /// The current time.
    public static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "1970-01-01T00:00:00.000Z" }
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let millis = Int32(truncatingIfNeeded: spec.tv_nsec / 1_000_000)
        return pad(parts.tm_year + 1900, 4) + "-" + pad(parts.tm_mon + 1, 2) + "-" + pad(parts.tm_mday, 2) + "T"
            + pad(parts.tm_hour, 2) + ":" + pad(parts.tm_min, 2) + ":" + pad(parts.tm_sec, 2) + "." + pad(millis, 3)
            + "Z"
    }
}
