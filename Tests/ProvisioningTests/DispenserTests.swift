import Provisioning
import Testing

@Suite("Row dispenser over several readers")
struct DispenserTests {
    /// 4 readers, 1,000 rows: each row handed out exactly once.
    @Test func concurrentWorkersGetEachRowOnce() async {
        let dispenser = RowDispenser(rows: Array(1...1000))
        let taken = await withTaskGroup(of: [Int].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var rows: [Int] = []
                    var givenBack: Set<Int> = []
                    while let row = await dispenser.next(for: "reader-\(worker)") {
                        // Each worker gives a row divisible by 7 back once, as a reader whose
                        // tag left before writing would.
                        if row % 7 == 0 && givenBack.insert(row).inserted {
                            await dispenser.release(row, from: "reader-\(worker)")
                        } else {
                            rows.append(row)
                            await dispenser.finish(row, by: "reader-\(worker)")
                        }
                    }
                    return rows
                }
            }
            var all: [[Int]] = []
            for await rows in group { all.append(rows) }
            return all
        }
        let flat = taken.flatMap { $0 }
        #expect(flat.count == 1000)
        #expect(Set(flat) == Set(1...1000))
        #expect(await dispenser.remaining == 0)
        #expect(await dispenser.allInFlight.isEmpty)
        #expect(await dispenser.finishedRows.count == 1000)
    }

    @Test func releasedRowsComeBackFirstAndInFlightIsKnown() async {
        let dispenser = RowDispenser(rows: [5, 3, 3, 9])
        #expect(await dispenser.next(for: "a") == 3)
        #expect(await dispenser.next(for: "b") == 5)
        #expect(await dispenser.next(for: "a") == 9)
        #expect(await dispenser.rowsInFlight(for: "a") == [3, 9])
        #expect(await dispenser.next(for: "a") == nil)
        await dispenser.release(5, from: "a")
        #expect(await dispenser.rowsInFlight(for: "b") == [5])
        #expect(await dispenser.releaseAll(from: "a") == [3, 9])
        #expect(await dispenser.next(for: "c") == 3)
        await dispenser.finish(5, by: "b")
        #expect(await dispenser.allInFlight == ["c": [3]])
        #expect(await dispenser.remaining == 1)
    }
}
