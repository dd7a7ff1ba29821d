/// How a field's value was written, which decides how much it has to look like a secret.
enum ValueContext: Sendable {
    /// Between quotes, an XML element or a JSON string: a literal.
    case quoted
    /// After `=` without quotes: a literal in a config file, or code in a program.
    case unquoted
    /// After `name:` without quotes, as in a log line: prose as often as not.
    case prose
}

/// Named values: `name=value`, `name: value`, `"name": "value"`, `name := "value"`,
/// `'name' => 'value'`, `ENV["NAME"] = "value"`, `<Name>value</Name>`, and `.netrc` lines.
extension TextScanner {
    /// A field whose name says secret, found at its separator (`=` or `:`). The name is read
    /// backwards from the separator, never into an earlier finding.
    static func scanField(
        _ b: UnsafeBufferPointer<UInt8>, separator s: Int, lowerLimit: Int, config: BuiltInConfig
    ) -> Finding? {
        let n = b.count
        // The full-width colon (`：`, three bytes) separates as `:` does.
        let wide = b[s] == 0xEF
        let sep = wide ? UInt8(ascii: ":") : b[s]
        var valueStart = s + (wide ? 3 : 1)
        if sep == UInt8(ascii: ":") {
            // `::` is a path, `:=` is read at its `=`.
            if s + 1 < n && (b[s + 1] == UInt8(ascii: ":") || b[s + 1] == UInt8(ascii: "=")) { return nil }
            if s > 0 && b[s - 1] == UInt8(ascii: ":") { return nil }
        } else {
            if s > 0 {
                let p = b[s - 1]
                // `!= "hunter2"`, `!== "hunter2"`: a comparison with a literal holds one too; the
                // name is read before the `!`.
                if p == UInt8(ascii: "!") && s >= 2 {
                    var q = s + 1
                    if q < n && b[q] == UInt8(ascii: "=") { q += 1 }
                    while q < n && isBlank(b[q]) { q += 1 }
                    guard q < n, b[q] == UInt8(ascii: "\"") || b[q] == UInt8(ascii: "'"),
                          let name = fieldName(b, before: s - 1, lowerLimit: lowerLimit, sep: sep) else { return nil }
                    let field = SecretFields.classify(
                        UnsafeBufferPointer(rebasing: b[name.range]), extraNames: config.extraSecretNames)
                    guard field != .ordinary, let (value, _) = fieldValue(b, from: q, field: field) else {
                        return nil
                    }
                    return SecretFields.redaction(of: field, in: b, value, config: config, context: .quoted)
                }
                // `<=`, `>=`, `==`: read at the first byte of the operator.
                if p == UInt8(ascii: "!") || p == UInt8(ascii: "<") || p == UInt8(ascii: ">")
                    || p == UInt8(ascii: "=")
                {
                    return nil
                }
            }
            if s + 1 < n {
                let next = b[s + 1]
                if next == UInt8(ascii: "~") { return nil }
                if next == UInt8(ascii: ">") { valueStart = s + 2 }  // 'name' => 'value'
                if next == UInt8(ascii: "=") {
                    // A comparison with a literal: `password == "hunter2"` still holds one.
                    valueStart = s + 2
                    if valueStart < n && b[valueStart] == UInt8(ascii: "=") { valueStart += 1 }
                    var q = valueStart
                    while q < n && isBlank(b[q]) { q += 1 }
                    guard q < n, b[q] == UInt8(ascii: "\"") || b[q] == UInt8(ascii: "'") else { return nil }
                }
            }
        }
        guard let name = fieldName(b, before: s, lowerLimit: lowerLimit, sep: sep) else { return nil }
        var field = SecretFields.classify(
            UnsafeBufferPointer(rebasing: b[name.range]),
            extraNames: config.extraSecretNames)
        if field == .ordinary {
            // `<add key="ApiKey" value="…"/>`, `<property name="password" value="…"/>`.
            guard sep == UInt8(ascii: "="), name.range.count == 5, b.has("value", at: name.range.lowerBound),
                let named = attributeName(b, before: name.range.lowerBound, lowerLimit: lowerLimit)
            else {
                return nil
            }
            field = SecretFields.classify(
                UnsafeBufferPointer(rebasing: b[named]), extraNames: config.extraSecretNames)
            if field == .ordinary { return nil }
        }
        // `SMTP_PASSWORD=Plum.Harbor4417` at a line's start, as in a `.env` file or a shell: the
        // value is everything up to the blank, a literal, never code (`&`, `(`, `.` are its own).
        if sep == UInt8(ascii: "="), valueStart == s + 1, !name.quoted, name.range.upperBound == s,
           isEnvironmentName(b, name.range), startsLine(b, name.range.lowerBound), valueStart < n,
           !isSpace(b[valueStart]), b[valueStart] != UInt8(ascii: "\""), b[valueStart] != UInt8(ascii: "'"),
           b[valueStart] != UInt8(ascii: "`") {
            var e = valueStart
            while e < n && !isSpace(b[e]) && e - valueStart < 1024 { e += 1 }
            return SecretFields.redaction(of: field, in: b, valueStart..<e, config: config, context: .quoted)
        }
        // A header inside a quoted argument (`-H 'Authorization: Bearer …'`) ends at its quote.
        let before = name.range.lowerBound > 0 ? b[name.range.lowerBound - 1] : 0
        let enclosing: UInt8 = before == UInt8(ascii: "'") || before == UInt8(ascii: "\"") ? before : 0
        guard let (value, quoted) = fieldValue(b, from: valueStart, field: field, enclosingQuote: enclosing)
        else {
            return nil
        }
        // `auth: bearer <token>`: the scheme is not the secret; the scanner reads it as a scheme.
        if !quoted, value.upperBound < n, isBlank(b[value.upperBound]),
           (value.count == 6 && b.hasIgnoringCase("bearer", at: value.lowerBound))
            || (value.count == 5 && b.hasIgnoringCase("basic", at: value.lowerBound)) {
            return nil
        }
        // `EVP_pkey_st = struct_EVP_pkey_st`: a value that spells its own name refers to it.
        if !quoted, value.count > name.range.count, name.range.count >= 4,
           spells(b, value, name.range) {
            return nil
        }
        // `com.example.token:token-utils-2.3.1`: a dotted group, a colon and a versioned artifact.
        if sep == UInt8(ascii: ":"), !quoted, valueStart < n, !isBlank(b[valueStart]),
           b[name.range].contains(UInt8(ascii: ".")), ValueShapes.endsInVersion(b, value) {
            return nil
        }
        // `group:artifact:version` coordinates, ARNs, `resolve:secretsmanager:Name:Key` paths: no
        // space after the colon and another colon in the value.
        if sep == UInt8(ascii: ":") && !quoted && valueStart < n && !isBlank(b[valueStart])
            && b[value].contains(UInt8(ascii: ":"))
        {
            return nil
        }
        // After `name:` mid-line, as in a log message, a value is prose as often as not; a name
        // that starts its line is a config key (YAML, INI, headers).
        let context: ValueContext =
            quoted
            ? .quoted
            : (!name.quoted && sep == UInt8(ascii: ":") && !startsLine(b, name.range.lowerBound)
                ? .prose : .unquoted)
        return SecretFields.redaction(of: field, in: b, value, config: config, context: context)
    }

    /// `std::string secret("value");`, `String password("value")`: a variable named for a secret,
    /// declared with a type and constructed from a literal, found at the `(`.
    static func scanDeclaredLiteral(
        _ b: UnsafeBufferPointer<UInt8>, paren: Int, lowerLimit: Int, config: BuiltInConfig
    ) -> Finding? {
        var k = paren
        while k > lowerLimit && isWordByte(b[k - 1]) && paren - k <= 64 { k -= 1 }
        let name = k..<paren
        guard name.count >= 2, k > lowerLimit, isBlank(b[k - 1]) else { return nil }
        var t = k - 1
        while t > lowerLimit && isBlank(b[t]) { t -= 1 }
        // A type before the name (`string`, `std::string`, `char*`, `vector<char>`), not a keyword
        // that starts an expression (`return secret("x")` calls a function).
        guard isWordByte(b[t]) || b[t] == UInt8(ascii: ">") || b[t] == UInt8(ascii: "*")
                || b[t] == UInt8(ascii: "&") else { return nil }
        var typeStart = t
        while typeStart > lowerLimit && isWordByte(b[typeStart - 1]) { typeStart -= 1 }
        let type = typeStart..<(t + 1)
        for keyword: StaticString in ["return", "new", "await", "throw", "if", "while", "and", "or", "not", "in",
                                      "is", "else", "case", "yield", "print", "echo", "def", "fn", "func",
                                      "function", "call", "raise", "assert"]
        where type.count == keyword.utf8CodeUnitCount && b.has(keyword, at: type.lowerBound) {
            return nil
        }
        let field = SecretFields.classify(UnsafeBufferPointer(rebasing: b[name]), extraNames: config.extraSecretNames)
        guard case .secret = field, let (value, _) = fieldValue(b, from: paren + 1, field: field),
              value.upperBound + 1 < b.count, b[value.upperBound + 1] == UInt8(ascii: ")") else { return nil }
        return SecretFields.redaction(of: field, in: b, value, config: config, context: .quoted)
    }

    /// `my aws secret key is <value>`, ``your `STRIPE_KEY` is set to `<value>` ``: up to three words
    /// that name a secret, `is` or `is set to`, and a value that looks random (prose has no operator).
    static func scanProseValue(_ b: UnsafeBufferPointer<UInt8>, at i: Int, config: BuiltInConfig) -> Finding? {
        guard b.has("is ", at: i), i >= 2 else { return nil }
        var k = i - 1
        var skipped = 0
        while k >= 0 && skipped < 3 && (isBlank(b[k]) || b[k] == UInt8(ascii: "`") || b[k] == UInt8(ascii: "\"")
                                        || b[k] == UInt8(ascii: "'")) {
            k -= 1
            skipped += 1
        }
        let nameEnd = k + 1
        var words = 0
        while k >= 0 && nameEnd - k <= 48 {
            if isWordByte(b[k]) || b[k] == UInt8(ascii: "-") { k -= 1; continue }
            if b[k] == UInt8(ascii: " ") && words < 2 && k > 0 && isWordByte(b[k - 1]) {
                words += 1
                k -= 1
                continue
            }
            break
        }
        let name = (k + 1)..<nameEnd
        guard name.count >= 3 else { return nil }
        let field = SecretFields.classify(UnsafeBufferPointer(rebasing: b[name]), extraNames: config.extraSecretNames)
        switch field {
        case .secret, .entropyGated: break
        default: return nil
        }
        var v = i + 3
        if b.has("set to ", at: v) { v += 7 }
        while v < b.count && isBlank(b[v]) { v += 1 }
        if v < b.count && (b[v] == UInt8(ascii: "`") || b[v] == UInt8(ascii: "\"") || b[v] == UInt8(ascii: "'")) {
            v += 1
        }
        var e = v
        while e < b.count && e - v <= 1024 && !isSpace(b[e]) && b[e] != UInt8(ascii: "`")
                && b[e] != UInt8(ascii: "\"") && b[e] != UInt8(ascii: "'") && b[e] != UInt8(ascii: ",") {
            e += 1
        }
        while e > v && (b[e - 1] == UInt8(ascii: ".") || b[e - 1] == UInt8(ascii: ";")) { e -= 1 }
        let value = v..<e
        guard !SecretFields.isPlaceholder(b, value),
              SecretFields.looksRandom(b, value, threshold: config.entropyThreshold,
                                       minimumLength: config.entropyMinimumLength) else { return nil }
        let kind: RedactionKind
        switch field {
        case .secret(let named): kind = named
        default: kind = .secret
        }
        return Finding(start: v, end: e, kind: SecretFields.specificKind(b, value, config: config) ?? kind)
    }

    /// `define('DB_PASSWORD', 'value')`, `setenv("API_KEY", "value")`, `config.put("token", "value")`:
    /// a setter's quoted name and quoted value, found at the comma between them.
    static func scanSetterArgument(
        _ b: UnsafeBufferPointer<UInt8>, comma: Int, lowerLimit: Int, config: BuiltInConfig
    ) -> Finding? {
        let quote = b[comma - 1]
        var v = comma + 1
        while v < b.count && isBlank(b[v]) { v += 1 }
        guard v < b.count, b[v] == UInt8(ascii: "\"") || b[v] == UInt8(ascii: "'") else { return nil }
        var open = comma - 2
        while open > lowerLimit && comma - open < 66 && b[open] != quote && b[open] != UInt8(ascii: "\n") {
            open -= 1
        }
        guard open > lowerLimit, b[open] == quote, open >= 2 else { return nil }
        var k = open - 1
        while k > lowerLimit && isBlank(b[k]) { k -= 1 }
        guard b[k] == UInt8(ascii: "(") else { return nil }
        let callEnd = k
        while k > lowerLimit && isWordByte(b[k - 1]) { k -= 1 }
        let call = k..<callEnd
        var known = false
        for setter: StaticString in [
            "define", "setenv", "putenv", "setdefault", "setproperty", "put", "set",
            "setitem", "setstring", "store", "save", "add",
            // `os.getenv("API_TOKEN", "<default>")`: a default written in is a literal secret.
            "getenv", "get", "getproperty", "fetch",
        ]
        where call.count == setter.utf8CodeUnitCount && b.hasIgnoringCase(setter, at: call.lowerBound) {
            known = true
        }
        guard known else { return nil }
        let field = SecretFields.classify(
            UnsafeBufferPointer(rebasing: b[(open + 1)..<(comma - 1)]),
            extraNames: config.extraSecretNames)
        guard field != .ordinary, let (value, _) = fieldValue(b, from: v, field: field) else { return nil }
        return SecretFields.redaction(of: field, in: b, value, config: config, context: .quoted)
    }

    /// The name before a separator: word bytes, `-` and `.`, after optional blanks, a closing
    /// quote (with its backslash in escaped JSON), a `]` of a subscript and the `:` of `:=`.
    /// Nil for a shell default (`${NAME:-value}`, `${NAME:=value}`).
    static func fieldName(
        _ b: UnsafeBufferPointer<UInt8>, before s: Int, lowerLimit: Int, sep: UInt8
    ) -> (range: Range<Int>, quoted: Bool)? {
        var k = s - 1
        if sep == UInt8(ascii: "=") && k >= lowerLimit && b[k] == UInt8(ascii: ":") { k -= 1 }
        var blanks = 0
        while k >= lowerLimit && blanks < 3 && isBlank(b[k]) {
            k -= 1
            blanks += 1
        }
        if k >= lowerLimit && b[k] == UInt8(ascii: "]") { k -= 1 }
        var quoted = false
        if k >= lowerLimit && (b[k] == UInt8(ascii: "\"") || b[k] == UInt8(ascii: "'")) {
            quoted = true
            k -= 1
            if k >= lowerLimit && b[k] == UInt8(ascii: "\\") { k -= 1 }
        }
        let nameEnd = k + 1
        // Bytes of non-ASCII letters too: `contraseña`, `пароль`, `密码`.
        while k >= lowerLimit && nameEnd - k <= 65
            && (isWordByte(b[k]) || b[k] == UInt8(ascii: "-") || b[k] == UInt8(ascii: ".") || b[k] >= 0x80)
        {
            k -= 1
        }
        var nameStart = k + 1
        // Never the middle of a character: continuation bytes (10xxxxxx) start nothing.
        while nameStart < nameEnd && b[nameStart] & 0xC0 == 0x80 { nameStart += 1 }
        guard nameEnd - nameStart >= 2, nameEnd - nameStart <= 64 else { return nil }
        if nameStart >= 2 && b[nameStart - 1] == UInt8(ascii: "{") && b[nameStart - 2] == UInt8(ascii: "$") {
            return nil
        }
        return (nameStart..<nameEnd, quoted)
    }

    /// Whether the bytes of `name` occur inside `value`.
    static func spells(_ b: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, _ name: Range<Int>) -> Bool {
        guard name.count > 0, value.count >= name.count else { return false }
        let first = b[name.lowerBound]
        for start in value.lowerBound...(value.upperBound - name.count) where b[start] == first {
            var k = 1
            while k < name.count && b[start + k] == b[name.lowerBound + k] { k += 1 }
            if k == name.count { return true }
        }
        return false
    }

    /// `SMTP_PASSWORD`, `DB_PASS2`: uppercase letters, digits and `_`, as environment variables are
    /// named, starting with a letter.
    static func isEnvironmentName(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard let first = r.first, isUpper(b[first]) else { return false }
        return b[r].allSatisfy { isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "_") }
    }

    /// Whether only indentation, a list dash or `export` stands between `i` and the line's start.
    static func startsLine(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var k = i
        while k > 0 && (isBlank(b[k - 1]) || b[k - 1] == UInt8(ascii: "-")) { k -= 1 }
        // The blanks after `export` were skipped above.
        if k >= 6 && k < i && b.has("export", at: k - 6) { k -= 6 }
        return k == 0 || b[k - 1] == UInt8(ascii: "\n") || b[k - 1] == UInt8(ascii: "\r")
    }

    /// The quoted value of a `key=` or `name=` attribute earlier in the same tag.
    static func attributeName(_ b: UnsafeBufferPointer<UInt8>, before i: Int, lowerLimit: Int) -> Range<Int>?
    {
        var k = i - 1
        while k > lowerLimit && i - k < 200 && b[k] != UInt8(ascii: "<") && b[k] != UInt8(ascii: "\n") {
            if (b[k] == UInt8(ascii: "\"") || b[k] == UInt8(ascii: "'")) && k >= 5
                && b[k - 1] == UInt8(ascii: "=")
                && (b.has("key", at: k - 4) || b.has("name", at: k - 5))
            {
                let quote = b[k]
                var e = k + 1
                while e < i && b[e] != quote { e += 1 }
                return e < i ? (k + 1)..<e : nil
            }
            k -= 1
        }
        return nil
    }

    /// The value after a separator, and whether it was quoted: a quoted string (also with escaped
    /// quotes), an ODBC `{...}` value, or an unquoted run that ends at a blank, a quote, `,` `;`
    /// `&` `|` `<` `>`, or a closing bracket that it did not open itself, so `f(password=x)`
    /// keeps its `)` and `p{a)s]s` stays whole.
    static func fieldValue(
        _ b: UnsafeBufferPointer<UInt8>, from start: Int, field: FieldClass, enclosingQuote: UInt8 = 0
    ) -> (Range<Int>, quoted: Bool)? {
        let n = b.count
        var v = start
        var skipped = 0
        while v < n && skipped < 8 && isBlank(b[v]) {
            v += 1
            skipped += 1
        }
        guard v < n else { return nil }
        let first = b[v]
        if first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || first == UInt8(ascii: "`") {
            var e = v + 1
            while e < n && b[e] != first && b[e] != UInt8(ascii: "\n") {
                if b[e] == UInt8(ascii: "\\") { e += 1 }
                e += 1
            }
            guard e < n, b[e] == first else { return nil }
            // `` `vault read -field=key secret/app` ``: a command whose output is the value.
            if first == UInt8(ascii: "`") && b[(v + 1)..<e].contains(UInt8(ascii: " ")) { return nil }
            return ((v + 1)..<e, true)
        }
        if first == UInt8(ascii: "\\") && v + 1 < n && b[v + 1] == UInt8(ascii: "\"") {
            guard let e = b.firstIndex(of: "\\\"", from: v + 2) else { return nil }
            return ((v + 2)..<e, true)
        }
        if first == UInt8(ascii: "[") { return nil }
        if first == UInt8(ascii: "{") {
            // ODBC quotes a value holding `;` in braces: `Pwd={p;w}`. Anything else is a block.
            guard case .secret = field else { return nil }
            // `{{ .Values.db.password }}` (Helm, Jinja) and `{AppAccessKey}` are templates: a
            // name without a digit is not a secret's value.
            if v + 1 < n && b[v + 1] == UInt8(ascii: "{") { return nil }
            var e = v + 1
            while e < n && b[e] != UInt8(ascii: "}") && b[e] != UInt8(ascii: "\n")
                && b[e] != UInt8(ascii: "\"")
            {
                e += 1
            }
            guard e < n, b[e] == UInt8(ascii: "}"), e > v + 1 else { return nil }
            if isAlpha(b[v + 1]), b[(v + 1)..<e].allSatisfy({
                isAlpha($0) || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
            }) {
                return nil
            }
            return ((v + 1)..<e, true)
        }
        var e = v
        if field == .cookie || field == .authorization {
            while e < n && b[e] != UInt8(ascii: "\n") && b[e] != UInt8(ascii: "\r")
                && b[e] != UInt8(ascii: "\"") && b[e] != UInt8(ascii: "\\") && b[e] != enclosingQuote
            { e += 1 }
            return (v..<e, false)
        }
        var depth = 0
        scan: while e < n {
            switch b[e] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
                UInt8(ascii: "&"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\""),
                UInt8(ascii: "'"),
                UInt8(ascii: "`"), UInt8(ascii: "\\"), UInt8(ascii: "|"):
                break scan
            case UInt8(ascii: "<"), UInt8(ascii: ">"):
                if depth == 0 { break scan }
            case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
            case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                if depth == 0 { break scan }
                depth -= 1
            default:
                break
            }
            e += 1
        }
        if e > v && b[e - 1] == UInt8(ascii: ".") && (e == n || isSpace(b[e])) { e -= 1 }
        return (v..<e, false)
    }

    /// `<Name>value</Name>` (or with attributes) where the element's name says secret, found at
    /// its `<`: AWS STS responses, Jenkins and Maven credential files, `.plist`s.
    static func scanElement(_ b: UnsafeBufferPointer<UInt8>, at i: Int, config: BuiltInConfig) -> Finding? {
        let n = b.count
        var j = i + 1
        guard j < n, isAlpha(b[j]) else { return nil }
        while j < n && j - i <= 65
            && (isWordByte(b[j]) || b[j] == UInt8(ascii: "-") || b[j] == UInt8(ascii: ".")
                || b[j] == UInt8(ascii: ":"))
        { j += 1 }
        let name = (i + 1)..<j
        let field: FieldClass
        var valueStart: Int
        if b.has("key>", at: i + 1) {
            // `<key>password</key><string>…</string>` is a plist entry: the key names the value.
            guard let close = b.firstIndex(of: "</key>", from: j), close - j < 80 else { return nil }
            field = SecretFields.classify(
                UnsafeBufferPointer(rebasing: b[(j + 1)..<close]),
                extraNames: config.extraSecretNames)
            var k = close + 6
            while k < n && isSpace(b[k]) { k += 1 }
            guard b.has("<string>", at: k) else { return nil }
            valueStart = k + 8
        } else {
            var named = SecretFields.classify(
                UnsafeBufferPointer(rebasing: b[name]), extraNames: config.extraSecretNames)
            while j < n && b[j] != UInt8(ascii: ">") && b[j] != UInt8(ascii: "<")
                && b[j] != UInt8(ascii: "\n")
            {
                j += 1
            }
            guard j < n, b[j] == UInt8(ascii: ">"), b[j - 1] != UInt8(ascii: "/") else { return nil }
            // `<param name="token">…</param>`: the element is named by its attribute.
            if named == .ordinary, let attribute = attributeName(b, before: j, lowerLimit: i) {
                named = SecretFields.classify(
                    UnsafeBufferPointer(rebasing: b[attribute]),
                    extraNames: config.extraSecretNames)
            }
            field = named
            valueStart = j + 1
        }
        guard field != .ordinary else { return nil }
        var e = valueStart
        while e < n && b[e] != UInt8(ascii: "<") && e - valueStart < 8192 { e += 1 }
        guard e + 1 < n, b[e + 1] == UInt8(ascii: "/"), e > valueStart else { return nil }
        return SecretFields.redaction(of: field, in: b, valueStart..<e, config: config, context: .quoted)
    }

    /// `password VALUE` on a `.netrc` line (`machine host login name password VALUE`), found at
    /// the word `password`.
    static func scanNetrcPassword(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        guard b.has("password", at: i), i + 9 < b.count, isBlank(b[i + 8]) else { return nil }
        var lineStart = i
        while lineStart > 0 && i - lineStart < 256 && b[lineStart - 1] != UInt8(ascii: "\n") {
            lineStart -= 1
        }
        let line = lineStart..<i
        guard b.containsIgnoringCase("login ", in: line) || b.containsIgnoringCase("machine ", in: line)
        else {
            return nil
        }
        var v = i + 9
        while v < b.count && isBlank(b[v]) { v += 1 }
        var e = v
        while e < b.count && !isSpace(b[e]) { e += 1 }
        guard e > v, !SecretFields.isPlaceholder(b, v..<e) else { return nil }
        return Finding(start: v, end: e, kind: .password)
    }
}
