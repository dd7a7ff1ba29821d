/// What a field's name says about its value.
enum FieldClass: Equatable, Sendable {
    /// The name says nothing: the value is scanned like any text.
    case ordinary
    /// The name says secret (`password`, `api_key`, `client_secret`...): the whole value is
    /// redacted with `kind`, unless it is a placeholder.
    case secret(kind: RedactionKind)
    /// The name hints at a secret (`key`, `auth`, `hmac`, `salt`, `nonce`, `session`, `csrf`): the value is redacted
    /// only when it looks random (see ``Redactor/Options/entropyThreshold``).
    case entropyGated
    /// `Cookie` or `Set-Cookie`: the whole header value.
    case cookie
    /// `Authorization`: the credentials after the scheme (`Bearer`, `Basic`, `AWS4-HMAC-SHA256`).
    case authorization
}

/// A value range inside a buffer and the kind to report for it.
struct Finding: Sendable {
    var start: Int
    var end: Int
    var kind: RedactionKind
}

/// Names of fields that hold secrets, placeholders that are not secrets, and randomness.
enum SecretFields {
    /// Token-count and pagination fields end in "token" but are not credentials.
    private static let nonSecretTokenPrefixes: [StaticString] = [
        "max", "num", "input", "output", "prompt", "completion", "total", "cached", "next", "page",
        "continuation", "stop", "eos", "bos", "pad", "unk", "first", "last", "special", "sep",
        "start", "mask", "cls", "reasoning", "end", "eot", "image", "added", "sub", "word", "bad", "prev",
        "current", "lexer", "per",
    ]

    /// Last words of names that describe a secret rather than hold it: `secret_id`, `key_file`,
    /// `token_type`, `password_policy`, `api_key_header`, `access_token_ttl`.
    private static let metadataSuffixes: [StaticString] = [
        "id", "ids", "name", "names", "file", "filename", "path", "dir", "type", "url", "uri", "endpoint",
        "header", "length", "len", "size", "count", "ttl", "expiry", "expires", "expiresin", "expiresat",
        "expiration", "version", "format", "policy", "pattern", "regex", "hint", "label", "env", "var",
        "scope", "scopes", "mode", "alg", "algorithm", "enabled", "required", "arn", "ref", "provider",
        "prompt", "placeholder", "field", "param", "column", "fingerprint", "checksum", "digest", "prefix",
        "suffix", "location", "source", "method", "generator", "validator", "rotation", "store", "storage",
        "timeout", "interval", "attempts", "retries", "lifetime", "duration", "delay", "limit", "at",
        "days", "hours", "minutes", "seconds", "strength", "complexity", "manager", "service", "engine",
    ]

    /// `пароль`, `密码`, `密碼`, `パスワード`, `비밀번호`: the word for password in scripts other
    /// than Latin, which the ASCII normalization of ``classify(_:extraNames:)`` drops.
    static func namesPasswordInScript(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        for word: StaticString in ["\u{043F}\u{0430}\u{0440}\u{043E}\u{043B}\u{044C}", "\u{5BC6}\u{7801}",
                                   "\u{5BC6}\u{78BC}", "\u{30D1}\u{30B9}\u{30EF}\u{30FC}\u{30C9}",
                                   "\u{BE44}\u{BC00}\u{BC88}\u{D638}"] {
            for i in 0..<name.count where name.has(word, at: i) { return true }
        }
        return false
    }

    /// Classifies a field name: letters and digits only, ASCII case ignored, so `X-Api-Key`,
    /// `api_key`, `apiKey` and `API.KEY` are all `apikey`.
    static func classify(_ name: UnsafeBufferPointer<UInt8>, extraNames: Set<String>) -> FieldClass {
        guard name.count <= 64 else { return .ordinary }
        if name.contains(where: { $0 >= 0x80 }) && namesPasswordInScript(name) { return .secret(kind: .password) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { buffer in
            var m = 0
            var hasLetter = false
            for c in name where isAlnum(c) {
                buffer[m] = lower(c)
                if isAlpha(c) { hasLetter = true }
                m += 1
            }
            guard hasLetter, m >= 2 else { return .ordinary }
            let key = UnsafeBufferPointer(rebasing: buffer[0..<m])
            return classifyNormalized(key, extraNames: extraNames)
        }
    }

    static func classify(_ name: String, extraNames: Set<String>) -> FieldClass {
        var name = name
        return name.withUTF8 { classify($0, extraNames: extraNames) }
    }

    /// Substrings of a normalized name that matter, found in one pass over the name.
    private struct NameParts: OptionSet {
        let rawValue: UInt32
        static let password = NameParts(rawValue: 1 << 0)
        static let secretAccessKey = NameParts(rawValue: 1 << 1)
        static let aws = NameParts(rawValue: 1 << 2)
        static let secret = NameParts(rawValue: 1 << 3)
        static let privateKey = NameParts(rawValue: 1 << 4)
        static let signature = NameParts(rawValue: 1 << 5)
        static let apiKey = NameParts(rawValue: 1 << 6)
        static let strongKey = NameParts(rawValue: 1 << 7)  // credential, accesskey, authkey...
        static let key = NameParts(rawValue: 1 << 8)
        static let auth = NameParts(rawValue: 1 << 9)
        static let weak = NameParts(rawValue: 1 << 10)  // hmac, salt, nonce, session, csrf, xsrf
        static let publicKey = NameParts(rawValue: 1 << 11)  // public, publishable

        init(rawValue: UInt32) { self.rawValue = rawValue }

        init(_ key: UnsafeBufferPointer<UInt8>) {
            var parts: NameParts = []
            for i in 0..<key.count {
                switch key[i] {
                case UInt8(ascii: "p"):
                    if key.has("passw", at: i) || key.has("passphrase", at: i) || key.has("passord", at: i) {
                        parts.insert(.password)
                    }
                    if key.has("privatekey", at: i) { parts.insert(.privateKey) }
                    if key.has("public", at: i) || key.has("publishable", at: i) { parts.insert(.publicKey) }
                case UInt8(ascii: "s"):
                    if key.has("secret", at: i) {
                        parts.insert(.secret)
                        if key.has("secretaccesskey", at: i) { parts.insert(.secretAccessKey) }
                    }
                    if key.has("signature", at: i) { parts.insert(.signature) }
                    if key.has("signingkey", at: i) { parts.insert(.strongKey) }
                    if key.has("salt", at: i) || key.has("session", at: i) { parts.insert(.weak) }
                case UInt8(ascii: "a"):
                    if key.has("api", at: i) && (key.has("key", at: i + 3) || key.has("token", at: i + 3)) {
                        parts.insert(.apiKey)
                    }
                    if key.has("aws", at: i) { parts.insert(.aws) }
                    if key.has("auth", at: i) {
                        parts.insert(.auth)
                        if key.has("key", at: i + 4) { parts.insert(.strongKey) }
                    }
                    if key.has("accesskey", at: i) { parts.insert(.strongKey) }
                case UInt8(ascii: "c"):
                    if key.has("credential", at: i) { parts.insert(.strongKey) }
                    if key.has("csrf", at: i) { parts.insert(.weak) }
                    // `contraseña` without its `ñ`.
                    if key.has("contrase", at: i) { parts.insert(.password) }
                case UInt8(ascii: "m"):
                    if key.has("masterkey", at: i) { parts.insert(.strongKey) }
                    if key.has("motdepasse", at: i) { parts.insert(.password) }
                case UInt8(ascii: "e"):
                    if key.has("encryptionkey", at: i) { parts.insert(.strongKey) }
                case UInt8(ascii: "k"):
                    if key.has("key", at: i) { parts.insert(.key) }
                case UInt8(ascii: "h"):
                    if key.has("hmac", at: i) { parts.insert(.weak) }
                    if key.has("haso", at: i) || key.has("haslo", at: i) { parts.insert(.password) }
                case UInt8(ascii: "w"):
                    if key.has("wachtwoord", at: i) { parts.insert(.password) }
                case UInt8(ascii: "x"):
                    if key.has("xsrf", at: i) { parts.insert(.weak) }
                case UInt8(ascii: "n"):
                    if key.has("nonce", at: i) { parts.insert(.weak) }
                default:
                    break
                }
            }
            self = parts
        }
    }

    private static func classifyNormalized(
        _ key: UnsafeBufferPointer<UInt8>, extraNames: Set<String>
    ) -> FieldClass {
        func ends(_ s: StaticString) -> Bool { key.has(s, at: key.count - s.utf8CodeUnitCount) }
        func equals(_ s: StaticString) -> Bool { key.count == s.utf8CodeUnitCount && key.has(s, at: 0) }

        let parts = NameParts(key)
        if parts.isEmpty && extraNames.isEmpty {
            // Only these names hold secrets without one of the parts: ...token, ...cookie, ...pwd,
            // ...sig, pw, pass. Their last letters reject most names at once.
            switch key[key.count - 1] {
            case UInt8(ascii: "n"), UInt8(ascii: "e"), UInt8(ascii: "d"), UInt8(ascii: "g"),
                 UInt8(ascii: "w"), UInt8(ascii: "s"):
                if !ends("token") && !ends("cookie") && !ends("pwd") && !ends("sig") && !equals("pw")
                    && !ends("pass") {
                    return .ordinary
                }
            default:
                return .ordinary
            }
        }
        // A service account's `private_key_id` names the key it signs with: as sensitive as the
        // key's own fingerprint, and kept with it in the same file.
        if equals("privatekeyid") { return .secret(kind: .privateKey) }
        for suffix in metadataSuffixes where ends(suffix) && !equals("secretid") {
            return .ordinary
        }
        if parts.contains(.publicKey) && !parts.contains(.privateKey) && !parts.contains(.secret) {
            return .ordinary
        }
        if equals("cookie") || equals("setcookie") { return .cookie }
        if ends("authorization") { return .authorization }
        if parts.contains(.password) || equals("pw") || ends("pwd")
            || (ends("pass") && !ends("bypass") && !ends("compass")) {
            return .secret(kind: .password)
        }
        if parts.contains(.secretAccessKey) || parts.isSuperset(of: [.aws, .secret]) {
            return .secret(kind: .awsSecretKey)
        }
        if parts.contains(.privateKey) { return .secret(kind: .privateKey) }
        if parts.contains(.signature) || ends("sig") { return .secret(kind: .signature) }
        if parts.contains(.apiKey) { return .secret(kind: .apiKey) }
        if parts.contains(.secret) || parts.contains(.strongKey) || equals("auth") {
            return .secret(kind: .secret)
        }
        if ends("token") {
            // `max_tokens`-like counters and `time_to_first_token`-like measures: the word
            // before "token" says what is counted.
            let stem = key.count - 5
            for prefix in nonSecretTokenPrefixes
            where key.has(prefix, at: stem - prefix.utf8CodeUnitCount) {
                return .ordinary
            }
            return .secret(kind: .token)
        }
        if !extraNames.isEmpty, extraNames.contains(String(decoding: key, as: UTF8.self)) {
            return .secret(kind: .secret)
        }
        if !parts.isDisjoint(with: [.key, .auth, .weak]) { return .entropyGated }
        return .ordinary
    }

    /// Whether a value is a stand-in rather than a secret: `YOUR_API_KEY`, `<token>`, `${TOKEN}`,
    /// `sk-...` (any `..`), `xxxx`, `****`, `[REDACTED:...]`, `null`, `true`, `password`,
    /// `insert_key_here`, a single repeated character.
    static func isPlaceholder(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        let n = r.count
        guard n > 0 else { return true }
        let first = b[r.lowerBound], last = b[r.upperBound - 1]
        let second: UInt8 = n > 1 ? b[r.lowerBound + 1] : 0
        switch first {
        case UInt8(ascii: "<") where last == UInt8(ascii: ">"): return true
        case UInt8(ascii: "[") where last == UInt8(ascii: "]"): return true
        case UInt8(ascii: "(") where last == UInt8(ascii: ")"): return true
        case UInt8(ascii: "{") where second == UInt8(ascii: "{"): return true
        case UInt8(ascii: "{") where last == UInt8(ascii: "}"):
            // `{token}`, `{ password }` are templates; `{AQAAABAAAAAQ…=}` (Jenkins) is a secret.
            let inner = (r.lowerBound + 1)..<(r.upperBound - 1)
            if b[inner].allSatisfy({ isWordByte($0) || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: ".")
                || $0 == UInt8(ascii: "-") }) && !ValueShapes.isRandomWord(b, inner) { return true }
        case UInt8(ascii: "$") where isUpper(second) || second == UInt8(ascii: "{")
            || second == UInt8(ascii: "("):
            return true
        case UInt8(ascii: "%") where second == UInt8(ascii: "s") || second == UInt8(ascii: "(")
            || second == UInt8(ascii: "{"):
            return true
        default: break
        }
        if b[r].allSatisfy({ $0 == first }) { return true }
        // `（空）`, `（なし）`: a note in full-width parentheses.
        if n >= 6 && b.has("\u{FF08}", at: r.lowerBound) && b.has("\u{FF09}", at: r.upperBound - 3) { return true }
        if hasPlaceholderMarker(b, r) { return true }
        if n <= 9 {
            for word: StaticString in ["null", "none", "nil", "true", "false", "undefined", "n/a", "empty",
                                       "unset", "hidden", "masked", "password", "passwd", "pass", "pwd",
                                       "secret", "token", "apikey", "api_key", "key", "value", "username",
                                       "user", "example", "required", "optional", "string", "test", "dummy",
                                       "fake", "sample", "demo", "foo", "bar", "foobar", "baz", "todo", "tbd",
                                       "default"]
            where n == word.utf8CodeUnitCount && b.hasIgnoringCase(word, at: r.lowerBound) {
                return true
            }
        }
        return false
    }

    /// `xxxx`, `your`, `..`, `…`, `***`, `placeholder`, `changeme`, `change_me`, `redacted`,
    /// `replace` anywhere, and the words `here` and `insert`, ASCII case ignored; one pass with a
    /// switch on each byte.
    private static func hasPlaceholderMarker(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        for i in r {
            switch lower(b[i]) {
            case UInt8(ascii: "x"):
                if b.hasIgnoringCase("xxxx", at: i) && i + 4 <= r.upperBound { return true }
            case UInt8(ascii: "y"):
                if b.hasIgnoringCase("your", at: i) && i + 4 <= r.upperBound { return true }
            case UInt8(ascii: "."):
                if i + 1 < r.upperBound && b[i + 1] == UInt8(ascii: ".") { return true }
            case UInt8(ascii: "*"):
                if b.has("***", at: i) && i + 3 <= r.upperBound { return true }
            case 0xE2:
                if b.has("\u{2026}", at: i) { return true }
            case UInt8(ascii: "p"):
                if b.hasIgnoringCase("placeholder", at: i) && i + 11 <= r.upperBound { return true }
            case UInt8(ascii: "c"):
                if (b.hasIgnoringCase("changeme", at: i) && i + 8 <= r.upperBound)
                    || (b.hasIgnoringCase("change_me", at: i) && i + 9 <= r.upperBound) { return true }
            case UInt8(ascii: "r"):
                if (b.hasIgnoringCase("redacted", at: i) && i + 8 <= r.upperBound)
                    || (b.hasIgnoringCase("replace", at: i) && i + 7 <= r.upperBound) { return true }
            case UInt8(ascii: "h"):
                // `insert_key_here`, `<token-here>`, `paste-here`: a word, not random text.
                if b.hasIgnoringCase("here", at: i) && i + 4 <= r.upperBound
                    && (i + 4 == r.upperBound || !isAlnum(b[i + 4]))
                    && (i == r.lowerBound || !isAlpha(b[i - 1])) { return true }
            case UInt8(ascii: "i"):
                if b.hasIgnoringCase("insert", at: i) && i + 6 <= r.upperBound
                    && (i + 6 == r.upperBound || !isAlpha(b[i + 6])) { return true }
            case UInt8(ascii: "n"):
                // A value that says it is not one: `notarealpassword`, `not-a-real-key`.
                if (b.hasIgnoringCase("notareal", at: i) && i + 8 <= r.upperBound)
                    || (b.hasIgnoringCase("notreal", at: i) && i + 7 <= r.upperBound)
                    || (b.hasIgnoringCase("not-a-real", at: i) && i + 10 <= r.upperBound)
                    || (b.hasIgnoringCase("not_a_real", at: i) && i + 10 <= r.upperBound) { return true }
            case UInt8(ascii: "f"):
                if b.hasIgnoringCase("fake", at: i) && i + 4 <= r.upperBound { return true }
            case UInt8(ascii: "d"):
                if b.hasIgnoringCase("dummy", at: i) && i + 5 <= r.upperBound { return true }
            default:
                break
            }
        }
        return false
    }

    /// Whether a value looks like a random secret: long enough, one token (no spaces), at least two
    /// of lower, upper and digit, not hex-only (hashes, UUIDs), and a Shannon entropy at or above
    /// the threshold in bits per character.
    static func looksRandom(
        _ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, threshold: Double, minimumLength: Int
    ) -> Bool {
        guard r.count >= minimumLength, r.count <= 1024 else { return false }
        var lowerSeen = false, upperSeen = false, digitSeen = false, hexOnly = true
        for c in b[r] {
            if isLower(c) { lowerSeen = true } else if isUpper(c) { upperSeen = true } else if isDigit(c) {
                digitSeen = true
            } else if !(c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
                        || c == UInt8(ascii: "_") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
                        || c == UInt8(ascii: "~")) {
                return false
            }
            if !(isHex(c) || c == UInt8(ascii: "-")) { hexOnly = false }
        }
        let classes = (lowerSeen ? 1 : 0) + (upperSeen ? 1 : 0) + (digitSeen ? 1 : 0)
        guard classes >= 2, !hexOnly else { return false }
        return RedactionChecks.shannonEntropy(b[r]) >= threshold
    }

    /// The part of a field's value to redact and its kind, or nil to leave the value alone.
    ///
    /// - Parameter context: how the value was written. An unquoted value may be code
    ///   (`get_password()`, `self.token`, `API_KEY`); after `name:` without quotes, as in a log
    ///   line, a single lowercase word is more often prose ("token: expired") than a secret, so it
    ///   is kept unless it is at least 12 letters long.
    static func redaction(
        of field: FieldClass, in b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, config: BuiltInConfig,
        context: ValueContext
    ) -> Finding? {
        var r = r
        while r.lowerBound < r.upperBound, isSpace(b[r.lowerBound]) { r = (r.lowerBound + 1)..<r.upperBound }
        while r.lowerBound < r.upperBound, isSpace(b[r.upperBound - 1]) {
            r = r.lowerBound..<(r.upperBound - 1)
        }
        // `Tr0ub4dor...`: a secret cut short in a log is still a secret; `sk-...` is a stand-in.
        var cut = r.upperBound
        while cut > r.lowerBound && b[cut - 1] == UInt8(ascii: ".") { cut -= 1 }
        if r.upperBound - cut >= 2, cut - r.lowerBound >= 8, !isPlaceholder(b, r.lowerBound..<cut),
           CharacterMix(b[r.lowerBound..<cut]).digit, CharacterMix(b[r.lowerBound..<cut]).lower
            || CharacterMix(b[r.lowerBound..<cut]).upper {
            r = r.lowerBound..<cut
        }
        guard !isPlaceholder(b, r) else { return nil }
        switch field {
        case .ordinary:
            return nil
        case .cookie:
            return Finding(start: r.lowerBound, end: r.upperBound, kind: .cookie)
        case .authorization:
            var s = r.lowerBound
            while s < r.upperBound, isAlnum(b[s]) || b[s] == UInt8(ascii: "-") { s += 1 }
            guard s < r.upperBound, isBlank(b[s]) else {
                return Finding(start: r.lowerBound, end: r.upperBound,
                               kind: specificKind(b, r, config: config) ?? .secret)
            }
            let scheme = r.lowerBound..<s
            while s < r.upperBound, isBlank(b[s]) { s += 1 }
            let credentials = s..<r.upperBound
            guard !isPlaceholder(b, credentials) else { return nil }
            let kind: RedactionKind
            if scheme.count == 6, b.hasIgnoringCase("bearer", at: scheme.lowerBound) {
                kind = .bearerToken
            } else if scheme.count == 5, b.hasIgnoringCase("basic", at: scheme.lowerBound) {
                kind = .basicAuth
            } else {
                kind = specificKind(b, credentials, config: config) ?? .secret
            }
            return Finding(start: credentials.lowerBound, end: credentials.upperBound, kind: kind)
        case .secret(let kind):
            if context == .prose, r.count < 12, b[r].allSatisfy(isLower) { return nil }
            guard !isNotASecret(b, r, context: context) else { return nil }
            return Finding(start: r.lowerBound, end: r.upperBound,
                           kind: specificKind(b, r, config: config) ?? kind)
        case .entropyGated:
            guard !isNotASecret(b, r, context: context),
                  looksRandom(b, r, threshold: config.entropyThreshold,
                              minimumLength: config.entropyMinimumLength) else { return nil }
            return Finding(start: r.lowerBound, end: r.upperBound,
                           kind: specificKind(b, r, config: config) ?? .secret)
        }
    }

    /// Whether a value in a secret's place is something else: code or a variable reference when
    /// unquoted, and in any context an environment name (`ACCESS_TOKEN`), a file name or path, a
    /// version, an alphabet, or a sentence.
    static func isNotASecret(
        _ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, context: ValueContext
    ) -> Bool {
        if context != .quoted && ValueShapes.isCode(b, r) { return true }
        // A YAML tag (`password: !vault |`): the value follows on the next lines.
        if context != .quoted && b[r.lowerBound] == UInt8(ascii: "!") && r.count > 1
            && b[r].dropFirst().allSatisfy(isAlpha) {
            return true
        }
        if ValueShapes.isConstantName(b, r) || ValueShapes.isFileName(b, r) || ValueShapes.isVersion(b, r) {
            return true
        }
        if r.count >= 10 && ValueShapes.isSequential(b, r) { return true }
        // `staging/api`, `prod/db-credentials`: the name of a secret in a store, not its value.
        if b[r].contains(UInt8(ascii: "/")), b[r.lowerBound] != UInt8(ascii: "/"), b[r].allSatisfy({
            isLower($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }) {
            return true
        }
        var spaces = 0
        for c in b[r] where c == UInt8(ascii: " ") { spaces += 1 }
        return spaces >= 5
    }

    /// The kind a known format gives the value (`openai_key`, `jwt`, `private_key`), if it starts
    /// with one; a field named `api_key` holding `sk-...` reports `openai_key`.
    static func specificKind(
        _ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, config: BuiltInConfig
    ) -> RedactionKind? {
        guard !r.isEmpty else { return nil }
        let view = UnsafeBufferPointer(rebasing: b[r])
        if config.privateKey, view.has("-----BEGIN ", at: 0) { return .privateKey }
        // The value's own credential format, found as in free text (but not as a field again).
        var inner = config
        inner.fields = false
        inner.email = false
        inner.phone = false
        inner.ssn = false
        inner.creditCard = false
        inner.iban = false
        guard let first = TextScanner.findings(in: view, config: inner).first, first.start <= 16 else {
            return nil
        }
        return first.kind
    }
}
