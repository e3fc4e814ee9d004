/// Hands a job's rows to several readers at once: each row to one reader at a time, never the
/// same row twice unless it is given back, in ascending order.
///
/// Seed it with ``ProvisioningState/pendingRows(includingFailed:)``. Rows bound to a tag
/// (``ProvisioningState/unfinishedRows``) are not dispensed: they wait for their tag.
public actor RowDispenser {
    private var pool: [Int]
    private var inFlight: [String: Set<Int>] = [:]
    private var completed: Set<Int> = []

    /// A dispenser of `rows` (duplicates ignored).
    public init(rows: [Int]) {
        pool = Array(Set(rows)).sorted(by: >)
    }

    /// The next row for `reader`, or nil when none is left.
    public func next(for reader: String) -> Int? {
        guard let row = pool.popLast() else { return nil }
        inFlight[reader, default: []].insert(row)
        return row
    }

    /// Gives `row` back to the pool (its claim released): the next `next(for:)` returns it.
    /// Ignored unless `reader` holds it.
    public func release(_ row: Int, from reader: String) {
        guard inFlight[reader]?.remove(row) != nil else { return }
        pool.append(row)
        pool.sort(by: >)
    }

    /// Records that `reader` finished with `row` (done, failed or bound to a tag): it never
    /// returns to the pool. Ignored unless `reader` holds it.
    public func finish(_ row: Int, by reader: String) {
        guard inFlight[reader]?.remove(row) != nil else { return }
        completed.insert(row)
    }

    /// Gives back every row `reader` holds (its reader went away); returns them.
    @discardableResult
    public func releaseAll(from reader: String) -> [Int] {
        let rows = inFlight.removeValue(forKey: reader) ?? []
        pool += rows
        pool.sort(by: >)
        return rows.sorted()
    }

    /// The rows `reader` holds.
    public func rowsInFlight(for reader: String) -> [Int] { (inFlight[reader] ?? []).sorted() }

    /// Every row held by some reader, by reader.
    public var allInFlight: [String: [Int]] { inFlight.filter { !$0.value.isEmpty }.mapValues { $0.sorted() } }

    /// The number of rows left in the pool.
    public var remaining: Int { pool.count }

    /// The rows finished so far.
    public var finishedRows: [Int] { completed.sorted() }
}
