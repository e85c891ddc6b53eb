// Table-driven tests of the CLDR plural categories of integers, with the integer examples of
// CLDR's language plural rules chart for each language.

import XCTest
import Localization

final class PluralRulesTests: XCTestCase {
    /// For each language, each category with CLDR's integer examples for it.
    let examples: [(locales: [SupportedLocale], categories: [PluralCategory: [Int]])] = [
        ([.en, .enXA, .de, .tr], [
            .one: [1],
            .other: [0, 2, 3, 4, 5, 16, 17, 100, 1000, 10000, 100000, 1_000_000],
        ]),
        ([.it, .es, .es419], [
            .one: [1],
            .many: [1_000_000, 2_000_000, 3_000_000],
            .other: [0, 2, 3, 16, 17, 100, 1000, 10000, 100000, 1_000_001],
        ]),
        ([.fr, .ptBR], [
            .one: [0, 1],
            .many: [1_000_000, 2_000_000, 3_000_000],
            .other: [2, 3, 16, 17, 100, 1000, 10000, 100000, 1_000_001],
        ]),
        ([.ja, .ko, .zhHans, .zhHant], [
            .other: [0, 1, 2, 15, 100, 1000, 1_000_000],
        ]),
        ([.ar], [
            .zero: [0],
            .one: [1],
            .two: [2],
            .few: [3, 4, 5, 6, 7, 8, 9, 10, 103, 104, 110, 1003, 1010],
            .many: [11, 12, 26, 99, 111, 199, 1011, 1099],
            .other: [100, 101, 102, 200, 201, 202, 300, 1000, 10000, 100000, 1_000_000],
        ]),
    ]

    func testCLDRExamples() {
        for (locales, categories) in examples {
            for locale in locales {
                for (category, counts) in categories {
                    for count in counts {
                        XCTAssertEqual(PluralRules.category(of: count, in: locale), category, "\(locale.rawValue) \(count)")
                    }
                }
                XCTAssertEqual(PluralRules.categories(for: locale), categories.keys.sorted(), locale.rawValue)
            }
        }
        XCTAssertEqual(Set(examples.flatMap(\.locales)), Set(SupportedLocale.allCases), "every locale has examples")
    }

    func testNegativeCountsTakeTheirMagnitudesCategory() {
        XCTAssertEqual(PluralRules.category(of: -1, in: .en), .one)
        XCTAssertEqual(PluralRules.category(of: -3, in: .ar), .few)
        XCTAssertEqual(PluralRules.category(of: Int.min, in: .ar), .few, "Int.min has no Int magnitude, and must not trap")
    }

    func testEveryCountReachesOnlyListedCategories() {
        for locale in SupportedLocale.allCases {
            let listed = Set(PluralRules.categories(for: locale))
            let reached = Set((Array(0..<2000) + [1_000_000, 2_000_000]).map { PluralRules.category(of: $0, in: locale) })
            XCTAssertEqual(reached, listed, locale.rawValue)
        }
    }
}
