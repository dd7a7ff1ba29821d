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
        let sep = b[s]
        var valueStart = s + 1
        if sep == UInt8(ascii: ":") {
            // `::` is a path, `:=` is read at its `=`.
            if s + 1 < n && (b[s + 1] == UInt8(ascii: ":") || b[s + 1] == UInt8(ascii: "=")) { return nil }
            if s > 0 && b[s - 1] == UInt8(ascii: ":") { return nil }
        } else {
            if s > 0 {
                let p = b[s - 1]
                // `!=`, `<=`, `>=`, `==`: read at the first byte of the operator.
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
        // A header inside a quoted argument (`-H 'Authorization: Bearer …'`) ends at its quote.
        let before = name.range.lowerBound > 0 ? b[name.range.lowerBound - 1] : 0
        let enclosing: UInt8 = before == UInt8(ascii: "'") || before == UInt8(ascii: "\"") ? before : 0
        guard let (value, quoted) = fieldValue(b, from: valueStart, field: field, enclosingQuote: enclosing)
        else {
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
        while k >= lowerLimit && nameEnd - k <= 65
            && (isWordByte(b[k]) || b[k] == UInt8(ascii: "-") || b[k] == UInt8(ascii: "."))
        {
            k -= 1
        }
        let nameStart = k + 1
        guard nameEnd - nameStart >= 2, nameEnd - nameStart <= 64 else { return nil }
        if nameStart >= 2 && b[nameStart - 1] == UInt8(ascii: "{") && b[nameStart - 2] == UInt8(ascii: "$") {
            return nil
        }
        return (nameStart..<nameEnd, quoted)
    }

    /// Whether only indentation, a list dash or `export` stands between `i` and the line's start.
    static func startsLine(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Bool {
        var k = i
        while k > 0 && (isBlank(b[k - 1]) || b[k - 1] == UInt8(ascii: "-")) { k -= 1 }
        if k >= 7 && b.has("export", at: k - 7) && isBlank(b[k - 1]) { k -= 7 }
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
            var e = v + 1
            while e < n && b[e] != UInt8(ascii: "}") && b[e] != UInt8(ascii: "\n")
                && b[e] != UInt8(ascii: "\"")
            {
                e += 1
            }
            guard e < n, b[e] == UInt8(ascii: "}"), e > v + 1 else { return nil }
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
        return Finding(start: v, end: e, kind: "password")
    }
}
