/// Which built-in detectors are on, and their settings, as the scanner reads them.
struct BuiltInConfig: Sendable {
    var tokens: [[TokenFormat]] = TokenFormat.table(for: []) {
        didSet { tokenPairs = TokenFormat.pairBits(tokens) }
    }
    /// Bit (first byte, second byte) is set when some prefix starts with that pair: one load and
    /// one test reject almost every word before any prefix is compared.
    private(set) var tokenPairs = [UInt64](repeating: 0, count: 1024)
    var jwt = false, bearer = false, basicAuth = false, privateKey = false, urlCredential = false
    var fields = false, email = false, phone = false, creditCard = false, iban = false, ssn = false
    var slackWebhook = false, discordWebhook = false
    /// The kinds of the token rules that are on, for the formats found by their shape rather
    /// than their prefix (Discord, Telegram, Terraform, 1Password, Azure, Mailgun, AWS pairs).
    var tokenKinds: Set<RedactionKind> = []
    var entropyThreshold = 3.5
    var entropyMinimumLength = 16
    var extraSecretNames: Set<String> = []

    @inline(__always) func allows(_ finding: Finding?) -> Finding? {
        guard let finding, tokenKinds.contains(finding.kind) else { return nil }
        return finding
    }
}

/// The built-in detectors, run in one left-to-right pass over UTF-8 bytes.
///
/// Each position costs one or two byte comparisons unless it can start something: a letter at a
/// word start (provider prefixes, `Bearer`, `eyJ`, IBANs, spelled-out emails), a digit at a number
/// start (cards, SSNs, phones, Telegram tokens), `@` (emails), `=` or `:` (secret-named fields,
/// URL credentials), `<` (XML elements), `.` and `~` (Terraform and Azure secrets), `+`, `(` and
/// `[` (phones, `name [at] domain`) and `-----BEGIN` (PEM keys). Findings come out sorted and never
/// overlap: scanning resumes after each one.
enum TextScanner {
    static func findings(in b: UnsafeBufferPointer<UInt8>, config: BuiltInConfig) -> [Finding] {
        var found: [Finding] = []
        var lastEnd = 0
        var i = 0
        let n = b.count
        func add(_ f: Finding) {
            found.append(f)
            lastEnd = f.end
            i = f.end
        }
        while i < n {
            let c = b[i]
            if isAlpha(c) {
                if isBoundary(b, i) {
                    if let f = scanWord(b, at: i, config: config) {
                        add(f)
                        if f.kind == .awsAccessKey {
                            for paired in scanPairedAWSSecrets(b, after: f.end)
                            where config.allows(paired) != nil {
                                add(paired)
                            }
                        }
                        continue
                    }
                    if config.email && (c | 0x20) == UInt8(ascii: "a"),
                       let f = scanSpelledEmail(b, at: i, lowerLimit: lastEnd) {
                        add(f)
                        continue
                    }
                }
                // After `\n` in escaped text the next letter starts a word: step, do not skip.
                if i > 0 && b[i - 1] == UInt8(ascii: "\\") { i += 1; continue }
                let start = i
                i += 1
                while i < n && isWordByte(b[i]) { i += 1 }
                if i - start == 32,
                   let f = config.allows(scanHexKeyWithSuffix(b, start: start, end: i))
                    ?? config.allows(scanVendorHexKey(b, start: start, end: i)) {
                    add(f)
                }
                continue
            }
            if isDigit(c) {
                if isNumberStart(b, i), let f = scanNumber(b, at: i, config: config) {
                    add(f)
                    continue
                }
                let start = i
                i += 1
                while i < n && isWordByte(b[i]) { i += 1 }
                if i - start == 32,
                   let f = config.allows(scanHexKeyWithSuffix(b, start: start, end: i))
                    ?? config.allows(scanVendorHexKey(b, start: start, end: i)) {
                    add(f)
                }
                continue
            }
            var finding: Finding?
            switch c {
            case UInt8(ascii: "%"):
                // `%22ghp_…`, `%3Dsk-…`: a percent-escape ends a word; its two hex digits start none.
                if i + 3 < n && isHex(b[i + 1]) && isHex(b[i + 2]) {
                    i += 3
                    continue
                }
            case UInt8(ascii: "@"):
                if config.email { finding = scanEmail(b, at: i, lowerLimit: lastEnd) }
            case UInt8(ascii: ":"):
                if b.has("//", at: i + 1) {
                    if config.urlCredential { finding = scanURLCredential(b, at: i) }
                } else if config.fields {
                    finding = scanField(b, separator: i, lowerLimit: lastEnd, config: config)
                }
            case UInt8(ascii: "="):
                if config.fields { finding = scanField(b, separator: i, lowerLimit: lastEnd, config: config) }
            case 0xEF:
                // `密码：…`: the full-width colon of Chinese and Japanese text.
                if config.fields && b.has("\u{FF1A}", at: i) {
                    finding = scanField(b, separator: i, lowerLimit: lastEnd, config: config)
                }
            case UInt8(ascii: "+"):
                if config.phone { finding = scanInternationalPhone(b, at: i) }
            case UInt8(ascii: "("):
                if config.email && b.hasIgnoringCase("(at)", at: i) {
                    finding = scanSpelledEmail(b, at: i, lowerLimit: lastEnd)
                } else if config.fields && i + 1 < n
                            && (b[i + 1] == UInt8(ascii: "\"") || b[i + 1] == UInt8(ascii: "'")) {
                    finding = scanDeclaredLiteral(b, paren: i, lowerLimit: lastEnd, config: config)
                } else if config.phone {
                    finding = scanParenthesizedPhone(b, at: i)
                }
            case UInt8(ascii: "["):
                // A marker from an earlier pass is neither a secret nor a name for what follows it:
                // read it as the finding it was, so that redacting again changes nothing.
                if let end = markerEnd(b, at: i) {
                    lastEnd = end
                    i = end
                    continue
                }
                if config.email && b.hasIgnoringCase("[at]", at: i) {
                    finding = scanSpelledEmail(b, at: i, lowerLimit: lastEnd)
                }
            case UInt8(ascii: "<"):
                if config.fields { finding = scanElement(b, at: i, config: config) }
            case UInt8(ascii: "."):
                if b.has(".atlasv1.", at: i) {
                    finding = config.allows(scanTerraformToken(b, dot: i, lowerLimit: lastEnd))
                }
            case UInt8(ascii: ","):
                if config.fields && i > 0
                    && (b[i - 1] == UInt8(ascii: "\"") || b[i - 1] == UInt8(ascii: "'")) {
                    finding = scanSetterArgument(b, comma: i, lowerLimit: lastEnd, config: config)
                }
            case UInt8(ascii: "~"):
                if i >= 5 && b[i - 1] == UInt8(ascii: "Q") {
                    finding = config.allows(scanAzureClientSecret(b, tilde: i, lowerLimit: lastEnd))
                    // `aB12Q~xxxx…`: the documented shape filled with a placeholder.
                    if let f = finding, SecretFields.isPlaceholder(b, (i + 1)..<f.end) { finding = nil }
                }
            case UInt8(ascii: "-"):
                if config.privateKey && b.has("-----BEGIN ", at: i) {
                    finding = scanPrivateKey(b, at: i)
                } else if config.basicAuth {
                    finding = scanUserOption(b, at: i) ?? scanPasswordOption(b, at: i)
                }
            default:
                break
            }
            if let finding {
                found.append(finding)
                lastEnd = finding.end
                i = max(finding.end, i + 1)
            } else {
                i += 1
            }
        }
        return found
    }

    /// A word starts after a byte that is not a letter, digit or `_`, or after an escape such as
    /// `\n` in JSON-escaped text.
    @inline(__always) static func isBoundary(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        guard i > 0 else { return true }
        let p = b[i - 1]
        if !isWordByte(p) { return true }
        if i >= 3 && b[i - 3] == UInt8(ascii: "%") && isHex(p) && isHex(b[i - 2]) { return true }
        return i >= 2 && b[i - 2] == UInt8(ascii: "\\")
            && (p == UInt8(ascii: "n") || p == UInt8(ascii: "t") || p == UInt8(ascii: "r"))
    }

    /// A number starts at a boundary that is not a decimal point, a `+` (handled as a phone) or
    /// a dash inside a word (`build-4111...`, UUID groups).
    @inline(__always) static func isNumberStart(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        guard isBoundary(b, i) else { return false }
        guard i > 0 else { return true }
        let p = b[i - 1]
        if p == UInt8(ascii: ".") || p == UInt8(ascii: "+") { return false }
        if p == UInt8(ascii: "-") && i >= 2 && isAlnum(b[i - 2]) { return false }
        return true
    }

    /// The end of the `[REDACTED:<kind>]` marker that starts at `i`, if one does.
    static func markerEnd(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
        guard b.has("[REDACTED:", at: i) else { return nil }
        var j = i + 10
        while j < b.count && (isLower(b[j]) || isDigit(b[j]) || b[j] == UInt8(ascii: "_")) { j += 1 }
        guard j > i + 10, j < b.count, b[j] == UInt8(ascii: "]") else { return nil }
        return j + 1
    }

    @inline(__always) static func endsWord(_ b: UnsafeBufferPointer<UInt8>, _ j: Int) -> Bool {
        j >= b.count || !isWordByte(b[j])
    }

    // MARK: Words

    static func scanWord(_ b: UnsafeBufferPointer<UInt8>, at i: Int, config: BuiltInConfig) -> Finding? {
        let c = b[i]
        if i + 1 < b.count {
            let second = b[i + 1]
            if config.tokenPairs[Int(c) << 2 | Int(second >> 6)] & (1 << UInt64(second & 63)) != 0 {
                // Borrowed in place: iterating the array would copy (retain) every format.
                let found: Finding? = config.tokens[Int(c)].withUnsafeBufferPointer { formats in
                    for k in formats.indices {
                        // The second byte first: most candidates share only the first.
                        guard formats[k].prefix[1] == second, let f = scanToken(formats[k], b, at: i) else {
                            continue
                        }
                        return f
                    }
                    return nil
                }
                if let found { return found }
            }
        }
        if config.iban && isUpper(c), let f = scanIBAN(b, at: i) { return f }
        switch c {
        case UInt8(ascii: "M"), UInt8(ascii: "N"), UInt8(ascii: "O"):
            if let f = config.allows(scanDiscordBotToken(b, at: i)) { return f }
        case UInt8(ascii: "A"):
            if b.has("A3-", at: i), let f = config.allows(scanOnePasswordSecretKey(b, at: i)) { return f }
        case UInt8(ascii: "p"):
            if config.fields && b.has("password ", at: i), let f = scanNetrcPassword(b, at: i) { return f }
        case UInt8(ascii: "i"):
            if config.fields && b.has("is ", at: i), let f = scanProseValue(b, at: i, config: config) { return f }
        case UInt8(ascii: "B"), UInt8(ascii: "b"):
            // One case for both: a `switch` takes its first matching case, so a case of its own for
            // `b` would keep lowercase `bearer` and `basic` from ever being read.
            // `https://api.telegram.org/bot<token>/method`
            if b.has("bot", at: i) && i + 3 < b.count && isDigit(b[i + 3]),
               let f = config.allows(scanTelegramBotToken(b, at: i + 3)) { return f }
            if config.bearer, b.hasIgnoringCase("bearer", at: i), let f = scanBearer(b, at: i) { return f }
            if config.basicAuth, b.hasIgnoringCase("basic", at: i), let f = scanBasic(b, at: i) { return f }
        case UInt8(ascii: "e"):
            if config.jwt, b.has("eyJ", at: i), let f = scanJWT(b, at: i) { return f }
        case UInt8(ascii: "h"):
            if config.slackWebhook, b.has("hooks.slack.com/", at: i) { return scanSlackWebhook(b, at: i) }
        case UInt8(ascii: "d"):
            if config.discordWebhook {
                if b.has("discord.com/api/webhooks/", at: i) {
                    return scanPath(b, from: i + 25, minimum: 20, kind: .discordWebhook)
                }
                if b.has("discordapp.com/api/webhooks/", at: i) {
                    return scanPath(b, from: i + 28, minimum: 20, kind: .discordWebhook)
                }
            }
        default:
            break
        }
        return nil
    }

    static func scanToken(_ format: TokenFormat, _ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        let prefix = format.prefix
        guard i + prefix.count <= b.count else { return nil }
        for k in 1..<prefix.count where b[i + k] != prefix[k] { return nil }
        let bodyStart = i + prefix.count
        var j = bodyStart
        let limit = format.maximumBody == .max ? b.count : min(b.count, bodyStart + format.maximumBody + 1)
        while j < limit && format.body.contains(b[j]) { j += 1 }
        // A trailing dot ends the sentence, not the token.
        while j > bodyStart && b[j - 1] == UInt8(ascii: ".") { j -= 1 }
        let length = j - bodyStart
        guard length >= format.minimumBody, length <= format.maximumBody, endsWord(b, j) else { return nil }
        let mix = CharacterMix(b[bodyStart..<j])
        let digit = mix.digit, upper = mix.upper, lowerCase = mix.lower
        switch format.check {
        case .digitAndLetter: guard digit && (upper || lowerCase) else { return nil }
        case .mixedCase: guard upper && lowerCase else { return nil }
        case .shapeOnly: guard !ValueShapes.isSequential(b, bodyStart..<j) else { return nil }
        case .crc32Suffix:
            // A body that fails the checksum may still be a token that was retyped or cut, so it
            // counts when it is random (a digit and letters, high entropy, no alphabet run).
            guard RedactionChecks.hasGitHubChecksum(b, bodyStart..<j)
                || (digit && upper && lowerCase && !ValueShapes.isSequential(b, bodyStart..<j)
                    && RedactionChecks.shannonEntropy(b[bodyStart..<j]) >= 3.5) else { return nil }
        }
        guard !SecretFields.isPlaceholder(b, bodyStart..<j) else { return nil }
        return Finding(start: i, end: j, kind: format.kind)
    }

    /// `Bearer <token>` outside an `Authorization` field: the token must look like one (8+
    /// characters with a digit, or 20+), so that "bearer of bad news" stays.
    static func scanBearer(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        var j = i + 6
        guard j < b.count, isBlank(b[j]) else { return nil }
        while j < b.count && isBlank(b[j]) { j += 1 }
        let start = j
        var digit = false
        while j < b.count {
            let c = b[j]
            if isAlnum(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: "_")
                || c == UInt8(ascii: "~") || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") {
                if isDigit(c) { digit = true }
                j += 1
            } else {
                break
            }
        }
        while j < b.count && b[j] == UInt8(ascii: "=") { j += 1 }
        while j > start && b[j - 1] == UInt8(ascii: ".") { j -= 1 }
        let length = j - start
        guard length >= 8, digit || length >= 20, !SecretFields.isPlaceholder(b, start..<j) else {
            return nil
        }
        return Finding(start: start, end: j, kind: .bearerToken)
    }

    /// `curl -u user:password`, `-su user:password`, `-uuser:password` and `--user user:password`:
    /// the password goes; for `-u key:` (an API key as the user, as Stripe and Mailgun document),
    /// the key. `<user:password>` and `$USER:$PASS` are placeholders.
    static func scanUserOption(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        guard i > 0, isBlank(b[i - 1]), i + 2 < b.count else { return nil }
        var j: Int
        var attached = false
        if b.has("--user", at: i) {
            j = i + 6
            guard j < b.count, isBlank(b[j]) || b[j] == UInt8(ascii: "=") else { return nil }
            j += 1
        } else {
            j = i + 1
            while j < b.count && isAlpha(b[j]) && j - i <= 4 { j += 1 }
            if j > i + 1 && b[j - 1] == UInt8(ascii: "u") && j < b.count && isBlank(b[j]) {
                j += 1
            } else {
                // `-uuser:password`, attached.
                guard b[i + 1] == UInt8(ascii: "u") else { return nil }
                j = i + 2
                attached = true
            }
        }
        while !attached && j < b.count && isBlank(b[j]) { j += 1 }
        var quote: UInt8 = 0
        if j < b.count && (b[j] == UInt8(ascii: "'") || b[j] == UInt8(ascii: "\"")) { quote = b[j]; j += 1 }
        var colon: Int?
        let start = j
        while j < b.count && (quote == 0 ? !isSpace(b[j]) : b[j] != quote && b[j] != UInt8(ascii: "\n")) {
            if b[j] == UInt8(ascii: ":") && colon == nil { colon = j }
            j += 1
        }
        // `-u "user":"password"`: each half quoted on its own, as a shell joins them.
        if quote != 0, colon == nil, j + 2 < b.count, b[j] == quote, b[j + 1] == UInt8(ascii: ":"),
           j - start <= 256 {
            guard start < j, b[start] != UInt8(ascii: "$"), b[start] != UInt8(ascii: "<"),
                  b[start] != UInt8(ascii: "{") else { return nil }
            var v = j + 2
            var second: UInt8 = 0
            if b[v] == UInt8(ascii: "'") || b[v] == UInt8(ascii: "\"") { second = b[v]; v += 1 }
            var e = v
            while e < b.count && e - v <= 256
                    && (second == 0 ? !isSpace(b[e]) : b[e] != second && b[e] != UInt8(ascii: "\n")) {
                e += 1
            }
            guard e > v, e - v <= 256, b[v] != UInt8(ascii: "$"), b[v] != UInt8(ascii: "<"),
                  b[v] != UInt8(ascii: "{"), !SecretFields.isPlaceholder(b, v..<e) else { return nil }
            return Finding(start: v, end: e, kind: .basicAuth)
        }
        guard let colon, j - start <= 256 else { return nil }
        // `<user:password>`, `{user}:{password}`, `$USER:$PASS`: placeholders.
        if b[start] == UInt8(ascii: "<") || b[start] == UInt8(ascii: "{") || b[start] == UInt8(ascii: "$") {
            return nil
        }
        if j == colon + 1 {
            // `-u key:`: the key is the credential.
            let user = start..<colon
            guard user.count >= 16, !SecretFields.isPlaceholder(b, user), b[user].allSatisfy({
                isWordByte($0) || $0 == UInt8(ascii: "-")
            }), b[user].contains(where: isDigit) else { return nil }
            return Finding(start: start, end: colon, kind: .basicAuth)
        }
        guard !SecretFields.isPlaceholder(b, (colon + 1)..<j) else { return nil }
        return Finding(start: colon + 1, end: j, kind: .basicAuth)
    }

    /// `-p PASSWORD` or `-pPASSWORD` on a command line that names a user or logs in
    /// (`mysql -u root -p…`, `docker login -u ana -p …`, `sshpass -p …`).
    static func scanPasswordOption(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        guard i > 0, isBlank(b[i - 1]), b.has("-p", at: i), i + 3 < b.count else { return nil }
        var lineStart = i
        while lineStart > 0 && i - lineStart < 256 && b[lineStart - 1] != UInt8(ascii: "\n") {
            lineStart -= 1
        }
        let line = lineStart..<i
        guard b.containsIgnoringCase(" -u", in: line) || b.containsIgnoringCase("--user", in: line)
            || b.containsIgnoringCase("sshpass", in: line) || b.containsIgnoringCase(" login", in: line)
        else {
            return nil
        }
        var v = i + 2
        if isBlank(b[v]) { v += 1 }
        var quote: UInt8 = 0
        if v < b.count && (b[v] == UInt8(ascii: "'") || b[v] == UInt8(ascii: "\"")) { quote = b[v]; v += 1 }
        var e = v
        while e < b.count && (quote == 0 ? !isSpace(b[e]) : b[e] != quote && b[e] != UInt8(ascii: "\n")) {
            e += 1
        }
        guard e > v, b[v] != UInt8(ascii: "-"), !SecretFields.isPlaceholder(b, v..<e),
              !SecretFields.isNotASecret(b, v..<e, context: quote == 0 ? .unquoted : .quoted)
        else { return nil }
        return Finding(start: v, end: e, kind: .password)
    }

    /// `Basic <base64>` whose decoding is `user:password`.
    static func scanBasic(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        var j = i + 5
        guard j < b.count, isBlank(b[j]) else { return nil }
        while j < b.count && isBlank(b[j]) { j += 1 }
        let start = j
        while j < b.count, isAlnum(b[j]) || b[j] == UInt8(ascii: "+") || b[j] == UInt8(ascii: "/") {
            j += 1
        }
        while j < b.count && b[j] == UInt8(ascii: "=") { j += 1 }
        guard j - start >= 8, endsWord(b, j), let decoded = Base64.decode(b[start..<j]),
              decoded.contains(UInt8(ascii: ":")),
              decoded.allSatisfy({ ($0 >= 0x20 && $0 < 0x7F) || $0 >= 0x80 })
        else { return nil }
        return Finding(start: start, end: j, kind: .basicAuth)
    }

    /// Three (or five, for JWE) base64url segments, the first starting `eyJ` (`{"`).
    static func scanJWT(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        func segment(_ from: Int) -> Int {
            var j = from
            while j < b.count && TokenCharacters.base64url.contains(b[j]) { j += 1 }
            return j
        }
        let headerEnd = segment(i)
        guard headerEnd - i >= 10, headerEnd < b.count, b[headerEnd] == UInt8(ascii: ".") else { return nil }
        let payloadEnd = segment(headerEnd + 1)
        guard payloadEnd - headerEnd - 1 >= 10, payloadEnd < b.count,
              b[payloadEnd] == UInt8(ascii: ".") else { return nil }
        var end = segment(payloadEnd + 1)
        var segments = 3
        while segments < 5, end < b.count, b[end] == UInt8(ascii: "."), end + 1 < b.count,
              TokenCharacters.base64url.contains(b[end + 1]) {
            end = segment(end + 1)
            segments += 1
        }
        return Finding(start: i, end: end, kind: .jwt)
    }

    /// `hooks.slack.com/services/T.../B.../...`: the path after the service name is the secret.
    static func scanSlackWebhook(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        let base = i + 16
        for service: StaticString in ["services/", "workflows/", "triggers/"] where b.has(service, at: base) {
            return scanPath(b, from: base + service.utf8CodeUnitCount, minimum: 10, kind: .slackWebhook)
        }
        return nil
    }

    static func scanPath(
        _ b: UnsafeBufferPointer<UInt8>, from start: Int, minimum: Int, kind: RedactionKind
    ) -> Finding? {
        var j = start
        while j < b.count && (isWordByte(b[j]) || b[j] == UInt8(ascii: "/") || b[j] == UInt8(ascii: "-")) {
            j += 1
        }
        guard j - start >= minimum, !SecretFields.isPlaceholder(b, start..<j) else { return nil }
        return Finding(start: start, end: j, kind: kind)
    }

    /// Country code, check digits and the country's length of letters and digits, optionally in
    /// groups separated by single spaces; mod 97 must give 1.
    static func scanIBAN(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        guard i + 4 <= b.count, isUpper(b[i + 1]), isDigit(b[i + 2]), isDigit(b[i + 3]),
              let length = RedactionChecks.ibanLength(b[i], b[i + 1]) else { return nil }
        var chars: [UInt8] = []
        chars.reserveCapacity(length)
        var j = i
        while j < b.count && chars.count < length {
            let c = b[j]
            if isUpper(c) || isDigit(c) {
                chars.append(c)
            } else if c == UInt8(ascii: " ") && j + 1 < b.count && (isUpper(b[j + 1]) || isDigit(b[j + 1])) {
                // a group separator
            } else {
                break
            }
            j += 1
        }
        guard chars.count == length, endsWord(b, j), RedactionChecks.ibanChecksumValid(chars[...]) else {
            return nil
        }
        return Finding(start: i, end: j, kind: .iban)
    }

    // MARK: Numbers

    static func scanNumber(_ b: UnsafeBufferPointer<UInt8>, at i: Int, config: BuiltInConfig) -> Finding? {
        if let f = config.allows(scanTelegramBotToken(b, at: i)) { return f }
        if config.ssn, let f = scanSSN(b, at: i) { return f }
        if config.phone, let f = scanUSPhone(b, at: i) { return f }
        if config.creditCard, let f = scanCard(b, at: i) { return f }
        if config.phone && b[i] == UInt8(ascii: "0"), let f = scanZeroPrefixedPhone(b, at: i) { return f }
        return nil
    }

    @inline(__always) static func digits(_ b: UnsafeBufferPointer<UInt8>, _ i: Int, _ count: Int) -> Bool {
        guard i + count <= b.count else { return false }
        for k in 0..<count where !isDigit(b[i + k]) { return false }
        return true
    }

    /// Ends a digit group: not followed by a letter, digit, or a separator and more digits.
    @inline(__always) static func endsNumber(_ b: UnsafeBufferPointer<UInt8>, _ j: Int) -> Bool {
        guard j < b.count else { return true }
        let c = b[j]
        if isWordByte(c) { return false }
        if (c == UInt8(ascii: "-") || c == UInt8(ascii: ".")) && j + 1 < b.count && isDigit(b[j + 1]) {
            return false
        }
        return true
    }

    /// `ddd-dd-dddd` or `ddd.dd.dddd` outside the never-issued ranges; with spaces or no
    /// separator only after `SSN` or `social security`.
    static func scanSSN(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        guard digits(b, i, 3), i + 9 <= b.count else { return nil }
        let sep = b[i + 3]
        let end: Int
        if sep == UInt8(ascii: "-") || sep == UInt8(ascii: ".") || sep == UInt8(ascii: " ") {
            guard i + 11 <= b.count, digits(b, i + 4, 2), b[i + 6] == sep, digits(b, i + 7, 4),
                  endsNumber(b, i + 11) else { return nil }
            if sep == UInt8(ascii: " ") && !hasContext(b, before: i, SSNContext.words) { return nil }
            end = i + 11
        } else {
            guard digits(b, i, 9), endsNumber(b, i + 9), hasContext(b, before: i, SSNContext.words) else {
                return nil
            }
            end = i + 9
        }
        let d = b[i..<end].filter(isDigit)
        guard RedactionChecks.ssnParts(d) else { return nil }
        return Finding(start: i, end: end, kind: .ssn)
    }

    /// `ddd-ddd-dddd` or `ddd.ddd.dddd` (one separator throughout), optionally after `1-`, with
    /// area code and exchange starting 2–9. Space-separated bare numbers are not phones: too many
    /// lists of numbers look like them.
    static func scanUSPhone(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        var j = i
        if b[j] == UInt8(ascii: "1"), j + 2 < b.count,
           b[j + 1] == UInt8(ascii: "-") || b[j + 1] == UInt8(ascii: "."), isDigit(b[j + 2]) {
            j += 2
        }
        guard digits(b, j, 3), j + 12 <= b.count else { return nil }
        let sep = b[j + 3]
        guard sep == UInt8(ascii: "-") || sep == UInt8(ascii: "."), digits(b, j + 4, 3), b[j + 7] == sep,
              digits(b, j + 8, 4), b[j] >= UInt8(ascii: "2"), b[j + 4] >= UInt8(ascii: "2"),
              endsNumber(b, j + 12) else { return nil }
        return Finding(start: i, end: j + 12, kind: .phone)
    }

    /// `(ddd) ddd-dddd`, `(ddd)ddd-dddd`, `(ddd) ddd.dddd`.
    static func scanParenthesizedPhone(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        if i + 1 < b.count && b[i + 1] == UInt8(ascii: "0") { return scanNationalPhone(b, at: i) }
        guard digits(b, i + 1, 3), i + 5 < b.count, b[i + 4] == UInt8(ascii: ")"),
              b[i + 1] >= UInt8(ascii: "2") else { return nil }
        var j = i + 5
        if b[j] == UInt8(ascii: " ") { j += 1 }
        guard digits(b, j, 3), j + 8 <= b.count, b[j] >= UInt8(ascii: "2") else { return nil }
        let sep = b[j + 3]
        guard sep == UInt8(ascii: "-") || sep == UInt8(ascii: ".") || sep == UInt8(ascii: " "),
              digits(b, j + 4, 4), endsNumber(b, j + 8) else { return nil }
        return Finding(start: i, end: j + 8, kind: .phone)
    }

    /// `+` and 8–15 digits (E.164) in groups separated by single spaces, dashes, dots or
    /// parentheses: `+1 (415) 555-0132`, `+44 20 7946 0958`, `+4915112345678`.
    static func scanInternationalPhone(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        if b[i] == UInt8(ascii: "+") && i > 0 && (isWordByte(b[i - 1]) || b[i - 1] == UInt8(ascii: "+")) {
            return nil
        }
        // `(+44) 20 7946 0958`: the country code in parentheses.
        if b[i] == UInt8(ascii: "+") && i > 0 && b[i - 1] == UInt8(ascii: "(") {
            var k = i + 1
            while k < b.count && isDigit(b[k]) && k - i <= 4 { k += 1 }
            guard k > i + 1, k < b.count, b[k] == UInt8(ascii: ")") else { return nil }
            var rest = k + 1
            if rest < b.count && (b[rest] == UInt8(ascii: " ") || b[rest] == UInt8(ascii: "-")) { rest += 1 }
            guard rest < b.count, isDigit(b[rest]), var f = scanInternationalPhone(b, at: rest - 1) else {
                return nil
            }
            let digits = b[(i + 1)..<f.end].filter(isDigit).count
            guard digits <= 15 else { return nil }
            f.start = i - 1
            return f
        }
        guard i + 1 < b.count, isDigit(b[i + 1]), b[i + 1] != UInt8(ascii: "0") else { return nil }
        var j = i + 1
        var count = 0, firstGroup = 0, separators = 0
        var open = false
        while j < b.count {
            let c = b[j]
            if isDigit(c) {
                count += 1
                if separators == 0 { firstGroup += 1 }
                j += 1
            } else if (c == UInt8(ascii: " ") || c == UInt8(ascii: "-") || c == UInt8(ascii: "."))
                        && j + 1 < b.count && (isDigit(b[j + 1]) || b[j + 1] == UInt8(ascii: "("))
                        && isDigit(b[j - 1]) || (c == UInt8(ascii: " ") && b[j - 1] == UInt8(ascii: ")")
                                                 && j + 1 < b.count && isDigit(b[j + 1])) {
                separators += 1
                j += 1
            } else if c == UInt8(ascii: "(") && !open && j + 1 < b.count && isDigit(b[j + 1]) {
                open = true
                separators += 1
                j += 1
            } else if c == UInt8(ascii: ")") && open {
                open = false
                j += 1
            } else {
                break
            }
        }
        guard !open, (8...15).contains(count), separators == 0 || firstGroup <= 4, endsNumber(b, j) else {
            return nil
        }
        return Finding(start: i, end: j, kind: .phone)
    }

    /// `+` and the phone number after it, for `00`-prefixed international numbers.
    static func scanInternationalPhone(
        _ b: UnsafeBufferPointer<UInt8>, afterPrefix i: Int, start: Int
    ) -> Finding? {
        guard var f = scanInternationalPhone(b, at: i) else { return nil }
        f.start = start
        return f
    }

    /// 13–19 digits, either unbroken or in card-shaped groups (4-4-4-4[-3], 4-6-5, 4-6-4) with one
    /// kind of separator, with a known issuer prefix and a valid Luhn digit.
    static func scanCard(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        // `AT00 4111 1111 1111 1111`: an IBAN's digits are judged by its own mod-97 check
        // (``scanIBAN(_:at:)``), never read as a card because they pass Luhn.
        if followsIBANPrefix(b, i) { return nil }
        // Most digit runs are short: count before allocating anything.
        var probe = i, probeDigits = 0
        while probe < b.count && probeDigits < 13 {
            if isDigit(b[probe]) {
                probeDigits += 1
            } else if !((b[probe] == UInt8(ascii: " ") || b[probe] == UInt8(ascii: "-"))
                        && probe + 1 < b.count && isDigit(b[probe + 1]) && isDigit(b[probe - 1])) {
                break
            }
            probe += 1
        }
        guard probeDigits >= 13 else { return nil }
        var groups: [(end: Int, digits: Int)] = []
        var j = i
        var separator: UInt8 = 0
        var total = 0
        while true {
            let start = j
            while j < b.count && isDigit(b[j]) { j += 1 }
            total += j - start
            groups.append((j, j - start))
            guard total <= 40, j + 1 < b.count, isDigit(b[j + 1]) else { break }
            let c = b[j]
            guard c == UInt8(ascii: " ") || c == UInt8(ascii: "-") else { break }
            if separator == 0 { separator = c } else if c != separator { break }
            j += 1
        }
        guard total >= 13 else { return nil }
        var used = groups.count
        if total > 19 {
            // "4111 1111 1111 1111 2030": a card followed by more digits, only with spaces.
            guard separator == UInt8(ascii: " ") else { return nil }
            while used > 1 && groups[0..<used].reduce(0, { $0 + $1.digits }) > 19 { used -= 1 }
        }
        let candidate = groups[0..<used]
        let count = candidate.reduce(0) { $0 + $1.digits }
        guard count >= 13, count <= 19 else { return nil }
        let end = candidate.last!.end
        // The whole run must end here: not in a word, not before a decimal part.
        if used == groups.count {
            guard endsWord(b, end) else { return nil }
            if end + 1 < b.count && b[end] == UInt8(ascii: ".") && isDigit(b[end + 1]) { return nil }
        }
        var grouped = false
        if used > 1 {
            let sizes = candidate.map(\.digits)
            let fours = sizes.dropLast().allSatisfy { $0 == 4 } && (1...4).contains(sizes.last!)
            // American Express and Diners Club 4-6-5 and 4-6-4; UATP 4-5-6.
            let other = sizes == [4, 6, 5] || sizes == [4, 6, 4] || sizes == [4, 5, 6]
            guard fours || other else { return nil }
            grouped = true
        }
        var digitsOnly: [UInt8] = []
        digitsOnly.reserveCapacity(count)
        for k in i..<end where isDigit(b[k]) { digitsOnly.append(b[k]) }
        guard RedactionChecks.luhn(digitsOnly) else { return nil }
        // A known issuer, or (for UATP's 1, which epoch times also start with) a card's grouping;
        // any other number that passes Luhn only where the text says card.
        let issuer = RedactionChecks.isCardDigits(digitsOnly[...])
            || (grouped && count == 15 && digitsOnly[0] == UInt8(ascii: "1"))
        guard issuer || hasContext(b, before: i, CardContext.words) else { return nil }
        return Finding(start: i, end: end, kind: .creditCard)
    }

    /// Whether the digits at `i` continue a word shaped like an IBAN's start (country code and two
    /// check digits) earlier in the same run of letters, digits and single spaces.
    static func followsIBANPrefix(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var k = i
        while k > 0 && i - k < 34 && (isUpper(b[k - 1]) || isDigit(b[k - 1]) || b[k - 1] == UInt8(ascii: " ")) {
            k -= 1
        }
        var s = k
        while s + 4 <= i {
            if isUpper(b[s]) && (s == 0 || !isAlnum(b[s - 1])) && isUpper(b[s + 1]) && isDigit(b[s + 2])
                && isDigit(b[s + 3]) && RedactionChecks.ibanLength(b[s], b[s + 1]) != nil {
                return true
            }
            s += 1
        }
        return false
    }

    // MARK: Emails, URLs, keys, fields

    /// `local@domain.tld`, found at the `@`: the local part is read backwards, never into an
    /// earlier finding. File names like `icon@2x.png` and `git@host` remotes are not emails.
    static func scanEmail(_ b: UnsafeBufferPointer<UInt8>, at sign: Int, lowerLimit: Int) -> Finding? {
        let at = sign
        var s = at
        let floor = max(lowerLimit, at - 64)
        while s > floor {
            let c = b[s - 1]
            // Bytes of non-ASCII letters too (`jörg.müller@`), as RFC 6531 allows.
            guard isAlnum(c) || c >= 0x80 || c == UInt8(ascii: ".") || c == UInt8(ascii: "_")
                    || c == UInt8(ascii: "%") || c == UInt8(ascii: "+") || c == UInt8(ascii: "-") else { break }
            s -= 1
        }
        // Never from the middle of a character cut at the 64-byte floor.
        while s < at && b[s] & 0xC0 == 0x80 { s += 1 }
        // `origin\tgit@…` in JSON nested in a string: the `t` of `\t` is the escape's, not the
        // address's (the scanners read `\t`, `\n` and `\r` in place).
        if s >= 1 && s < at && b[s - 1] == UInt8(ascii: "\\")
            && (b[s] == UInt8(ascii: "t") || b[s] == UInt8(ascii: "n") || b[s] == UInt8(ascii: "r")) {
            s += 1
        }
        while s < at && !isAlnum(b[s]) && b[s] < 0x80 { s += 1 }
        guard s < at else { return nil }
        if s >= 2 && b[s - 1] == UInt8(ascii: "/") && b[s - 2] == UInt8(ascii: "/") { return nil }
        if at - s == 3 && b.has("git", at: s) { return nil }
        var j = at + 1
        var labels = 0
        var lastLabel = j..<j
        while j < b.count {
            let start = j
            // `bücher.de`: an internationalized label.
            while j < b.count && (isAlnum(b[j]) || b[j] == UInt8(ascii: "-") || b[j] >= 0x80) { j += 1 }
            guard j > start else { break }
            labels += 1
            lastLabel = start..<j
            guard j + 1 < b.count, b[j] == UInt8(ascii: "."), isAlnum(b[j + 1]) else { break }
            j += 1
        }
        // `ana@example.org。`: text after the top-level domain is not part of it.
        if let nonASCII = b[lastLabel].firstIndex(where: { $0 >= 0x80 }), nonASCII > lastLabel.lowerBound {
            lastLabel = lastLabel.lowerBound..<nonASCII
        }
        guard labels >= 2, lastLabel.count >= 2, lastLabel.count <= 24, b[lastLabel].allSatisfy(isAlpha),
              !isFileExtension(b, lastLabel) else { return nil }
        return Finding(start: s, end: lastLabel.upperBound, kind: .email)
    }

    static func isFileExtension(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        for ext: StaticString in ["png", "jpg", "jpeg", "gif", "svg", "webp", "pdf", "js", "ts", "css",
                                  "json", "swift", "py", "txt", "md", "html", "lock", "log"]
        where r.count == ext.utf8CodeUnitCount && b.hasIgnoringCase(ext, at: r.lowerBound) {
            return true
        }
        return false
    }

    /// `scheme://user:password@host`: the password goes, the user and host stay.
    static func scanURLCredential(_ b: UnsafeBufferPointer<UInt8>, at colon: Int) -> Finding? {
        let start = colon + 3
        var j = start
        var passwordStart: Int?
        while j < b.count && j - start < 512 {
            let c = b[j]
            if c == UInt8(ascii: "@") {
                guard let p = passwordStart, j > p, !SecretFields.isPlaceholder(b, p..<j) else { return nil }
                return Finding(start: p, end: j, kind: .urlCredential)
            }
            if isSpace(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: "?") || c == UInt8(ascii: "#")
                || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: "<")
                || c == UInt8(ascii: ">") || c == UInt8(ascii: "\\") || c == UInt8(ascii: "[")
                || c == UInt8(ascii: "]") {
                return nil
            }
            if c == UInt8(ascii: ":") && passwordStart == nil { passwordStart = j + 1 }
            j += 1
        }
        return nil
    }

    /// `-----BEGIN ... PRIVATE KEY-----` through its `-----END ...-----` line, or through the end
    /// of the base64 body when the block was cut off.
    static func scanPrivateKey(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        guard b.has("-----BEGIN ", at: i) else { return nil }
        var j = i + 11
        while j < b.count && j - i < 80 && (isUpper(b[j]) || b[j] == UInt8(ascii: " ")) { j += 1 }
        guard b.has("-----", at: j), b.containsIgnoringCase("private key", in: (i + 11)..<j) else {
            return nil
        }
        let bodyStart = j + 5
        if let end = b.firstIndex(of: "-----END ", from: bodyStart),
           let close = b.firstIndex(of: "-----", from: end + 9) {
            // A header and a footer with nothing between them is documentation, not a key.
            guard hasKeyMaterial(b, bodyStart..<end) else { return nil }
            return Finding(start: i, end: close + 5, kind: .privateKey)
        }
        // Cut off before its END line: keep taking lines that look like the body (base64, or
        // `Proc-Type: 4,ENCRYPTED` headers, or one blank line), so prose after it stays. A quote
        // ends the body with its line: the text was a quoted or JSON string, cut off.
        var k = bodyStart
        var lineStart = bodyStart
        var blankLines = 0
        while true {
            var e = lineStart
            while e < b.count && b[e] != UInt8(ascii: "\n") && b[e] != UInt8(ascii: "\r")
                    && b[e] != UInt8(ascii: "\"") && b[e] != UInt8(ascii: "'")
                    && !(b[e] == UInt8(ascii: "\\") && e + 1 < b.count
                         && (b[e + 1] == UInt8(ascii: "n") || b[e + 1] == UInt8(ascii: "r"))) {
                e += 1
            }
            let line = lineStart..<e
            if line.isEmpty {
                // The line break after the BEGIN line is not a blank line.
                if lineStart > bodyStart { blankLines += 1 }
                if blankLines > 1 { break }
            } else if isPEMBodyLine(b, line) {
                k = e
            } else {
                break
            }
            guard e < b.count, b[e] != UInt8(ascii: "\""), b[e] != UInt8(ascii: "'") else { break }
            // One line break: `\n`, `\r\n`, or their escaped forms.
            lineStart = e + (b[e] == UInt8(ascii: "\\") ? 2 : 1)
            if b.has("\n", at: lineStart) && b[e] == UInt8(ascii: "\r") { lineStart += 1 }
            if b.has("\\n", at: lineStart) && b.has("\\r", at: e) { lineStart += 2 }
        }
        guard hasKeyMaterial(b, bodyStart..<k) else { return nil }
        return Finding(start: i, end: k, kind: .privateKey)
    }

    /// Whether a PEM body holds at least 16 base64 characters outside its `Name: value` headers,
    /// rather than nothing, `...` or a placeholder line.
    static func hasKeyMaterial(_ b: UnsafeBufferPointer<UInt8>, _ body: Range<Int>) -> Bool {
        var count = 0
        var k = body.lowerBound
        while k < body.upperBound {
            // Lines end at a line break or at an escaped one (`\n` in JSON-escaped text).
            var e = k
            while e < body.upperBound && b[e] != UInt8(ascii: "\n")
                    && !(b[e] == UInt8(ascii: "\\") && e + 1 < body.upperBound && isAlpha(b[e + 1])) {
                e += 1
            }
            let line = k..<e
            if !b[line].contains(UInt8(ascii: ":")) && !SecretFields.isPlaceholder(b, line) {
                for c in b[line] where isAlnum(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") {
                    count += 1
                }
            }
            k = e < body.upperBound && b[e] == UInt8(ascii: "\\") ? e + 2 : e + 1
        }
        return count >= 16
    }

    /// A base64 line of a PEM body, or a `Proc-Type: 4,ENCRYPTED`-style header.
    static func isPEMBodyLine(_ b: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) -> Bool {
        var header = false
        for k in line where b[k] == UInt8(ascii: ":") && k + 1 < line.upperBound
            && b[k + 1] == UInt8(ascii: " ") {
            header = true
        }
        for k in line {
            let c = b[k]
            if isAlnum(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=") {
                continue
            }
            if header && (c == UInt8(ascii: " ") || c == UInt8(ascii: ",") || c == UInt8(ascii: "-")
                          || c == UInt8(ascii: ":")) { continue }
            return false
        }
        return true
    }
}

/// A strict base64 decoder (standard or URL alphabet) for `Basic` credentials and token segments:
/// nil on any character outside the alphabets.
enum Base64 {
    static func decode(_ input: Slice<UnsafeBufferPointer<UInt8>>) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(input.count * 3 / 4)
        var buffer: UInt32 = 0
        var bits = 0
        for c in input {
            let value: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = UInt32(c - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt32(c - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            case UInt8(ascii: "="): continue
            default: return nil
            }
            buffer = buffer << 6 | value
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bits)))
            }
        }
        return out
    }
}
