import TestSupport
import TextCore
import XCTest

final class ShardedDictionaryTests: XCTestCase {
    /// Seeded random operations applied to a `ShardedDictionary` and a `Dictionary` side by side:
    /// after each, the two hold the same entries, and a copy taken earlier is untouched.
    func testBehavesAsADictionaryAndCopiesStayApart() {
        var random = SeededGenerator(state: 7)
        var sharded = ShardedDictionary<String, Int>()
        var plain: [String: Int] = [:]
        var snapshots: [(ShardedDictionary<String, Int>, [String: Int])] = []
        for step in 0..<20_000 {
            let key = "note-\(random.next() % 3_000).md"
            switch random.next() % 6 {
            case 0, 1:
                let value = Int(random.next() % 1_000)
                XCTAssertEqual(sharded.updateValue(value, forKey: key), plain.updateValue(value, forKey: key))
            case 2:
                XCTAssertEqual(sharded.removeValue(forKey: key), plain.removeValue(forKey: key))
            case 3:
                sharded[key] = nil
                plain[key] = nil
            case 4:
                sharded[key, default: 0] += 1
                plain[key, default: 0] += 1
            default:
                XCTAssertEqual(sharded[key], plain[key])
            }
            XCTAssertEqual(sharded.count, plain.count)
            if step % 2_000 == 0 { snapshots.append((sharded, plain)) }
        }
        XCTAssertEqual(Dictionary(uniqueKeysWithValues: sharded.map { ($0.key, $0.value) }), plain)
        XCTAssertEqual(Set(sharded.keys), Set(plain.keys))
        XCTAssertEqual(sharded.values.sorted(), plain.values.sorted())
        XCTAssertEqual(sharded.parts.reduce(0) { $0 + $1.count }, plain.count)
        for (copy, expected) in snapshots {
            XCTAssertEqual(copy.count, expected.count)
            XCTAssertEqual(Dictionary(uniqueKeysWithValues: copy.map { ($0.key, $0.value) }), expected)
        }
    }

    func testEqualityIgnoresTheOrderOfInsertion() {
        var first = ShardedDictionary<String, Int>()
        var second: ShardedDictionary<String, Int> = ["c": 3]
        for (key, value) in [("a", 1), ("b", 2), ("c", 3)] { first[key] = value }
        second["b"] = 2
        second["a"] = 1
        XCTAssertEqual(first, second)
        second["a"] = 9
        XCTAssertNotEqual(first, second)
        second.reserveCapacity(10_000)
        XCTAssertEqual(second.count, 3)
        XCTAssertTrue(ShardedDictionary<String, Int>().isEmpty)
    }
}
