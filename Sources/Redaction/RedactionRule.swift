import Foundation

/// One thing a ``Redactor`` looks for and the kind it reports: `[REDACTED:<kind>]`.
///
/// Built-in rules are hand-written byte scanners run together in one pass; filter
/// ``builtIn`` to turn some off. Custom rules are regular expressions, optionally gated by
/// trigger substrings (the expression runs only on text that contains one) and a validator.
///
/// ```swift
/// let rules = RedactionRule.builtIn.filter { $0.kind != .phone }
///     + [try RedactionRule(kind: "ticket", pattern: #"TCK-[0-9]{6}"#, triggers: ["TCK-"])]
/// let redactor = Redactor(rules: rules)
/// ```
public struct RedactionRule: Sendable, CustomStringConvertible {
    /// The kind in `[REDACTED:<kind>]` and in counts. Rules that find secret-named fields report
    /// a kind per field (`password`, `token`, `cookie`, `signature`...); their `kind` is `secret`.
    public let kind: RedactionKind
    /// Where the rule comes from: `builtin` or `<file>:<line>` or `custom`.
    public let name: String
    /// The validator a pattern match must pass, if any.
    public let validator: RedactionValidator?
    let matcher: Matcher

    enum Matcher: Sendable {
        case builtIn(BuiltInDetector)
        case pattern(PatternMatcher)
    }

    /// The regular expression of a custom rule; nil for built-in rules.
    public var pattern: String? {
        if case .pattern(let matcher) = matcher { return matcher.regex.pattern }
        return nil
    }

    public var isBuiltIn: Bool {
        if case .builtIn = matcher { return true }
        return false
    }

    public var description: String {
        if let pattern { return "\(kind)\t\(pattern) (\(name))" }
        return "\(kind) (\(name))"
    }

    init(kind: RedactionKind, detector: BuiltInDetector) {
        self.kind = kind
        self.name = "builtin"
        self.validator = nil
        self.matcher = .builtIn(detector)
    }

    /// A custom rule: matches of `pattern` (NSRegularExpression syntax) are redacted as `kind`.
    ///
    /// - Parameters:
    ///   - pattern: when it has a capture group, only group 1 is replaced, so
    ///     `session=([A-Za-z0-9]+)` keeps `session=`.
    ///   - triggers: literal substrings; when given, the expression runs only on text containing
    ///     one of them, which keeps a custom rule nearly free on text it cannot match.
    ///   - validator: a check each match must pass (``RedactionValidator/luhn`` and so on).
    /// - Throws: ``RuleError/invalidKind(_:)`` or ``RuleError/invalidPattern(_:reason:)``.
    public init(
        kind: String, pattern: String, triggers: [String] = [], validator: RedactionValidator? = nil,
        name: String = "custom"
    ) throws {
        guard Self.isValidKind(kind) else { throw RuleError.invalidKind(kind) }
        let regex: NSRegularExpression
        do {
            regex = try NSRegularExpression(pattern: pattern)
        } catch {
            throw RuleError.invalidPattern(pattern, reason: "it is not a valid regular expression")
        }
        if let refusal = PatternSafety.refusal(of: pattern) {
            throw RuleError.invalidPattern(pattern, reason: refusal)
        }
        self.kind = RedactionKind(rawValue: kind)
        self.name = name
        self.validator = validator
        let triggerBytes = triggers.filter { !$0.isEmpty }.map { Array($0.utf8) }
        self.matcher = .pattern(PatternMatcher(regex: regex, triggers: triggerBytes))
    }

    /// Kinds are lowercase snake case: they appear in `[REDACTED:<kind>]` and in reports.
    static func isValidKind(_ kind: String) -> Bool {
        !kind.isEmpty && kind.utf8.count <= 64
            && kind.utf8.allSatisfy { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// Errors building or loading rules; each says which rule was wrong.
    public enum RuleError: Error, Equatable, CustomStringConvertible {
        case invalidKind(String)
        case invalidPattern(String, reason: String)
        /// The rules file could not be read.
        case unreadableFile(path: String, reason: String)
        /// Line `line` (1-based) of the rules file is not a valid rule.
        case invalidLine(path: String, line: Int, reason: String)

        public var description: String {
            switch self {
            case .invalidKind(let kind):
                "invalid kind '\(kind)': use lowercase letters, digits and _"
            case .invalidPattern(let pattern, let reason):
                "invalid pattern '\(pattern)': \(reason)"
            case .unreadableFile(let path, let reason):
                "cannot read rules file \(path): \(reason)"
            case .invalidLine(let path, let line, let reason):
                "\(path):\(line): \(reason)"
            }
        }
    }

    /// The built-in rules: every kind the byte scanners report. They run together in one pass,
    /// so their order here does not matter; a custom rule loses to a built-in finding that starts
    /// at the same place.
    public static let builtIn: [RedactionRule] = {
        var rules: [RedactionRule] = [
            RedactionRule(kind: .privateKey, detector: .privateKey),
            RedactionRule(kind: .secret, detector: .secretFields),
            RedactionRule(kind: .urlCredential, detector: .urlCredential),
        ]
        rules += TokenFormat.kinds.map { RedactionRule(kind: $0, detector: .token) }
        rules += [
            RedactionRule(kind: .jwt, detector: .jwt),
            RedactionRule(kind: .bearerToken, detector: .bearer),
            RedactionRule(kind: .basicAuth, detector: .basicAuth),
            RedactionRule(kind: .slackWebhook, detector: .slackWebhook),
            RedactionRule(kind: .discordWebhook, detector: .discordWebhook),
            RedactionRule(kind: .email, detector: .email),
            RedactionRule(kind: .ssn, detector: .ssn),
            RedactionRule(kind: .phone, detector: .phone),
            RedactionRule(kind: .creditCard, detector: .creditCard),
            RedactionRule(kind: .iban, detector: .iban),
        ]
        return rules
    }()
}

/// The built-in scanners a rule can switch on.
enum BuiltInDetector: Sendable {
    case token, jwt, bearer, basicAuth, privateKey, urlCredential, secretFields, email, phone
    case creditCard, iban, ssn, slackWebhook, discordWebhook
}

/// A compiled custom pattern.
// NSRegularExpression is immutable after creation and documented as safe to use from several
// threads at once, which is what @unchecked Sendable asserts here.
final class PatternMatcher: @unchecked Sendable {
    let regex: NSRegularExpression
    let triggers: [[UInt8]]

    init(regex: NSRegularExpression, triggers: [[UInt8]]) {
        self.regex = regex
        self.triggers = triggers
    }

    /// Whether the rule can match `b` at all: true without triggers.
    func isTriggered(by b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !triggers.isEmpty else { return true }
        return triggers.contains { trigger in
            guard let first = trigger.first, trigger.count <= b.count else { return false }
            var i = 0
            let last = b.count - trigger.count
            while i <= last {
                if b[i] == first {
                    var k = 1
                    while k < trigger.count && b[i + k] == trigger[k] { k += 1 }
                    if k == trigger.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// UTF-8 offset ranges of the matches (group 1 when the pattern has one) in `text`.
    func findings(in text: String, kind: RedactionKind, validator: RedactionValidator?) -> [Finding] {
        let whole = NSRange(text.startIndex..<text.endIndex, in: text)
        var found: [Finding] = []
        let useGroup = regex.numberOfCaptureGroups >= 1
        for match in regex.matches(in: text, range: whole) {
            var nsRange = match.range
            if useGroup {
                let group = match.range(at: 1)
                guard group.location != NSNotFound else { continue }
                nsRange = group
            }
            guard nsRange.length > 0, let range = Range(nsRange, in: text) else { continue }
            if let validator, !validator.check(text[range]) { continue }
            let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
            let length = text.utf8.distance(from: range.lowerBound, to: range.upperBound)
            found.append(Finding(start: start, end: start + length, kind: kind))
        }
        return found
    }
}

/// A check a custom rule's match must pass before it is redacted.
public struct RedactionValidator: Sendable {
    /// The name used in rules files (`luhn`, `iban`, `ssn`).
    public let name: String
    let check: @Sendable (Substring) -> Bool

    public init(name: String, _ check: @escaping @Sendable (Substring) -> Bool) {
        self.name = name
        self.check = check
    }

    /// Card numbers: 13–19 digits (spaces and dashes ignored), a known issuer prefix, Luhn.
    public static let luhn = RedactionValidator(name: "luhn") { RedactionChecks.isCardNumber($0) }
    /// IBANs: the country's length and ISO 7064 mod 97.
    public static let iban = RedactionValidator(name: "iban") { RedactionChecks.isIBAN($0) }
    /// US SSNs outside the never-issued ranges.
    public static let ssn = RedactionValidator(name: "ssn") { RedactionChecks.isSSN($0) }
    /// Random-looking values (Shannon entropy of at least 3.5 bits per character, 16+ characters).
    public static let entropy = RedactionValidator(name: "entropy") { text in
        var text = String(text)
        return text.withUTF8 { SecretFields.looksRandom($0, 0..<$0.count, threshold: 3.5, minimumLength: 16) }
    }

    /// The validators a rules file can name.
    public static let named: [String: RedactionValidator] = [
        "luhn": .luhn, "iban": .iban, "ssn": .ssn, "entropy": .entropy,
    ]
}
