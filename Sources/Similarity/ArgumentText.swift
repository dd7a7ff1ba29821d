import Foundation

/// How tool-call arguments are read for comparison: flattened into fields, with the rules that
/// say which values name an **entity** (a value that makes two calls different asks) and which
/// words of free text are content. Shared by the near-duplicate rule that reads captured text
/// (`ArgumentComparison`, in the analysis) and the sketch recorded without text (``ArgumentSketch``),
/// so both read arguments the same way. The rules are documented in
/// `docs/trace-report.md#near-duplicate-arguments`.
package enum ArgumentText {
    /// Entity fields that page through results: a call that has one and a call that lacks it ask
    /// for different pages, so the field is never an added filter.
    package static let paginationFieldNames: Set<String> = [
        "page", "pagenumber", "offset", "cursor", "after", "before", "skip", "start", "index",
    ]

    /// Whether the last key of `path` is a pagination field (``paginationFieldNames``).
    package static func isPaginationField(_ path: String) -> Bool {
        paginationFieldNames.contains(lastKey(path))
    }

    /// Field names whose values name an entity, compared without the case and the `_`/`-` of the
    /// name; `id`, `ids`, `uuid` and names that end in an id word (`order_id`, `userIds`) count too.
    package static let entityFieldNames: Set<String> = [
        "page", "pagenumber", "offset", "cursor", "after", "before", "skip", "start", "index",
        "city", "country", "location", "place", "address", "region", "zip", "zipcode", "postcode",
        "lat", "latitude", "lon", "lng", "longitude", "name", "user", "username", "email", "account",
        "customer", "url", "uri", "link", "path", "file", "filename", "date", "day", "month", "year",
        "symbol", "ticker", "sku", "code", "order", "ticket", "issue", "repo", "repository", "branch",
        "key",
    ]

    // MARK: - Fields

    /// The leaves of an argument text by path, each prepared for comparison; text that is not
    /// JSON is one field named "".
    package struct Fields {
        package var values: [String: Value] = [:]
        /// The field names, sorted.
        package private(set) var paths: [String] = []

        package init(_ text: String) {
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
    package enum Value: Hashable {
        case text(Text)
        case number(String)
        case flag(Bool)
        case null
    }

    /// A string argument, with its content words worked out once.
    package struct Text: Hashable {
        /// Trimmed, lowercased, inner white space folded: equal texts ask the same.
        package var normalized: String
        package var looksLikeIdentifier: Bool
        /// Redacted at record time: the marker hides the value, so equal markers are not equal values.
        package var isRedacted: Bool
        package var words: [Word]
        package var content: Set<String>

        package init(_ raw: String) {
            normalized = ArgumentText.normalized(raw)
            looksLikeIdentifier = ArgumentText.looksLikeIdentifier(raw)
            isRedacted = raw.contains("[REDACTED:")
            words = ArgumentText.words(raw)
            content = Set(words.map(\.content))
        }

        package static func == (lhs: Text, rhs: Text) -> Bool { lhs.normalized == rhs.normalized }
        package func hash(into hasher: inout Hasher) { hasher.combine(normalized) }
    }

    /// A word of free text: its comparable form, and whether it reads as an entity.
    package struct Word: Hashable {
        package var content: String
        package var isEntity: Bool
    }

    /// The content words of `text`, in order; stop words left out.
    package static func words(_ text: String) -> [Word] {
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
    package static func looksLikeIdentifier(_ value: String) -> Bool {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.contains(where: \.isWhitespace) else { return false }
        if trimmed.contains(where: \.isNumber) { return true }
        if trimmed.dropFirst().dropLast().contains(where: { "@/:._-#".contains($0) }) { return true }
        return trimmed.dropFirst().contains(where: \.isUppercase)
    }

    package static func isEntityField(_ path: String) -> Bool {
        let key = lastKeyAsWritten(path)
        let name = lastKey(path)
        if ["id", "ids", "uuid"].contains(name) { return true }
        // `order_id`, `order-ids`, `orderId`, `userIDs`: a word ending in an id.
        for suffix in ["_id", "-id", "Id", "ID", "_ids", "-ids", "Ids", "IDs"] where key.hasSuffix(suffix) {
            return true
        }
        return entityFieldNames.contains(name)
    }

    /// The last key of `path`, without array indexes, as written (`userIds` of `filter.userIds[2]`).
    private static func lastKeyAsWritten(_ path: String) -> Substring {
        var key = Substring(path)
        if let dot = key.lastIndex(of: ".") { key = key[key.index(after: dot)...] }
        if let bracket = key.firstIndex(of: "[") { key = key[..<bracket] }
        return key
    }

    /// The last key of `path`, lowercased, without `_` and `-`: how the field-name lists are read.
    private static func lastKey(_ path: String) -> String {
        lastKeyAsWritten(path).lowercased().filter { $0 != "_" && $0 != "-" }
    }

    /// Trimmed, lowercased, inner white space folded to one space: as the argument fingerprint
    /// normalizes strings.
    package static func normalized(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    package static let stopWords: Set<String> = [
        "a", "an", "the", "and", "or", "of", "in", "on", "at", "to", "for", "from", "by", "with", "about",
        "into", "over", "is", "are", "was", "were", "be", "been", "do", "does", "did", "what", "which", "who",
        "whom", "whose", "when", "where", "why", "how", "my", "me", "i", "you", "your", "our", "we", "us",
        "it", "its", "this", "that", "these", "those", "there", "please", "can", "could", "would", "should",
        "will", "all", "any", "some", "say", "says", "tell", "show", "find", "get", "give", "list",
    ]
}
