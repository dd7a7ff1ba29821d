/// Shapes of values that sit where a secret could, but are not one: code, references to a
/// variable or a constant, file names, versions and alphabets.
enum ValueShapes {
    /// Whether an unquoted value is code rather than a literal: a call (`get_password(user)`),
    /// a member access (`self.token`, `config.api_key`), a subscript (`os.environ["KEY"]`), a
    /// keyword (`None`, `new`), a constant or environment name (`ACCESS_TOKEN`), a type
    /// (`String`, `SecretKeySpec`) or a variable name (`dbPassword`, `insert_key_here`).
    static func isCode(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        var segments: [Range<Int>] = []
        while i < r.upperBound {
            let start = i
            guard isIdentifierStart(b[i]) else { break }
            i += 1
            while i < r.upperBound && (isWordByte(b[i]) || b[i] == UInt8(ascii: "$")) { i += 1 }
            segments.append(start..<i)
            guard i < r.upperBound else { break }
            if b[i] == UInt8(ascii: ".") && i + 1 < r.upperBound && isIdentifierStart(b[i + 1]) {
                i += 1
            } else if b.has("->", at: i) || b.has("::", at: i) {
                i += 2
            } else {
                break
            }
        }
        guard let first = segments.first else { return false }
        if i < r.upperBound {
            // An identifier chain followed by a call or a subscript, or an optional type (`String?`).
            let rest = b[i]
            let optional =
                (rest == UInt8(ascii: "?") || rest == UInt8(ascii: "!")) && i + 1 == r.upperBound
                && segments.count == 1 && isUpper(b[first.lowerBound]) && isIdentifierName(b, first)
            return (rest == UInt8(ascii: "(") || rest == UInt8(ascii: "[") || optional)
                && !segments.contains { isRandomWord(b, $0) }
        }
        if segments.count > 1 { return !segments.contains { isRandomWord(b, $0) } }
        return isKeyword(b, first) || isIdentifierName(b, first)
    }

    @inline(__always) static func isIdentifierStart(_ c: UInt8) -> Bool {
        isAlpha(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$")
    }

    /// A word long and mixed enough to be a random token rather than a name.
    static func isRandomWord(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count >= 16 else { return false }
        let mix = CharacterMix(b[r])
        return mix.digit && (mix.upper || mix.lower)
    }

    static func isKeyword(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count <= 9 else { return false }
        for word: StaticString in [
            "new", "await", "try", "yield", "self", "this", "none", "nil", "null", "true", "false",
            "undefined", "function", "lambda", "require", "typeof", "getenv", "env",
            "str", "string", "int", "bool", "bytes", "object", "any", "optional",
        ]
        where r.count == word.utf8CodeUnitCount && b.hasIgnoringCase(word, at: r.lowerBound) {
            return true
        }
        return false
    }

    /// A name as programmers write one, with no digit: `ACCESS_TOKEN` or `API_KEY` (constants and
    /// environment variables), `SecretKeySpec` (types), `dbPassword` (camelCase) and
    /// `insert_key_here` (snake_case). Random secrets have digits or no such structure.
    static func isIdentifierName(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var upper = 0
        var lowerCase = 0
        var underscores = 0
        var digits = 0
        var humps = 0
        var previous: UInt8 = 0
        for c in b[r] {
            if isUpper(c) {
                upper += 1
                if isLower(previous) { humps += 1 }
            } else if isLower(c) {
                lowerCase += 1
            } else if isDigit(c) {
                digits += 1
            } else {
                underscores += 1
            }
            previous = c
        }
        if lowerCase == 0 { return upper >= 2 && (underscores > 0 || digits == 0) }
        guard digits == 0 else { return false }
        if upper == 0 { return underscores > 0 }
        // camelCase and PascalCase: every capital starts a hump of lowercase letters.
        let leadingCapital = isUpper(b[r.lowerBound]) ? 1 : 0
        return upper == humps + leadingCapital && r.count <= 48
    }

    /// An environment-variable or constant name: uppercase letters, digits and `_`, with a `_`.
    static func isConstantName(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count >= 3, isUpper(b[r.lowerBound]) else { return false }
        var underscore = false
        for c in b[r] {
            if c == UInt8(ascii: "_") {
                underscore = true
            } else if !(isUpper(c) || isDigit(c)) {
                return false
            }
        }
        return underscore
    }

    /// A path or a key file's name: `~/.ssh/id_ed25519`, `./certs/server.key`, `client.p12`.
    static func isFileName(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard !r.isEmpty, r.count <= 512 else { return false }
        for c in b[r]
        where
            !(isWordByte(c) || c == UInt8(ascii: "/") || c == UInt8(ascii: ".")
            || c == UInt8(ascii: "-") || c == UInt8(ascii: "~") || c == UInt8(ascii: "\\")
            || c == UInt8(ascii: ":"))
        {
            return false
        }
        if b.has("~/", at: r.lowerBound) || b.has("./", at: r.lowerBound) || b.has("../", at: r.lowerBound) {
            return true
        }
        var nameStart = r.lowerBound
        for k in r where b[k] == UInt8(ascii: "/") || b[k] == UInt8(ascii: "\\") { nameStart = k + 1 }
        let name = nameStart..<r.upperBound
        for key: StaticString in ["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"]
        where b.has(key, at: name.lowerBound) {
            return true
        }
        guard let dot = b[name].lastIndex(of: UInt8(ascii: ".")), dot > name.lowerBound else {
            // `/etc/app/secret`: an absolute path of lowercase segments.
            return b[r.lowerBound] == UInt8(ascii: "/") && !b[r].contains(where: isUpper)
                && nameStart > r.lowerBound + 1
        }
        let ext = (dot + 1)..<name.upperBound
        for known: StaticString in [
            "pem", "key", "crt", "cer", "der", "p12", "pfx", "jks", "keystore", "json",
            "yaml", "yml", "txt", "pub", "gpg", "asc", "env", "ini", "cfg", "conf",
            "properties", "enc", "kdbx", "ppk", "p8", "csr", "age", "secret", "xml",
            "toml", "plist", "sops",
        ]
        where ext.count == known.utf8CodeUnitCount && b.hasIgnoringCase(known, at: ext.lowerBound) {
            return true
        }
        return false
    }

    /// Whether a value ends in a version after `-`, `_` or `:`: `token-utils-2.3.1`, `lib_1.0`.
    static func endsInVersion(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var k = r.upperBound
        var dots = 0
        while k > r.lowerBound && (isDigit(b[k - 1]) || b[k - 1] == UInt8(ascii: ".")) {
            if b[k - 1] == UInt8(ascii: ".") { dots += 1 }
            k -= 1
        }
        guard dots >= 1, k > r.lowerBound, k < r.upperBound, isDigit(b[k]) else { return false }
        let p = b[k - 1]
        return p == UInt8(ascii: "-") || p == UInt8(ascii: "_") || p == UInt8(ascii: ":")
    }

    /// A version or a version range: `1.2.3`, `^9.0.0`, `~> 2.1`, `>=1.0,<2`, `v0.11.5-beta`.
    static func isVersion(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var i = r.lowerBound
        while i < r.upperBound
            && (b[i] == UInt8(ascii: "^") || b[i] == UInt8(ascii: "~") || b[i] == UInt8(ascii: "=")
                || b[i] == UInt8(ascii: ">") || b[i] == UInt8(ascii: "<")
                || b[i] == UInt8(ascii: "v") || isBlank(b[i]))
        { i += 1 }
        guard i < r.upperBound, isDigit(b[i]) else { return false }
        var dots = 0
        while i < r.upperBound && (isDigit(b[i]) || b[i] == UInt8(ascii: ".")) {
            if b[i] == UInt8(ascii: ".") { dots += 1 }
            i += 1
        }
        guard dots >= 1 else { return false }
        // A pre-release or build suffix, or a second bound of a range.
        return i == r.upperBound || b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+")
            || b[i] == UInt8(ascii: ",") || b[i] == UInt8(ascii: " ")
    }

    /// Whether most neighbouring characters follow each other in ASCII order, as in alphabets
    /// (`ABC…XYZabc…xyz0123456789`) and keyboard examples (`abcdef123456`).
    static func isSequential(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count >= 8 else { return false }
        var steps = 0
        for k in r.lowerBound..<(r.upperBound - 1) where b[k + 1] == b[k] &+ 1 { steps += 1 }
        return steps * 10 >= (r.count - 1) * 9
    }
}
