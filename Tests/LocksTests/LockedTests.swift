import Dispatch
import Locks
import XCTest

final class LockedTests: XCTestCase {
    /// Increments from many threads at once all count: the lock serializes them.
    func testConcurrentUpdatesAreNotLost() {
        let counter = Locked(0)
        let order = Lock()
        let log = Locked<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
            order.withLock { log.withLock { $0.append(worker) } }
        }
        XCTAssertEqual(counter.withLock { $0 }, 80_000)
        XCTAssertEqual(log.withLock { $0.sorted() }, Array(0..<8))
    }

    func testWithLockReturnsAndRethrows() {
        struct Refused: Error {}
        let value = Locked("a")
        XCTAssertEqual(value.withLock { text -> Int in text += "b"; return text.count }, 2)
        XCTAssertThrowsError(try value.withLock { (_: inout String) throws(Refused) -> Int in throw Refused() })
        XCTAssertEqual(value.withLock { $0 }, "ab")
    }
}
