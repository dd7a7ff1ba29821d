import Foundation
import Similarity

/// Tells whether two calls of one tool ask the same thing, from their captured argument text,
/// comparing the arguments field by field. Without captured text, `ArgumentSketch` applies the
/// same rule to the terms recorded in place of the text.
///
/// The rule (documented in `docs/trace-report.md#near-duplicate-arguments`):
///
/// 1. The arguments are flattened into fields (`filter.city`, `tags[0]`); text that is not JSON
///    is one field. Fields equal after trimming, lowercasing and folding white space agree.
/// 2. A field that holds an **entity** in either call and differs makes the calls distinct,
///    however much else they share: a number (a page, an offset, an id, a count), a value shaped
///    like an identifier (one token with a digit, `@`, `/`, `:`, `.`, `_` or `-` inside, or with
///    capitals after its first letter: dates, ids, paths, URLs, codes), or any value of a field
///    whose name says it holds one (`id`, `*_id`, `page`, `offset`, `cursor`, `city`, `name`,
///    `date`, ... see `ArgumentText.entityFieldNames`). So a fan-out over cities and the pages 1, 2, 3 of one
///    query are distinct calls.
/// 3. Other text is compared by its content words (letters and digits, lowercased, English stop
///    words left out, a plural `s` dropped). The words that only one side has must not include an
///    entity: a word with a digit, or a capitalized word that does not start the text (`Paris` in
///    `weather in Paris`). Then the text agrees when the share of the smaller side's words found
///    in the other, `|A ∩ B| / min(|A|, |B|)`, reaches the threshold (0.8): `launch` and
///    `launch prep` (1.0) agree, `notes about the launch` and `notes about the lunch` (0.67) do not.
/// 4. A text field present on one side only is an added filter or modifier and does not make the
///    calls distinct (`region: "EMEA"` added to the same query), unless it pages through results
///    (`page`, `cursor`, `offset`, ... see `ArgumentText.paginationFieldNames`). A number present on
///    one side only does (`p: 2` is another page).
/// 5. Booleans and nulls never decide: a retry with a flag flipped still asks the same thing.
/// 6. A value redacted at record time (`[REDACTED:email]`) hides what it was, so it counts as an
///    entity that differs: two calls to different addresses are not near-duplicates because both
///    addresses read as the same marker.
///
/// Calls whose every field agrees (rules 1-5) are near-duplicates; their similarity is the least
/// share of rule 3 over the text fields that differ (1 when only modifiers differ).
enum ArgumentComparison {
    /// How two argument texts relate.
    enum Relation: Sendable, Hashable {
        /// Every field equal after normalization.
        case identical
        /// The same ask, rephrased: no entity differs and the text fields that differ are similar.
        case nearDuplicate(similarity: Double)
        /// Different asks; `field` is the first field (by name) that makes them so.
        case distinct(field: String)
    }

    /// Compares two argument texts; `threshold` is the least word share of rule 3.
    static func compare(_ first: String, _ second: String, threshold: Double = 0.8) -> Relation {
        compare(ArgumentText.Fields(first), ArgumentText.Fields(second), threshold: threshold)
    }

    /// Compares two argument texts already split into fields, as an analysis that compares each
    /// call with many others does.
    static func compare(_ left: ArgumentText.Fields, _ right: ArgumentText.Fields, threshold: Double) -> Relation {
        var similarity = 1.0
        var differs = false
        let paths = left.paths == right.paths ? left.paths : Array(Set(left.paths + right.paths)).sorted()
        for path in paths {
            let (a, b) = (left.values[path], right.values[path])
            if case .text(let text)? = a, text.isRedacted { return .distinct(field: path) }
            if case .text(let text)? = b, text.isRedacted { return .distinct(field: path) }
            if a == b { continue }
            differs = true
            switch judge(field: path, a, b, threshold: threshold) {
            case .agrees(let score): similarity = min(similarity, score)
            case .differs: return .distinct(field: path)
            }
        }
        return differs ? .nearDuplicate(similarity: similarity) : .identical
    }

    // MARK: - Judging one field

    enum Verdict { case agrees(Double), differs }

    private static func judge(field path: String, _ a: ArgumentText.Value?, _ b: ArgumentText.Value?, threshold: Double) -> Verdict {
        switch (a, b) {
        case (.text(let x)?, .text(let y)?):
            if ArgumentText.isEntityField(path) || x.looksLikeIdentifier || y.looksLikeIdentifier { return .differs }
            return compareText(x, y, threshold: threshold)
        case (.number?, _), (_, .number?):
            return .differs
        case (.text?, _), (_, .text?):
            // Text one side lacks: an added filter or modifier, unless it pages through results.
            return ArgumentText.isPaginationField(path) ? .differs : .agrees(1)
        default:
            return .agrees(1)
        }
    }

    /// Rule 3: content words, no entity among the words one side lacks, and enough shared.
    private static func compareText(_ x: ArgumentText.Text, _ y: ArgumentText.Text, threshold: Double) -> Verdict {
        let onlyOneSide = x.content.symmetricDifference(y.content)
        guard !onlyOneSide.isEmpty else { return .agrees(1) }
        for words in [x.words, y.words] {
            for word in words where word.isEntity && onlyOneSide.contains(word.content) { return .differs }
        }
        guard !x.content.isEmpty, !y.content.isEmpty else {
            return x.content == y.content ? .agrees(1) : .differs
        }
        let share =
            Double(x.content.intersection(y.content).count) / Double(min(x.content.count, y.content.count))
        return share >= threshold ? .agrees(share) : .differs
    }
}
