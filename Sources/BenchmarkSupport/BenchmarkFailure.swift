/// A benchmark that could not run or whose result is wrong.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// A failure saying `description`.
    public init(_ description: String) { self.description = description }
}
