/// What a field's name says about its value.
enum FieldClass: Equatable, Sendable {
    /// The name says nothing: the value is scanned like any text.
    case ordinary
    /// The name says secret (`password`, `api_key`, `client_secret`...): the whole value is
    /// redacted with `kind`, unless it is a placeholder.
    case secret(kind: String)
    /// The name hints at a secret (`key`, `auth`, `hmac`, `salt`, `nonce`): the value is redacted
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
    var kind: String
}

/// Names of fields that hold secrets, placeholders that are not secrets, and randomness.
enum SecretFields {
    /// Token-count and pagination fields end in "token" but are not credentials.
    private static let nonSecretTokenPrefixes: [StaticString] = [
        "max", "num", "input", "output", "prompt", "completion", "total", "cached", "next", "page",
        "continuation", "stop", "eos", "bos", "pad", "unk", "first", "last", "special", "sep",
        "start", "end", "mask", "cls", "reasoning",
    ]

    /// Classifies a field name: letters and digits only, ASCII case ignored, so `X-Api-Key`,
    /// `api_key`, `apiKey` and `API.KEY` are all `apikey`.
    static func classify(_ name: UnsafeBufferPointer<UInt8>, extraNames: Set<String>) -> FieldClass {
        guard name.count <= 64 else { return .ordinary }
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

    private static func classifyNormalized(
        _ key: UnsafeBufferPointer<UInt8>, extraNames: Set<String>
    ) -> FieldClass {
        func has(_ s: StaticString) -> Bool { key.firstIndex(of: s, from: 0) != nil }
        func ends(_ s: StaticString) -> Bool { key.has(s, at: key.count - s.utf8CodeUnitCount) }
        func equals(_ s: StaticString) -> Bool { key.count == s.utf8CodeUnitCount && key.has(s, at: 0) }

        if equals("cookie") || equals("setcookie") { return .cookie }
        if ends("authorization") { return .authorization }
        if has("password") || has("passwd") || has("passphrase") || equals("pwd") || equals("pass")
            || equals("pw") || ends("pwd") {
            return .secret(kind: "password")
        }
        if has("secretaccesskey") || (has("aws") && has("secret")) { return .secret(kind: "aws_secret_key") }
        if has("privatekey") { return .secret(kind: "private_key") }
        if has("signature") || equals("sig") || ends("sig") { return .secret(kind: "signature") }
        if has("apikey") || has("apitoken") { return .secret(kind: "api_key") }
        if has("secret") || has("credential") || has("accesskey") || has("authkey")
            || has("masterkey") || has("encryptionkey") || has("signingkey") || equals("auth") {
            return .secret(kind: "secret")
        }
        if ends("token") {
            let stem = key.count - 5
            for prefix in nonSecretTokenPrefixes
            where stem == prefix.utf8CodeUnitCount && key.has(prefix, at: 0) {
                return .ordinary
            }
            return .secret(kind: "token")
        }
        if !extraNames.isEmpty, extraNames.contains(String(decoding: key, as: UTF8.self)) {
            return .secret(kind: "secret")
        }
        if has("key") || has("auth") || has("hmac") || has("salt") || has("nonce") { return .entropyGated }
        return .ordinary
    }

    /// Whether a value is a stand-in rather than a secret: `YOUR_API_KEY`, `<token>`, `${TOKEN}`,
    /// `sk-...`, `xxxx`, `****`, `[REDACTED:...]`, `null`, `true`, a single repeated character.
    static func isPlaceholder(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        let n = r.count
        guard n > 0 else { return true }
        let first = b[r.lowerBound], last = b[r.upperBound - 1]
        let second: UInt8 = n > 1 ? b[r.lowerBound + 1] : 0
        switch first {
        case UInt8(ascii: "<") where last == UInt8(ascii: ">"): return true
        case UInt8(ascii: "[") where last == UInt8(ascii: "]"): return true
        case UInt8(ascii: "{") where second == UInt8(ascii: "{"): return true
        case UInt8(ascii: "$") where isUpper(second) || second == UInt8(ascii: "{")
            || second == UInt8(ascii: "("):
            return true
        case UInt8(ascii: "%") where second == UInt8(ascii: "s") || second == UInt8(ascii: "("): return true
        default: break
        }
        if b[r].allSatisfy({ $0 == first }) { return true }
        for marker: StaticString in ["xxxx", "your", "...", "\u{2026}", "***", "placeholder", "changeme",
                                     "change_me", "redacted", "replace"]
        where b.containsIgnoringCase(marker, in: r) {
            return true
        }
        if n <= 9 {
            for word: StaticString in ["null", "none", "nil", "true", "false", "undefined", "n/a", "empty",
                                       "unset", "hidden", "masked"]
            where n == word.utf8CodeUnitCount && b.hasIgnoringCase(word, at: r.lowerBound) {
                return true
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
    /// - Parameter prose: the value followed `name:` without quotes, as in a log line. A single
    ///   lowercase word there is more often prose ("token: expired") than a secret, so it is kept
    ///   unless it is at least 12 letters long.
    static func redaction(
        of field: FieldClass, in b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, config: BuiltInConfig,
        prose: Bool
    ) -> Finding? {
        var r = r
        while r.lowerBound < r.upperBound, isSpace(b[r.lowerBound]) { r = (r.lowerBound + 1)..<r.upperBound }
        while r.lowerBound < r.upperBound, isSpace(b[r.upperBound - 1]) { r = r.lowerBound..<(r.upperBound - 1) }
        guard !isPlaceholder(b, r) else { return nil }
        switch field {
        case .ordinary:
            return nil
        case .cookie:
            return Finding(start: r.lowerBound, end: r.upperBound, kind: "cookie")
        case .authorization:
            var s = r.lowerBound
            while s < r.upperBound, isAlnum(b[s]) || b[s] == UInt8(ascii: "-") { s += 1 }
            guard s < r.upperBound, isBlank(b[s]) else {
                return Finding(start: r.lowerBound, end: r.upperBound,
                               kind: specificKind(b, r, config: config) ?? "secret")
            }
            let scheme = r.lowerBound..<s
            while s < r.upperBound, isBlank(b[s]) { s += 1 }
            let credentials = s..<r.upperBound
            guard !isPlaceholder(b, credentials) else { return nil }
            let kind: String
            if scheme.count == 6, b.hasIgnoringCase("bearer", at: scheme.lowerBound) {
                kind = "bearer_token"
            } else if scheme.count == 5, b.hasIgnoringCase("basic", at: scheme.lowerBound) {
                kind = "basic_auth"
            } else {
                kind = specificKind(b, credentials, config: config) ?? "secret"
            }
            return Finding(start: credentials.lowerBound, end: credentials.upperBound, kind: kind)
        case .secret(let kind):
            if prose, r.count < 12, b[r].allSatisfy(isLower) { return nil }
            return Finding(start: r.lowerBound, end: r.upperBound,
                           kind: specificKind(b, r, config: config) ?? kind)
        case .entropyGated:
            guard looksRandom(b, r, threshold: config.entropyThreshold,
                              minimumLength: config.entropyMinimumLength) else { return nil }
            return Finding(start: r.lowerBound, end: r.upperBound,
                           kind: specificKind(b, r, config: config) ?? "secret")
        }
    }

    /// The kind a known format gives the value (`openai_key`, `jwt`, `private_key`), if it starts
    /// with one; a field named `api_key` holding `sk-...` reports `openai_key`.
    static func specificKind(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>, config: BuiltInConfig) -> String? {
        guard !r.isEmpty else { return nil }
        let view = UnsafeBufferPointer(rebasing: b[r])
        if config.privateKey, view.has("-----BEGIN ", at: 0) { return "private_key" }
        if isAlpha(view[0]), let finding = TextScanner.scanWord(view, at: 0, config: config),
           finding.start <= 16 {
            return finding.kind
        }
        return nil
    }
}
