import Foundation

/// The checks that turn a digit-shaped candidate into a finding: a random 16-digit number passes
/// Luhn one time in ten, so card candidates also need a known issuer prefix; IBANs need the
/// country's length and ISO 7064 mod 97; SSNs exclude the ranges the SSA never issues.
public enum RedactionChecks {
    /// Whether `digits` (ASCII digits only) pass the Luhn checksum.
    public static func luhn<C: Collection<UInt8>>(_ digits: C) -> Bool {
        var sum = 0
        var double = false
        for c in digits.reversed() {
            guard isDigit(c) else { return false }
            var d = Int(c &- 0x30)
            if double { d *= 2; if d > 9 { d -= 9 } }
            sum += d
            double.toggle()
        }
        return sum % 10 == 0
    }

    /// Whether `text`, with spaces and dashes ignored, is a 13–19 digit card number with a known
    /// issuer prefix that passes Luhn.
    public static func isCardNumber(_ text: some StringProtocol) -> Bool {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") })
        guard digits.allSatisfy(isDigit) else { return false }
        return isCardDigits(digits[...])
    }

    static func isCardDigits(_ digits: ArraySlice<UInt8>) -> Bool {
        let count = digits.count
        guard (13...19).contains(count), hasIssuerPrefix(digits, count: count) else { return false }
        return luhn(digits)
    }

    /// Visa, Mastercard, American Express, Discover, Diners Club, JCB, UnionPay and Maestro
    /// prefixes with their lengths. Numbers starting with 1 (epoch timestamps) never qualify.
    static func hasIssuerPrefix(_ d: ArraySlice<UInt8>, count: Int) -> Bool {
        func prefix(_ n: Int) -> Int {
            var value = 0
            for c in d.prefix(n) { value = value * 10 + Int(c &- 0x30) }
            return value
        }
        let p2 = prefix(2), p3 = prefix(3), p4 = prefix(4), p6 = prefix(6)
        switch d.first {
        case UInt8(ascii: "4"): return count == 13 || count == 16 || count == 19
        case UInt8(ascii: "5"):
            if (51...55).contains(p2) { return count == 16 }
            return p2 == 50 || (56...59).contains(p2)  // Maestro: 12–19, we accept 13–19
        case UInt8(ascii: "2"): return (222_100...272_099).contains(p6) && count == 16
        case UInt8(ascii: "3"):
            if p2 == 34 || p2 == 37 { return count == 15 }
            if (300...305).contains(p3) || p2 == 36 || p2 == 38 || p2 == 39 { return count >= 14 }
            if (3528...3589).contains(p4) { return count >= 16 }
            return false
        case UInt8(ascii: "6"):
            if p4 == 6011 || p2 == 65 || (644...649).contains(p3) || p2 == 62 { return count >= 16 }
            return true  // Maestro 6x
        default: return false
        }
    }

    /// IBAN lengths by ISO country code (SWIFT IBAN registry).
    static let ibanLengths: [String: Int] = [
        "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
        "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
        "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
        "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
        "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
        "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
        "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
        "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
        "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
    ]

    static func ibanLength(_ a: UInt8, _ b: UInt8) -> Int? {
        ibanLengths[String(decoding: [a, b], as: UTF8.self)]
    }

    /// Whether `text` (spaces ignored) is an IBAN of its country's length whose ISO 7064 mod 97
    /// remainder is 1.
    public static func isIBAN(_ text: some StringProtocol) -> Bool {
        let chars = Array(text.utf8.filter { $0 != UInt8(ascii: " ") }.map(uppercased))
        guard chars.count >= 4, isUpper(chars[0]), isUpper(chars[1]),
              ibanLength(chars[0], chars[1]) == chars.count else { return false }
        return ibanChecksumValid(chars[...])
    }

    static func uppercased(_ c: UInt8) -> UInt8 { isLower(c) ? c & ~0x20 : c }

    static func ibanChecksumValid(_ chars: ArraySlice<UInt8>) -> Bool {
        guard chars.count >= 5, isDigit(chars[chars.startIndex + 2]),
              isDigit(chars[chars.startIndex + 3]) else { return false }
        var remainder = 0
        let rotated = chars.dropFirst(4) + chars.prefix(4)
        for c in rotated {
            if isDigit(c) {
                remainder = (remainder * 10 + Int(c &- 0x30)) % 97
            } else if isUpper(c) {
                remainder = (remainder * 100 + Int(c &- 0x41) + 10) % 97
            } else {
                return false
            }
        }
        return remainder == 1
    }

    /// Whether `text` is `ddd-dd-dddd` (or with dots or spaces) outside the ranges never issued as
    /// SSNs (area 000, 666 or 900–999, group 00, serial 0000) and not a well-known example.
    public static func isSSN(_ text: some StringProtocol) -> Bool {
        let c = Array(text.utf8)
        guard c.count == 11, c[3] == UInt8(ascii: "-") || c[3] == UInt8(ascii: ".") || c[3] == UInt8(ascii: " "),
              c[6] == c[3] else { return false }
        let digits = c[0..<3] + c[4..<6] + c[7..<11]
        guard digits.allSatisfy(isDigit) else { return false }
        return ssnParts(Array(digits))
    }

    /// Area 000, 666 or 900–999, group 00 or serial 0000 are never issued; one digit repeated,
    /// `123-45-6789` and the numbers the SSA voided after they were printed in advertising
    /// (`078-05-1120`, `219-09-9999`) are examples, not anyone's number.
    static func ssnParts(_ d: [UInt8]) -> Bool {
        func value(_ r: Range<Int>) -> Int { d[r].reduce(0) { $0 * 10 + Int($1 &- 0x30) } }
        let area = value(0..<3), group = value(3..<5), serial = value(5..<9)
        guard area != 0 && area != 666 && area < 900 && group != 0 && serial != 0 else { return false }
        let whole = value(0..<9)
        return !d.allSatisfy { $0 == d[0] } && whole != 123_456_789 && whole != 78_051_120
            && whole != 219_099_999
    }

    /// The CRC-32 (IEEE 802.3, as zlib computes it) of `bytes`.
    static func crc32<C: Collection<UInt8>>(_ bytes: C) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crc32Table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crc32Table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The value of base62 digits (`0-9`, `A-Z`, `a-z`, in that order), or nil past 64 bits or on
    /// another character.
    static func base62<C: Collection<UInt8>>(_ digits: C) -> UInt64? {
        var value: UInt64 = 0
        for c in digits {
            let digit: UInt64
            if isDigit(c) {
                digit = UInt64(c - 0x30)
            } else if isUpper(c) {
                digit = UInt64(c - 0x41) + 10
            } else if isLower(c) {
                digit = UInt64(c - 0x61) + 36
            } else {
                return nil
            }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 62)
            guard !overflow else { return nil }
            value = scaled + digit
        }
        return value
    }

    /// Whether the last six characters of a GitHub-style token body are the base62 CRC-32 of the
    /// characters before them (GitHub's token format since 2021: 30 random base62 characters and
    /// a 6-character checksum after the `ghp_`-style prefix).
    public static func hasGitHubChecksum(_ body: some StringProtocol) -> Bool {
        let bytes = Array(body.utf8)
        return bytes.withUnsafeBufferPointer { hasGitHubChecksum($0, 0..<$0.count) }
    }

    static func hasGitHubChecksum(_ b: UnsafeBufferPointer<UInt8>, _ r: Range<Int>) -> Bool {
        guard r.count > 6 else { return false }
        let split = r.upperBound - 6
        guard let stated = base62(b[split..<r.upperBound]) else { return false }
        return stated == UInt64(crc32(b[r.lowerBound..<split]))
    }

    /// Shannon entropy of `bytes` in bits per byte: `-Σ p·log2 p` over the byte frequencies.
    public static func shannonEntropy<C: Collection<UInt8>>(_ bytes: C) -> Double {
        guard !bytes.isEmpty else { return 0 }
        var counts = [Int](repeating: 0, count: 256)
        for c in bytes { counts[Int(c)] += 1 }
        let total = Double(bytes.count)
        var entropy = 0.0
        for n in counts where n > 0 {
            let p = Double(n) / total
            entropy -= p * log2(p)
        }
        return entropy
    }
}
