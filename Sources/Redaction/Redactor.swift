/// Finds secrets and personal data in text, JSON and JSON Lines and replaces them with
/// `[REDACTED:<kind>]`.
///
/// Payloads are redacted before they are recorded and every export is redacted again, so this
/// runs over everything a trace holds: the built-in rules are byte scanners run in one pass,
/// and custom regular-expression rules run only when their trigger substrings occur.
///
/// ```swift
/// let result = Redactor.standard.redact("key sk-proj-4f9Xc2... for ana@example.org")
/// result.text    // "key [REDACTED:openai_key] for [REDACTED:email]"
/// result.counts  // ["openai_key": 1, "email": 1]
/// ```
public struct Redactor: Sendable {
    /// Settings of the field-name rules.
    public struct Options: Sendable, Equatable {
        /// The Shannon entropy, in bits per character, at or above which a value in a field whose
        /// name only hints at a secret (`key`, `auth`, `hmac`, `salt`, `nonce`) is redacted.
        /// Random base62 reaches about 4 bits per character at 16 characters and 5 at 40;
        /// English words and identifiers stay near or below 3.3. Hex-only values (hashes, UUIDs)
        /// are never redacted by entropy.
        public var entropyThreshold: Double
        /// The shortest value the entropy rule considers.
        public var entropyMinimumLength: Int
        /// More field names that always hold secrets, compared with letters and digits only, in
        /// lowercase: `"pin"` covers `PIN`, `pin` and `p-i-n`.
        public var secretFieldNames: Set<String>

        public init(entropyThreshold: Double = 3.5, entropyMinimumLength: Int = 16,
                    secretFieldNames: Set<String> = []) {
            self.entropyThreshold = entropyThreshold
            self.entropyMinimumLength = entropyMinimumLength
            self.secretFieldNames = secretFieldNames
        }
    }

    public let rules: [RedactionRule]
    public let options: Options
    let config: BuiltInConfig
    let custom: [(matcher: PatternMatcher, kind: RedactionKind, validator: RedactionValidator?)]

    public init(rules: [RedactionRule] = RedactionRule.builtIn, options: Options = Options()) {
        self.rules = rules
        self.options = options
        var config = BuiltInConfig()
        var tokenKinds = Set<RedactionKind>()
        var custom: [(PatternMatcher, RedactionKind, RedactionValidator?)] = []
        for rule in rules {
            switch rule.matcher {
            case .pattern(let matcher):
                custom.append((matcher, rule.kind, rule.validator))
            case .builtIn(let detector):
                switch detector {
                case .token: tokenKinds.insert(rule.kind)
                case .jwt: config.jwt = true
                case .bearer: config.bearer = true
                case .basicAuth: config.basicAuth = true
                case .privateKey: config.privateKey = true
                case .urlCredential: config.urlCredential = true
                case .secretFields: config.fields = true
                case .email: config.email = true
                case .phone: config.phone = true
                case .creditCard: config.creditCard = true
                case .iban: config.iban = true
                case .ssn: config.ssn = true
                case .slackWebhook: config.slackWebhook = true
                case .discordWebhook: config.discordWebhook = true
                }
            }
        }
        config.tokens = TokenFormat.table(for: tokenKinds)
        config.tokenKinds = tokenKinds
        config.entropyThreshold = options.entropyThreshold
        config.entropyMinimumLength = options.entropyMinimumLength
        config.extraSecretNames = Set(options.secretFieldNames.map { name in
            String(decoding: name.utf8.filter(isAlnum).map(lower), as: UTF8.self)
        })
        self.config = config
        self.custom = custom
    }

    /// The built-in rules with default options.
    public static let standard = Redactor()

    /// Redacts free text: prose, logs, headers, URLs, `key=value` and JSON-looking text alike.
    public func redact(_ text: String) -> RedactionResult {
        var counts: [RedactionKind: Int] = [:]
        let redacted = redact(text, counts: &counts)
        return RedactionResult(text: redacted, counts: counts)
    }

    /// Redacts a JSON document inside string values only, so the result is valid JSON with the
    /// same keys, numbers and layout. A string under a secret-named key (`password`,
    /// `client_secret`, `api_key`...) is replaced whole; other strings are scanned as text
    /// (including JSON nested in strings). A number under a secret-named key, or one that is a
    /// valid card number, becomes a marker string (`"[REDACTED:credit_card]"`): still valid JSON,
    /// and no secret survives for being typed as a number. Text that is not JSON is redacted as
    /// text.
    public func redactJSON(_ json: String) -> RedactionResult {
        var counts: [RedactionKind: Int] = [:]
        var input = json
        let output: [UInt8]? = input.withUTF8 { redactDocument($0, counts: &counts) }
        guard let output else { return RedactionResult(text: json) }
        return RedactionResult(text: String(decoding: output, as: UTF8.self), counts: counts)
    }

    /// Redacts JSON Lines: each line as a JSON document (a line that is not JSON is redacted as
    /// text). Line breaks, including `\r\n`, are kept.
    public func redactJSONLines(_ text: String) -> RedactionResult {
        var counts: [RedactionKind: Int] = [:]
        var input = text
        let output: [UInt8]? = input.withUTF8 { b in
            var out: [UInt8] = []
            var copiedUpTo = 0
            var lineStart = 0
            while lineStart < b.count {
                var lineEnd = lineStart
                while lineEnd < b.count && b[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                let line = UnsafeBufferPointer(rebasing: b[lineStart..<lineEnd])
                if !line.allSatisfy(isSpace), let redacted = redactDocument(line, counts: &counts) {
                    if out.isEmpty { out.reserveCapacity(b.count + 1024) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[copiedUpTo..<lineStart]))
                    out.append(contentsOf: redacted)
                    copiedUpTo = lineEnd
                }
                lineStart = lineEnd + 1
            }
            guard copiedUpTo > 0 else { return nil }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[copiedUpTo..<b.count]))
            return out
        }
        guard let output else { return RedactionResult(text: text) }
        return RedactionResult(text: String(decoding: output, as: UTF8.self), counts: counts)
    }

    /// Redacts `chunk`, whole lines of JSON Lines, and appends the result to `out`: the form of
    /// ``redactJSONLines(_:)`` for input read a piece at a time, so that memory stays flat however
    /// long the input. A chunk must end at a line break (or at the input's end).
    ///
    /// ```swift
    /// var out: [UInt8] = [], counts: [RedactionKind: Int] = [:]
    /// chunk.withUnsafeBufferPointer { redactor.redactJSONLines($0, appendingTo: &out, counts: &counts) }
    /// ```
    public func redactJSONLines(
        _ chunk: UnsafeBufferPointer<UInt8>, appendingTo out: inout [UInt8], counts: inout [RedactionKind: Int]
    ) {
        var lineStart = 0
        while lineStart < chunk.count {
            var lineEnd = lineStart
            while lineEnd < chunk.count && chunk[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            let line = UnsafeBufferPointer(rebasing: chunk[lineStart..<lineEnd])
            if !line.allSatisfy(isSpace), let redacted = redactDocument(line, counts: &counts) {
                out.append(contentsOf: redacted)
            } else {
                out.append(contentsOf: line)
            }
            if lineEnd < chunk.count { out.append(UInt8(ascii: "\n")) }
            lineStart = lineEnd + 1
        }
    }

    /// One JSON document redacted structurally, or as text when it is not JSON; nil when nothing
    /// changed.
    func redactDocument(_ b: UnsafeBufferPointer<UInt8>, counts: inout [RedactionKind: Int]) -> [UInt8]? {
        var parser = JSONRedaction(input: b, redactor: self)
        if (try? parser.document()) != nil {
            guard parser.changed else { return nil }
            for (kind, count) in parser.counts { counts[kind, default: 0] += count }
            return parser.output
        }
        let found = findings(in: b, text: String(decoding: b, as: UTF8.self))
        guard !found.isEmpty else { return nil }
        for f in found { counts[f.kind, default: 0] += 1 }
        return Self.spliceBytes(b, found)
    }

    /// Redacts one named value, as when a field of a structured record is exported: the name
    /// decides as a JSON key would (`password` redacts the whole value), then the value is
    /// scanned as text.
    public func redact(_ value: String, field name: String) -> RedactionResult {
        var counts: [RedactionKind: Int] = [:]
        if config.fields {
            let field = SecretFields.classify(name, extraNames: config.extraSecretNames)
            if field != .ordinary {
                var copy = value
                let replaced: String? = copy.withUTF8 { b in
                    guard let f = SecretFields.redaction(of: field, in: b, 0..<b.count, config: config,
                                                         context: .quoted) else { return nil }
                    counts[f.kind, default: 0] += 1
                    return Self.splice(b, [f])
                }
                if let replaced { return RedactionResult(text: replaced, counts: counts) }
            }
        }
        return redact(value)
    }

    // MARK: Engine

    func redact(_ text: String, counts: inout [RedactionKind: Int]) -> String {
        var copy = text
        let output: String? = copy.withUTF8 { b in
            let found = findings(in: b, text: text)
            guard !found.isEmpty else { return nil }
            for f in found { counts[f.kind, default: 0] += 1 }
            return Self.splice(b, found)
        }
        return output ?? text
    }

    /// Sorted, non-overlapping findings of the built-in scanners and the custom rules.
    func findings(in b: UnsafeBufferPointer<UInt8>, text: @autoclosure () -> String) -> [Finding] {
        var found: [Finding]
        if let escaped = EscapedText(b) {
            found = escaped.bytes.withUnsafeBufferPointer { bytes in
                let plain = TextScanner.findings(in: bytes, config: config)
                return EncodedSecrets.merged(plain, EncodedSecrets.findings(in: bytes, besides: plain, config: config))
            }.map(escaped.original)
        } else {
            let plain = TextScanner.findings(in: b, config: config)
            found = EncodedSecrets.merged(plain, EncodedSecrets.findings(in: b, besides: plain, config: config))
        }
        guard !custom.isEmpty else { return found }
        var extra: [Finding] = []
        var string: String?
        for rule in custom where rule.matcher.isTriggered(by: b) {
            if string == nil { string = text() }
            extra += rule.matcher.findings(in: string!, kind: rule.kind, validator: rule.validator)
        }
        guard !extra.isEmpty else { return found }
        // Built-in findings first so that they win ties; then earliest start, then longest.
        found += extra
        let order = found.indices.sorted { a, b in
            let x = found[a], y = found[b]
            if x.start != y.start { return x.start < y.start }
            if x.end != y.end { return x.end > y.end }
            return a < b
        }
        var merged: [Finding] = []
        var lastEnd = 0
        for index in order where found[index].start >= lastEnd {
            merged.append(found[index])
            lastEnd = found[index].end
        }
        return merged
    }

    /// `b` with each finding replaced by `[REDACTED:<kind>]`.
    static func splice(_ b: UnsafeBufferPointer<UInt8>, _ found: [Finding]) -> String {
        String(decoding: spliceBytes(b, found), as: UTF8.self)
    }

    static func spliceBytes(_ b: UnsafeBufferPointer<UInt8>, _ found: [Finding]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(b.count + found.count * 24)
        var position = 0
        for f in found {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: b[position..<f.start]))
            appendMarker(f.kind, to: &out)
            position = f.end
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: b[position..<b.count]))
        return out
    }

    static func appendMarker(_ kind: RedactionKind, to out: inout [UInt8]) {
        out.append(contentsOf: "[REDACTED:".utf8)
        out.append(contentsOf: kind.rawValue.utf8)
        out.append(UInt8(ascii: "]"))
    }
}
