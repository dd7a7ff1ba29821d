#if canImport(Glibc)
import Glibc
#endif

/// Secrets that hide in an encoding: base64 that decodes to text holding a secret, the values of a
/// Kubernetes Secret's `data:`, the line a `… | base64 -d` prints, and percent-escaped text.
///
/// The cost is bounded as TruffleHog and gitleaks bound theirs: only runs of at least
/// ``minimumBase64Run`` base64 characters are decoded, only runs holding a `%XX` escape are
/// unescaped, each byte is decoded at most once and at one level (what a decoding gives is
/// scanned, never decoded again), and decoded text is scanned once: at most about twice the work
/// of the plain scan, whatever the input.
enum EncodedSecrets {
    /// The shortest base64 run that is decoded: shorter ones are words and ids far more often.
    static let minimumBase64Run = 20

    /// Findings in `b` that the plain scan did not make, none overlapping `found` (which is sorted).
    static func findings(in b: UnsafeBufferPointer<UInt8>, besides found: [Finding], config: BuiltInConfig)
        -> [Finding]
    {
        var extra: [Finding] = []
        var next = 0
        func free(_ r: Range<Int>) -> Bool {
            while next < found.count && found[next].end <= r.lowerBound { next += 1 }
            return next == found.count || found[next].start >= r.upperBound
        }
        if config.fields {
            if contains(b, "kind: Secret") { extra += kubernetesSecretValues(b) }
            if namesKindSecret(b) { extra += kubernetesJSONSecretValues(b) }
            if contains(b, "base64 -") { extra += linesAfterBase64Decode(b) }
        }
        var i = 0
        let n = b.count
        // Borrowed once: a global array read in the loop would be checked and retained each time.
        let table = runClassTable
        while i < n {
            // Most runs are words shorter than any base64 worth decoding: one table load a byte.
            let start = i
            var classes: UInt8 = 0
            while i < n {
                let c = table[Int(b[i])]
                if c == 0 { break }
                classes |= c
                i += 1
            }
            if i == start { i += 1; continue }
            guard i - start >= minimumBase64Run || classes & percentClass != 0 else { continue }
            var escapes = 0
            if classes & percentClass != 0 {
                for k in start..<i where b[k] == UInt8(ascii: "%") && k + 2 < n && isHex(b[k + 1]) && isHex(b[k + 2]) {
                    escapes += 1
                }
            }
            let base64Only = classes == base64Class
            let run = start..<i
            if escapes > 0, free(run), let f = percentEscaped(b, run, config: config) {
                extra.append(f)
            } else if base64Only || escapes == 0 {
                // A run may hold base64 between `.`, `:` or `&`: each piece on its own.
                var p = start
                while p < i {
                    while p < i && !isBase64Byte(b[p]) { p += 1 }
                    let pieceStart = p
                    while p < i && isBase64Byte(b[p]) { p += 1 }
                    let piece = pieceStart..<p
                    if piece.count >= minimumBase64Run, free(piece), let f = base64(b, piece, config: config) {
                        extra.append(f)
                    }
                }
            }
        }
        return extra
    }

    /// The plain scan's findings and the decoded ones, sorted and never overlapping; the plain
    /// scan's win where both found something.
    static func merged(_ found: [Finding], _ extra: [Finding]) -> [Finding] {
        guard !extra.isEmpty else { return found }
        let all = (found.map { ($0, 0) } + extra.map { ($0, 1) }).sorted { x, y in
            x.0.start != y.0.start ? x.0.start < y.0.start : x.1 < y.1
        }
        var out: [Finding] = []
        for (f, source) in all {
            if let last = out.last, f.start < last.end {
                // A plain finding inside a decoded one that started earlier takes its place.
                if source == 0 { out[out.count - 1] = f }
                continue
            }
            out.append(f)
        }
        return out
    }

    static let base64Class: UInt8 = 1, percentClass: UInt8 = 2, joinerClass: UInt8 = 4

    /// ``runClasses``, as a pointer that lives as long as the process.
    // Safe to share: written once as it is initialized, never written again, only read.
    nonisolated(unsafe) static let runClassTable: UnsafePointer<UInt8> = {
        let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        table.initialize(from: runClasses, count: 256)
        return UnsafePointer(table)
    }()

    /// For each byte, what it can be in a run: base64, `%`, or `&`, `.` and `:`, which join the
    /// pieces of a query string or a dotted token.
    static let runClasses: [UInt8] = (0..<256).map { value in
        let c = UInt8(value)
        if isBase64Byte(c) { return base64Class }
        if c == UInt8(ascii: "%") { return percentClass }
        if c == UInt8(ascii: "&") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") { return joinerClass }
        return 0
    }

    /// Whether `literal` occurs in `b`: the C library's `memchr` finds each candidate first byte.
    static func contains(_ b: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        guard let base = b.baseAddress else { return false }
        let first = Int32(literal.utf8Start[0])
        var i = 0
        while i < b.count, let hit = memchr(base + i, first, b.count - i) {
            let at = UnsafePointer<UInt8>(hit.assumingMemoryBound(to: UInt8.self)) - base
            if b.has(literal, at: at) { return true }
            i = at + 1
        }
        return false
    }

    @inline(__always) static func isBase64Byte(_ c: UInt8) -> Bool {
        isAlnum(c) || c == UInt8(ascii: "+") || c == UInt8(ascii: "/") || c == UInt8(ascii: "=")
            || c == UInt8(ascii: "-") || c == UInt8(ascii: "_")
    }

    /// The run, when it decodes to text in which the plain scan finds a secret.
    static func base64(_ b: UnsafeBufferPointer<UInt8>, _ run: Range<Int>, config: BuiltInConfig) -> Finding? {
        var body = run
        while body.count > 0 && b[body.upperBound - 1] == UInt8(ascii: "=") { body = body.lowerBound..<(body.upperBound - 1) }
        // Each group of four encodes three bytes; the first character holds the top six bits of
        // the first byte, which for ASCII text is under 0x80: `A`–`Z` or `a`–`f`. Paths, ids and
        // other runs that are not encoded text fail this within a few groups, with no allocation.
        for k in stride(from: body.lowerBound, to: body.upperBound, by: 4) {
            let c = b[k]
            guard isUpper(c) || (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "f")) else { return nil }
        }
        guard body.count % 4 != 1, b[body].allSatisfy({ $0 != UInt8(ascii: "=") }),
              CharacterMix(b[body]).upper || CharacterMix(b[body]).digit,
              let decoded = Base64.decode(b[run]), isText(decoded) else { return nil }
        let inner = decoded.withUnsafeBufferPointer { TextScanner.findings(in: $0, config: config) }
        guard let first = inner.first else { return nil }
        return Finding(start: run.lowerBound, end: run.upperBound, kind: first.kind)
    }

    /// Mostly printable UTF-8 text: at most one byte in sixteen a control character, none NUL.
    static func isText(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return false }
        var control = 0
        for c in bytes {
            if c == 0 { return false }
            if c < 0x20 && c != 0x0A && c != 0x0D && c != 0x09 { control += 1 }
        }
        return control * 16 <= bytes.count && String(validating: bytes, as: UTF8.self) != nil
    }

    /// The secrets in a percent-escaped run, unescaped once and scanned, each mapped back to the
    /// escaped bytes it came from; one finding covering them all.
    static func percentEscaped(_ b: UnsafeBufferPointer<UInt8>, _ run: Range<Int>, config: BuiltInConfig)
        -> Finding?
    {
        var decoded: [UInt8] = []
        var origin: [Int] = []
        decoded.reserveCapacity(run.count)
        origin.reserveCapacity(run.count + 1)
        var k = run.lowerBound
        while k < run.upperBound {
            origin.append(k)
            if b[k] == UInt8(ascii: "%") && k + 2 < run.upperBound && isHex(b[k + 1]) && isHex(b[k + 2]) {
                decoded.append(hexValue(b[k + 1]) << 4 | hexValue(b[k + 2]))
                k += 3
            } else {
                decoded.append(b[k])
                k += 1
            }
        }
        origin.append(run.upperBound)
        let found = decoded.withUnsafeBufferPointer { TextScanner.findings(in: $0, config: config) }
        guard let first = found.first, let last = found.last else { return nil }
        return Finding(start: origin[first.start], end: origin[last.end], kind: first.kind)
    }

    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8 {
        isDigit(c) ? c - UInt8(ascii: "0") : (c | 0x20) - UInt8(ascii: "a") + 10
    }

    /// Every value under `data:` in a YAML document of `kind: Secret`: Kubernetes stores each one
    /// base64-encoded, whatever its key (`GITHUB_PAT`, `.dockerconfigjson`), so the key says nothing.
    static func kubernetesSecretValues(_ b: UnsafeBufferPointer<UInt8>) -> [Finding] {
        var found: [Finding] = []
        var dataIndent: Int?
        var lineStart = 0
        while lineStart < b.count {
            var lineEnd = lineStart
            while lineEnd < b.count && b[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var k = lineStart
            while k < lineEnd && b[k] == UInt8(ascii: " ") { k += 1 }
            let indent = k - lineStart
            if k < lineEnd && b[k] != UInt8(ascii: "#") {
                if let data = dataIndent, indent <= data { dataIndent = nil }
                if dataIndent == nil {
                    if b.has("data:", at: k) && trimmedEnd(b, k + 5, lineEnd) == k + 5 { dataIndent = indent }
                } else if let colon = b[k..<lineEnd].firstIndex(of: UInt8(ascii: ":")) {
                    var v = colon + 1
                    while v < lineEnd && isBlank(b[v]) { v += 1 }
                    var e = trimmedEnd(b, v, lineEnd)
                    if v < e && (b[v] == UInt8(ascii: "\"") || b[v] == UInt8(ascii: "'")) && b[e - 1] == b[v] {
                        v += 1
                        e -= 1
                    }
                    if e - v >= 4, b[v..<e].allSatisfy(isBase64Byte) {
                        found.append(Finding(start: v, end: e, kind: .kubernetesSecret))
                    }
                }
            }
            lineStart = lineEnd + 1
        }
        return found
    }

    /// Whether the text names a Kubernetes Secret in JSON: `"kind"`, a colon and `"Secret"`,
    /// blanks between, each quote maybe escaped (`\"kind\": \"Secret\"` in a log line).
    static func namesKindSecret(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var from = 0
        while let at = b.firstIndex(of: "kind", from: from) {
            from = at + 4
            var k = skipQuote(b, at + 4)
            guard k > at + 4 else { continue }
            while k < b.count && isSpace(b[k]) { k += 1 }
            guard k < b.count, b[k] == UInt8(ascii: ":") else { continue }
            k += 1
            while k < b.count && isSpace(b[k]) { k += 1 }
            let value = skipQuote(b, k)
            if value > k, b.has("Secret", at: value), skipQuote(b, value + 6) > value + 6 { return true }
        }
        return false
    }

    /// The index after a quote at `k`, escaped or not; `k` when there is none.
    @inline(__always) static func skipQuote(_ b: UnsafeBufferPointer<UInt8>, _ k: Int) -> Int {
        if k < b.count && b[k] == UInt8(ascii: "\"") { return k + 1 }
        if k + 1 < b.count && b[k] == UInt8(ascii: "\\") && b[k + 1] == UInt8(ascii: "\"") { return k + 2 }
        return k
    }

    /// Every string value in the `"data"` and `"stringData"` objects of a Secret written as JSON
    /// in text (a `kubectl get secret -o json` pasted into a prompt or a tool's output), quotes
    /// escaped or not. A value holds no quote (base64, or a `stringData` value without one).
    static func kubernetesJSONSecretValues(_ b: UnsafeBufferPointer<UInt8>) -> [Finding] {
        var found: [Finding] = []
        for key: StaticString in ["data", "stringData"] {
            var from = 0
            while let at = b.firstIndex(of: key, from: from) {
                from = at + key.utf8CodeUnitCount
                var k = skipQuote(b, from)
                guard k > from, at > 0, b[at - 1] == UInt8(ascii: "\"") else { continue }
                while k < b.count && isSpace(b[k]) { k += 1 }
                guard k < b.count, b[k] == UInt8(ascii: ":") else { continue }
                k += 1
                while k < b.count && isSpace(b[k]) { k += 1 }
                guard k < b.count, b[k] == UInt8(ascii: "{") else { continue }
                // Members up to the closing brace: "KEY": "VALUE", each value's quotes found.
                while k < b.count && b[k] != UInt8(ascii: "}") {
                    guard b[k] == UInt8(ascii: ":") else { k += 1; continue }
                    k += 1
                    while k < b.count && isSpace(b[k]) { k += 1 }
                    let v = skipQuote(b, k)
                    guard v > k else { continue }
                    var e = v
                    while e < b.count && b[e] != UInt8(ascii: "\"") && b[e] != UInt8(ascii: "\\")
                        && b[e] != UInt8(ascii: "}") && b[e] != UInt8(ascii: "\n") { e += 1 }
                    if e > v, skipQuote(b, e) > e { found.append(Finding(start: v, end: e, kind: .kubernetesSecret)) }
                    k = e
                }
                from = k
            }
        }
        return found.sorted { $0.start < $1.start }
    }

    @inline(__always) static func trimmedEnd(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var e = end
        while e > start && (isBlank(b[e - 1]) || b[e - 1] == UInt8(ascii: "\r")) { e -= 1 }
        return e
    }

    /// The line after a command that ends in `base64 -d` (or `--decode`, `-D`): what it printed is
    /// the decoded secret, when it is one word alone on its line.
    static func linesAfterBase64Decode(_ b: UnsafeBufferPointer<UInt8>) -> [Finding] {
        var found: [Finding] = []
        var from = 0
        while let at = b.firstIndex(of: "base64 -", from: from) {
            from = at + 8
            var k = at + 8
            guard k < b.count else { break }
            if b.has("-decode", at: k) { k += 7 } else if b[k] == UInt8(ascii: "d") || b[k] == UInt8(ascii: "D") {
                k += 1
            } else {
                continue
            }
            while k < b.count && isBlank(b[k]) { k += 1 }
            guard k < b.count, b[k] == UInt8(ascii: "\n") || b[k] == UInt8(ascii: "\r") else { continue }
            while k < b.count && (b[k] == UInt8(ascii: "\n") || b[k] == UInt8(ascii: "\r")) { k += 1 }
            var e = k
            while e < b.count && !isSpace(b[e]) && e - k <= 256 { e += 1 }
            guard e - k >= 6, e - k <= 256, trimmedEnd(b, e, lineEnd(b, e)) == e,
                  b[k] != UInt8(ascii: "$"), b[k] != UInt8(ascii: "#"), b[k] != UInt8(ascii: ">"),
                  !SecretFields.isPlaceholder(b, k..<e) else { continue }
            found.append(Finding(start: k, end: e, kind: .decodedSecret))
        }
        return found
    }

    @inline(__always) static func lineEnd(_ b: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        var e = i
        while e < b.count && b[e] != UInt8(ascii: "\n") { e += 1 }
        return e
    }
}
