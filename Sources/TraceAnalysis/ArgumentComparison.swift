import Foundation

/// Tells whether two calls of one tool ask the same thing, from their captured argument text,
/// comparing the arguments field by field.
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
///    `date`, ... see ``entityFieldNames``). So a fan-out over cities and the pages 1, 2, 3 of one
///    query are distinct calls.
/// 3. Other text is compared by its content words (letters and digits, lowercased, English stop
///    words left out, a plural `s` dropped). The words that only one side has must not include an
///    entity: a word with a digit, or a capitalized word that does not start the text (`Paris` in
///    `weather in Paris`). Then the text agrees when the share of the smaller side's words found
///    in the other, `|A ∩ B| / min(|A|, |B|)`, reaches the threshold (0.8): `launch` and
///    `launch prep` (1.0) agree, `notes about the launch` and `notes about the lunch` (0.67) do not.
/// 4. A field present on one side only is an entity (by rule 2) and makes the calls distinct, or
///    else is an added modifier that does not.
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

    /// Field names whose values name an entity, compared without the case and the `_`/`-` of the
    /// name; `id`, `ids`, `uuid` and names that end in an id word (`order_id`, `userIds`) count too.
    static let entityFieldNames: Set<String> = [
        "page", "pagenumber", "offset", "cursor", "after", "before", "skip", "start", "index",
        "city", "country", "location", "place", "address", "region", "zip", "zipcode", "postcode",
        "lat", "latitude", "lon", "lng", "longitude", "name", "user", "username", "email", "account",
        "customer", "url", "uri", "link", "path", "file", "filename", "date", "day", "month", "year",
        "symbol", "ticker", "sku", "code", "order", "ticket", "issue", "repo", "repository", "branch",
        "key",
    ]

    /// Compares two argument texts; `threshold` is the least word share of rule 3.
    static func compare(_ first: String, _ second: String, threshold: Double = 0.8) -> Relation {
        compare(Fields(first), Fields(second), threshold: threshold)
    }

    /// Compares two argument texts already split into fields, as an analysis that compares each
    /// call with many others does.
    static func compare(_ left: Fields, _ right: Fields, threshold: Double) -> Relation {
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

    // MARK: - Fields

    /// The leaves of an argument text by path, each prepared for comparison; text that is not
    /// JSON is one field named "".
    struct Fields {
        var values: [String: Value] = [:]
        /// The field names, sorted.
        private(set) var paths: [String] = []

        init(_ text: String) {
            guard
                let object = try? JSONSerialization.jsonObject(
                    with: Data(text.utf8), options: [.fragmentsAllowed])
            else {
                values[""] = .text(Text(text))
                paths = [""]
                return
            }
            flatten(object, path: "")
            paths = values.keys.sorted()
        }

        private static let booleanType = type(of: NSNumber(value: true))

        private mutating func flatten(_ object: Any, path: String) {
            switch object {
            case let dictionary as [String: Any]:
                for (key, value) in dictionary { flatten(value, path: path.isEmpty ? key : path + "." + key) }
            case let array as [Any]:
                for (index, value) in array.enumerated() { flatten(value, path: path + "[\(index)]") }
            case let string as String:
                values[path] = .text(Text(string))
            case let number as NSNumber:
                values[path] =
                    type(of: number) == Self.booleanType
                    ? .flag(number.boolValue) : .number(number.stringValue)
            default:
                values[path] = .null
            }
        }
    }

    /// One leaf of the arguments.
    enum Value: Hashable {
        case text(Text)
        case number(String)
        case flag(Bool)
        case null
    }

    /// A string argument, with its content words worked out once.
    struct Text: Hashable {
        /// Trimmed, lowercased, inner white space folded: equal texts ask the same.
        var normalized: String
        var looksLikeIdentifier: Bool
        /// Redacted at record time: the marker hides the value, so equal markers are not equal values.
        var isRedacted: Bool
        var words: [Word]
        var content: Set<String>

        init(_ raw: String) {
            normalized = ArgumentComparison.normalized(raw)
            looksLikeIdentifier = ArgumentComparison.looksLikeIdentifier(raw)
            isRedacted = raw.contains("[REDACTED:")
            words = ArgumentComparison.words(raw)
            content = Set(words.map(\.content))
        }

        static func == (lhs: Text, rhs: Text) -> Bool { lhs.normalized == rhs.normalized }
        func hash(into hasher: inout Hasher) { hasher.combine(normalized) }
    }

    // MARK: - Judging one field

    enum Verdict { case agrees(Double), differs }

    private static func judge(field path: String, _ a: Value?, _ b: Value?, threshold: Double) -> Verdict {
        switch (a, b) {
        case (.text(let x)?, .text(let y)?):
            if isEntityField(path) || x.looksLikeIdentifier || y.looksLikeIdentifier { return .differs }
            return compareText(x, y, threshold: threshold)
        case (.number?, _), (_, .number?):
            return .differs
        case (.text(let x)?, _), (_, .text(let x)?):
            return isEntityField(path) || x.looksLikeIdentifier ? .differs : .agrees(1)
        default:
            return .agrees(1)
        }
    }

    /// Rule 3: content words, no entity among the words one side lacks, and enough shared.
    private static func compareText(_ x: Text, _ y: Text, threshold: Double) -> Verdict {
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

    /// A word of free text: its comparable form, and whether it reads as an entity.
    struct Word: Hashable {
        var content: String
        var isEntity: Bool
    }

    /// The content words of `text`, in order; stop words left out.
    static func words(_ text: String) -> [Word] {
        var out: [Word] = []
        for (position, token) in tokens(text).enumerated() {
            let lower = token.lowercased()
            if stopWords.contains(lower) { continue }
            let hasDigit = token.contains(where: \.isNumber)
            let capitals = token.filter(\.isUppercase).count
            let properNoun = position > 0 && token.first?.isUppercase == true
            let isEntity = hasDigit || properNoun || (capitals > 1 && token.count > 1)
            out.append(Word(content: stem(lower), isEntity: isEntity))
        }
        return out
    }

    private static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var token = ""
        for character in text {
            if character.isLetter || character.isNumber {
                token.append(character)
            } else if !token.isEmpty {
                tokens.append(token)
                token = ""
            }
        }
        if !token.isEmpty { tokens.append(token) }
        return tokens
    }

    /// A plural `s` dropped, so `task` and `tasks` agree.
    private static func stem(_ word: String) -> String {
        guard word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") else { return word }
        return String(word.dropLast())
    }

    /// One token (no white space) shaped like an identifier: a digit, a separator inside, or
    /// capitals after the first letter (`ORD-1234`, `2026-06-02`, `a@b.c`, `src/x`, `camelCase`).
    static func looksLikeIdentifier(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isWhitespace) else { return false }
        if trimmed.contains(where: \.isNumber) { return true }
        if trimmed.dropFirst().dropLast().contains(where: { "@/:._-#".contains($0) }) { return true }
        return trimmed.dropFirst().contains(where: \.isUppercase)
    }

    static func isEntityField(_ path: String) -> Bool {
        // The last key of the path, without array indexes.
        var key = Substring(path)
        if let dot = key.lastIndex(of: ".") { key = key[key.index(after: dot)...] }
        if let bracket = key.firstIndex(of: "[") { key = key[..<bracket] }
        let name = key.lowercased().filter { $0 != "_" && $0 != "-" }
        if ["id", "ids", "uuid"].contains(name) { return true }
        // `order_id`, `order-ids`, `orderId`, `userIDs`: a word ending in an id.
        for suffix in ["_id", "-id", "Id", "ID", "_ids", "-ids", "Ids", "IDs"] where key.hasSuffix(suffix) {
            return true
        }
        return entityFieldNames.contains(name)
    }

    /// Trimmed, lowercased, inner white space folded to one space: as the argument fingerprint
    /// normalizes strings.
    static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "from", "by", "with", "about",
        "into", "over", "is", "are", "was", "were", "be", "been", "do", "does", "did", "what", "which", "who",
        "whom", "whose", "when", "where", "why", "how", "my", "me", "i", "you", "your", "our", "we", "us",
        "it", "its", "this", "that", "these", "those", "there", "please", "can", "could", "would", "should",
        "will", "all", "any", "some", "say", "says", "tell", "show", "find", "get", "give", "list",
    ]
}
