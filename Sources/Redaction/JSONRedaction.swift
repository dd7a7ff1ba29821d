/// A JSON parser that copies its input and replaces redacted string values on the way.
///
/// Everything that is not a changed string (whitespace, keys, numbers, unchanged strings) is
/// copied byte for byte, so a document keeps its layout; a changed string is re-escaped. Any
/// syntax error stops it, and the caller falls back to text redaction.
struct JSONRedaction {
    struct Invalid: Error {}

    let input: UnsafeBufferPointer<UInt8>
    let redactor: Redactor
    var position = 0
    var depth = 0
    var output: [UInt8] = []
    var counts: [RedactionKind: Int] = [:]
    /// Each replaced value's kind and the input offset of the JSON value that held it.
    var located: [(kind: RedactionKind, offset: Int)] = []
    var changed = false
    /// The document holds a Kubernetes Secret (`"kind": "Secret"`): every string under a `data`
    /// or `stringData` object is a secret, whatever its key (`GITHUB_PAT`, `.dockerconfigjson`).
    let holdsKubernetesSecret: Bool

    init(input: UnsafeBufferPointer<UInt8>, redactor: Redactor) {
        self.input = input
        self.redactor = redactor
        holdsKubernetesSecret = redactor.config.fields && EncodedSecrets.namesKindSecret(input)
        output.reserveCapacity(input.count + 64)
    }


    mutating func document() throws {
        copyWhitespace()
        try value(field: .ordinary)
        copyWhitespace()
        guard position == input.count else { throw Invalid() }
    }

    private mutating func copyWhitespace() {
        let start = position
        while position < input.count && isSpace(input[position]) { position += 1 }
        if position > start { copy(start..<position) }
    }

    private mutating func copy(_ range: Range<Int>) {
        output.append(contentsOf: UnsafeBufferPointer(rebasing: input[range]))
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard position < input.count, input[position] == byte else { throw Invalid() }
        output.append(byte)
        position += 1
    }

    /// A value; an object in it gives each member `members` instead of its name's class.
    private mutating func value(field: FieldClass, members: FieldClass? = nil) throws {
        guard position < input.count else { throw Invalid() }
        switch input[position] {
        case UInt8(ascii: "{"): try object(members: members)
        case UInt8(ascii: "["): try array(field: field)
        case UInt8(ascii: "\""): try stringValue(field: field)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: try number(field: field)
        }
    }

    private mutating func object(members: FieldClass? = nil) throws {
        depth += 1
        guard depth <= 512 else { throw Invalid() }
        try expect(UInt8(ascii: "{"))
        copyWhitespace()
        if position < input.count && input[position] == UInt8(ascii: "}") {
            try expect(UInt8(ascii: "}"))
            depth -= 1
            return
        }
        while true {
            let raw = try stringToken()
            copy(raw)
            let key = UnsafeBufferPointer(rebasing: input[(raw.lowerBound + 1)..<(raw.upperBound - 1)])
            let nested: FieldClass? =
                holdsKubernetesSecret && (key.elementsEqual("data".utf8) || key.elementsEqual("stringData".utf8))
                ? .secret(kind: .kubernetesSecret) : nil
            let field: FieldClass
            if let members {
                field = members
            } else if redactor.config.fields {
                let name = UnsafeBufferPointer(rebasing: input[(raw.lowerBound + 1)..<(raw.upperBound - 1)])
                if name.contains(UInt8(ascii: "\\")) {
                    let decoded = try Self.unescape(name)
                    field = decoded.withUnsafeBufferPointer {
                        SecretFields.classify($0, extraNames: redactor.config.extraSecretNames)
                    }
                } else {
                    field = SecretFields.classify(name, extraNames: redactor.config.extraSecretNames)
                }
            } else {
                field = .ordinary
            }
            copyWhitespace()
            try expect(UInt8(ascii: ":"))
            copyWhitespace()
            try value(field: field, members: nested)
            copyWhitespace()
            guard position < input.count else { throw Invalid() }
            if input[position] == UInt8(ascii: ",") {
                try expect(UInt8(ascii: ","))
                copyWhitespace()
            } else {
                try expect(UInt8(ascii: "}"))
                depth -= 1
                return
            }
        }
    }

    /// Elements of an array inherit the array's field: every string in `"api_keys": [...]` is
    /// a secret.
    private mutating func array(field: FieldClass) throws {
        depth += 1
        guard depth <= 512 else { throw Invalid() }
        try expect(UInt8(ascii: "["))
        copyWhitespace()
        if position < input.count && input[position] == UInt8(ascii: "]") {
            try expect(UInt8(ascii: "]"))
            depth -= 1
            return
        }
        while true {
            try value(field: field)
            copyWhitespace()
            guard position < input.count else { throw Invalid() }
            if input[position] == UInt8(ascii: ",") {
                try expect(UInt8(ascii: ","))
                copyWhitespace()
            } else {
                try expect(UInt8(ascii: "]"))
                depth -= 1
                return
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        guard input.has(word, at: position) else { throw Invalid() }
        copy(position..<(position + word.utf8CodeUnitCount))
        position += word.utf8CodeUnitCount
    }

    /// Numbers are copied, except a valid card number and any number under a secret-named key
    /// (`"pin": 1234`, `"password": 123456`), which become a marker string: a secret must not
    /// survive because it was typed as a number.
    private mutating func number(field: FieldClass) throws {
        let start = position
        if position < input.count && input[position] == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        while position < input.count && isDigit(input[position]) { position += 1 }
        guard position > digitsStart else { throw Invalid() }
        let integerEnd = position
        if position < input.count && input[position] == UInt8(ascii: ".") {
            position += 1
            let fraction = position
            while position < input.count && isDigit(input[position]) { position += 1 }
            guard position > fraction else { throw Invalid() }
        }
        if position < input.count && (input[position] | 0x20) == UInt8(ascii: "e") {
            position += 1
            if position < input.count,
               input[position] == UInt8(ascii: "+") || input[position] == UInt8(ascii: "-") {
                position += 1
            }
            let exponent = position
            while position < input.count && isDigit(input[position]) { position += 1 }
            guard position > exponent else { throw Invalid() }
        }
        var kind: RedactionKind?
        if case .secret(let fieldKind) = field {
            kind = fieldKind
        } else if redactor.config.creditCard, start == digitsStart, integerEnd == position,
                  position - start >= 13, RedactionChecks.isCardDigits(Array(input[start..<position])[...]) {
            kind = .creditCard
        }
        if let kind {
            output.append(UInt8(ascii: "\""))
            Redactor.appendMarker(kind, to: &output)
            output.append(UInt8(ascii: "\""))
            counts[kind, default: 0] += 1
            located.append((kind, start))
            changed = true
            return
        }
        copy(start..<position)
    }

    /// The range of a string token, quotes included; validates escapes and control characters.
    private mutating func stringToken() throws -> Range<Int> {
        guard position < input.count, input[position] == UInt8(ascii: "\"") else { throw Invalid() }
        let start = position
        position += 1
        while position < input.count {
            let c = input[position]
            if c == UInt8(ascii: "\"") {
                position += 1
                return start..<position
            }
            if c == UInt8(ascii: "\\") {
                position += 2
                continue
            }
            guard c >= 0x20 else { throw Invalid() }
            position += 1
        }
        throw Invalid()
    }

    private mutating func stringValue(field: FieldClass) throws {
        let raw = try stringToken()
        let content = UnsafeBufferPointer(rebasing: input[(raw.lowerBound + 1)..<(raw.upperBound - 1)])
        let replacement: [UInt8]?
        if content.contains(UInt8(ascii: "\\")) {
            let decoded = try Self.unescape(content)
            replacement = decoded.withUnsafeBufferPointer { redactString($0, field: field, at: raw.lowerBound) }
        } else {
            replacement = redactString(content, field: field, at: raw.lowerBound)
        }
        guard let replacement else {
            copy(raw)
            return
        }
        changed = true
        output.append(UInt8(ascii: "\""))
        Self.escape(replacement, into: &output)
        output.append(UInt8(ascii: "\""))
    }

    /// The redacted string, or nil when nothing in it is redacted.
    private mutating func redactString(
        _ value: UnsafeBufferPointer<UInt8>, field: FieldClass, at offset: Int
    ) -> [UInt8]? {
        let config = redactor.config
        var found: [Finding]
        if field != .ordinary,
           let f = SecretFields.redaction(of: field, in: value, 0..<value.count, config: config,
                                          context: .quoted) {
            found = [f]
        } else {
            found = redactor.findings(in: value, text: String(decoding: value, as: UTF8.self))
        }
        guard !found.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(value.count + 24 * found.count)
        var position = 0
        for f in found {
            counts[f.kind, default: 0] += 1
            located.append((f.kind, offset))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: value[position..<f.start]))
            Redactor.appendMarker(f.kind, to: &out)
            position = f.end
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: value[position..<value.count]))
        return out
    }

    /// Decodes JSON string escapes (`\n`, `\"`, `\u00e9`, surrogate pairs) to UTF-8.
    static func unescape(_ s: UnsafeBufferPointer<UInt8>) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        func hex4(_ at: Int) throws -> UInt32 {
            guard let value = hexQuad(s, at: at) else { throw Invalid() }
            return value
        }
        while i < s.count {
            let c = s[i]
            guard c == UInt8(ascii: "\\") else {
                out.append(c)
                i += 1
                continue
            }
            guard i + 1 < s.count else { throw Invalid() }
            let e = s[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(i)
                i += 4
                if (0xD800..<0xDC00).contains(scalar), i + 6 <= s.count, s[i] == UInt8(ascii: "\\"),
                   s[i + 1] == UInt8(ascii: "u") {
                    let low = try hex4(i + 2)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        i += 6
                    }
                }
                let unicode = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                out.append(contentsOf: String(Character(unicode)).utf8)
            default:
                throw Invalid()
            }
        }
        return out
    }

    /// Escapes UTF-8 for a JSON string: quotes, backslashes and control characters.
    static func escape(_ s: [UInt8], into out: inout [UInt8]) {
        for c in s {
            switch c {
            case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), 0x30, 0x30])
                out.append(contentsOf: [hex[Int(c >> 4)], hex[Int(c & 0xF)]])
            default: out.append(c)
            }
        }
    }
}
