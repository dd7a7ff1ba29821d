/// Words that make a looser shape count as personal data when they come shortly before it.
enum SSNContext {
    static let words: [StaticString] = ["ssn", "social security", "social sec", "ss#"]
}

enum CardContext {
    static let words: [StaticString] = [
        "card", "credit", "debit", "visa", "amex", "mastercard", "cc#", "cc ", "cc:", "cc=", "payment", "pan",
        "tarjeta", "carte", "karte",
    ]
}

enum PhoneContext {
    static let words: [StaticString] = [
        "phone", "tel", "mobile", "cell", "call", "fax", "contact", "whatsapp", "my number", "number is",
        "móvil",
        "movil", "handy", "portable", "celular", "ph:", "ph.", "dial", "ring me", "text me", "reach me",
        "sms",
        // The same words in the largest other locales, as UTF-8 (case folding is ASCII only).
        "tél", "numéro", "rufnummer", "teléfono", "telefone", "телефон", "電話", "电话", "携帯", "手机", "전화",
        "휴대폰",
    ]
}

enum EmailContext {
    static let words: [StaticString] = ["mail"]
    /// Words that stand before ` at ` in prose, never as a user name: "contact us at example.com".
    static let proseWords: [StaticString] = [
        "us", "me", "you", "him", "her", "them", "it", "we", "is", "are", "was", "look", "looking",
        "available",
        "hosted", "found", "located", "online", "live", "running", "served", "published", "docs", "see",
        "here",
    ]
}

/// Personal data written the loose ways people write it: national phone numbers, `00`-prefixed
/// international ones, and email addresses spelled out to dodge scrapers.
extension TextScanner {
    /// Whether one of `words` (lowercase ASCII) occurs in the 48 bytes before `i` on the same line.
    static func hasContext(_ b: UnsafeBufferPointer<UInt8>, before i: Int, _ words: [StaticString]) -> Bool {
        var start = i
        while start > 0 && i - start < 48 && b[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        let window = start..<i
        for word in words where b.containsIgnoringCase(word, in: window) { return true }
        return false
    }

    /// A number starting with 0: `00` and a country code (`0044 20 7946 0958`), or a national
    /// number with its trunk 0 (`030 1234 5678`, `06-12-34-56-78`).
    static func scanZeroPrefixedPhone(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        // Inside a longer run of digit groups (an account number, an IBAN) it is not a phone.
        if i >= 2 && b[i - 1] == UInt8(ascii: " ") && isDigit(b[i - 2]) { return nil }
        if b.has("00", at: i), i + 2 < b.count, isDigit(b[i + 2]), b[i + 2] != UInt8(ascii: "0"),
            let f = scanInternationalPhone(b, afterPrefix: i + 1, start: i)
        {
            let grouped = b[i..<f.end].contains { !isDigit($0) }
            return grouped || hasContext(b, before: i, PhoneContext.words) ? f : nil
        }
        return scanNationalPhone(b, at: i)
    }

    /// A national number: a trunk `0` (or `(0…)`), then 9–12 digits in all, in groups separated by
    /// single spaces, dashes, a dot or slashes, after a word like "phone", "tel" or "mobile":
    /// without the country code, too many other numbers look the same.
    static func scanNationalPhone(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        var j = i
        var count = 0
        var separators = 0
        var open = false
        while j < b.count && j - i < 24 {
            let c = b[j]
            if isDigit(c) {
                count += 1
                j += 1
            } else if c == UInt8(ascii: "(") && j == i {
                open = true
                j += 1
            } else if c == UInt8(ascii: ")") && open {
                open = false
                separators += 1
                j += 1
                if j < b.count && b[j] == UInt8(ascii: " ") && j + 1 < b.count && isDigit(b[j + 1]) { j += 1 }
            } else if (c == UInt8(ascii: " ") || c == UInt8(ascii: "-") || c == UInt8(ascii: ".")
                || c == UInt8(ascii: "/")) && j > i && isDigit(b[j - 1]) && j + 1 < b.count
                && isDigit(b[j + 1])
            {
                separators += 1
                j += 1
            } else {
                break
            }
        }
        guard !open, (9...12).contains(count), separators > 0 || count <= 11, endsNumber(b, j),
            hasContext(b, before: i, PhoneContext.words) || isNationalMobileShape(b, i..<j)
        else { return nil }
        return Finding(start: i, end: j, kind: .phone)
    }

    /// The grouping of a country's own numbers, distinctive enough to need no word like "phone"
    /// (libphonenumber's national formats, as Presidio's recognizers use them): France's
    /// `0X XX XX XX XX`, Germany's mobile `015x`/`016x`/`017x` and 7–8 digits, Japan's
    /// `0X0-XXXX-XXXX` and the UK's mobile `07XXX XXXXXX`.
    static func isNationalMobileShape(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        var groups: [Int] = []
        var separators = Set<UInt8>()
        var run = 0
        for k in r {
            if isDigit(b[k]) { run += 1 } else if run > 0 { groups.append(run); run = 0; separators.insert(b[k]) }
        }
        if run > 0 { groups.append(run) }
        guard separators.count <= 1, let first = groups.first else { return false }
        let second = b[r.lowerBound + 1], third = b[r.lowerBound + 2]
        let dot = separators.first ?? 0
        if groups == [2, 2, 2, 2, 2] && second != UInt8(ascii: "0")
            && (dot == UInt8(ascii: " ") || dot == UInt8(ascii: ".")) { return true }
        if first == 4 && second == UInt8(ascii: "1") && (UInt8(ascii: "5")...UInt8(ascii: "7")).contains(third)
            && groups.count == 2 && (7...8).contains(groups[1]) { return true }
        if groups == [3, 4, 4] && dot == UInt8(ascii: "-") && third == UInt8(ascii: "0")
            && (UInt8(ascii: "7")...UInt8(ascii: "9")).contains(second) { return true }
        if groups == [5, 6] && second == UInt8(ascii: "7") && dot == UInt8(ascii: " ") { return true }
        return false
    }

    /// `name at domain.com`, `name [at] domain [dot] com`, `name(at)domain.com`, found at the `at`.
    /// A plain ` at ` also joins words in prose ("look at example.com"), so it counts only with
    /// a spelled-out dot, a local part that looks like a user name (`.`, `_`, `-`, `+` or a
    /// digit), or "mail" before it and a local part that is not a pronoun ("mail us at …").
    static func scanSpelledEmail(_ b: UnsafeBufferPointer<UInt8>, at i: Int, lowerLimit: Int) -> Finding? {
        let n = b.count
        var bracketed = false
        var afterAt: Int
        var localEnd = i
        if b[i] == UInt8(ascii: "(") || b[i] == UInt8(ascii: "[") {
            bracketed = true
            afterAt = i + 4
        } else {
            guard i + 3 < n, b.hasIgnoringCase("at", at: i), b[i + 2] == UInt8(ascii: " "), i >= 2,
                b[i - 1] == UInt8(ascii: " ")
            else { return nil }
            afterAt = i + 3
            localEnd = i - 1
        }
        // The local part, read backwards, after blanks between it and a bracketed `at`.
        while localEnd > lowerLimit && bracketed && b[localEnd - 1] == UInt8(ascii: " ") { localEnd -= 1 }
        var s = localEnd
        var userLike = false
        while s > lowerLimit && localEnd - s < 64 {
            let c = b[s - 1]
            if isAlnum(c) {
                if isDigit(c) { userLike = true }
            } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "_") || c == UInt8(ascii: "-")
                || c == UInt8(ascii: "+")
            {
                userLike = true
            } else {
                break
            }
            s -= 1
        }
        while s < localEnd && !isAlnum(b[s]) { s += 1 }
        // A local part has a letter and does not end in a dot ("e.g. at docs.rs").
        guard s < localEnd, b[s..<localEnd].contains(where: isAlpha), b[localEnd - 1] != UInt8(ascii: ".")
        else {
            return nil
        }
        // `john dot smith at …`: a spelled-out dot in the local part too.
        while s - 5 > lowerLimit && b.hasIgnoringCase(" dot ", at: s - 5) && isAlnum(b[s - 6]) {
            var t = s - 5
            while t > lowerLimit && localEnd - t < 64 && (isAlnum(b[t - 1]) || b[t - 1] == UInt8(ascii: "_"))
            { t -= 1 }
            s = t
            userLike = true
        }
        while afterAt < n && b[afterAt] == UInt8(ascii: " ") && bracketed { afterAt += 1 }
        // Domain labels joined by `.`, ` dot `, `[dot]` or `(dot)`.
        var j = afterAt
        var labels: [Range<Int>] = []
        var spelledDot = false
        while j < n && labels.count < 6 {
            let start = j
            while j < n && (isAlnum(b[j]) || b[j] == UInt8(ascii: "-")) { j += 1 }
            guard j > start else { break }
            labels.append(start..<j)
            if j + 1 < n && b[j] == UInt8(ascii: ".") && isAlnum(b[j + 1]) {
                j += 1
            } else if b.hasIgnoringCase(" dot ", at: j) {
                j += 5
                spelledDot = true
            } else if b.hasIgnoringCase("[dot]", at: j) || b.hasIgnoringCase("(dot)", at: j) {
                j += 5
                spelledDot = true
            } else if b.hasIgnoringCase(" [dot] ", at: j) || b.hasIgnoringCase(" (dot) ", at: j) {
                j += 7
                spelledDot = true
            } else {
                break
            }
        }
        guard labels.count >= 2, let tld = labels.last, (2...24).contains(tld.count),
            b[tld].allSatisfy(isAlpha),
            !isFileExtension(b, tld)
        else { return nil }
        // `me at john.smith@example.org`: the address after `at` is an ordinary one.
        if tld.upperBound < n && b[tld.upperBound] == UInt8(ascii: "@") { return nil }
        if !(bracketed || spelledDot || userLike) {
            let local = s..<localEnd
            for word in EmailContext.proseWords
            where local.count == word.utf8CodeUnitCount && b.hasIgnoringCase(word, at: s) {
                return nil
            }
            guard hasContext(b, before: s, EmailContext.words) else { return nil }
        }
        return Finding(start: s, end: tld.upperBound, kind: .email)
    }
}
