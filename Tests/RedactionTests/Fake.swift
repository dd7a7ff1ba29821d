import Foundation
import Reproducible

/// Made-up credentials in each vendor's documented shape, generated at run time from a fixed
/// seed (SplitMix64), so that no secret-looking string is written in the sources and a run
/// reproduces.
struct Fake: RandomNumberGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func next() -> UInt64 { random.next() }

    static let upperLetters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    static let lowerLetters = Array("abcdefghijklmnopqrstuvwxyz")
    static let digitChars = Array("0123456789")
    static let base62 = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")

    mutating func from(_ alphabet: [Character], _ count: Int) -> String {
        String((0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] })
    }

    /// Random characters of `alphabet` with at least one of each class the alphabet has, as a
    /// random key of that length almost always does.
    mutating func mixed(_ alphabet: [Character], _ count: Int) -> String {
        guard count >= 3 else { return from(alphabet, count) }
        while true {
            let s = from(alphabet, count)
            let hasDigit = s.contains(where: \.isNumber) || !alphabet.contains(where: \.isNumber)
            let hasUpper = s.contains(where: \.isUppercase) || !alphabet.contains(where: \.isUppercase)
            let hasLower = s.contains(where: \.isLowercase) || !alphabet.contains(where: \.isLowercase)
            if hasDigit && hasUpper && hasLower { return s }
        }
    }

    mutating func alnum(_ n: Int) -> String { mixed(Self.base62, n) }
    mutating func letters(_ n: Int) -> String { mixed(Self.upperLetters + Self.lowerLetters, n) }
    mutating func lowerDigits(_ n: Int) -> String { mixed(Self.lowerLetters + Self.digitChars, n) }
    mutating func upperDigits(_ n: Int) -> String { mixed(Self.upperLetters + Self.digitChars, n) }
    mutating func hex(_ n: Int) -> String { mixed(Array("0123456789abcdef"), n) }
    mutating func digits(_ n: Int) -> String { from(Self.digitChars, n) }
    mutating func base64(_ n: Int) -> String { mixed(Self.base62 + ["+", "/"], n) }
    mutating func base64url(_ n: Int) -> String { mixed(Self.base62 + ["-", "_"], n) }
    mutating func punctuated(_ n: Int) -> String {
        mixed(Self.base62 + Array("!#$%()*+-./:<>?@[]^_{}~"), n)
    }
    mutating func uuid() -> String {
        "\(hex(8))-\(hex(4))-4\(hex(3))-a\(hex(3))-\(hex(12))"
    }

    /// `prefix`, 30 random base62 characters and their CRC-32 in six base62 digits: GitHub's format.
    mutating func checksummed(_ prefix: String) -> String {
        let body = from(Self.base62, 30)
        return prefix + body + Self.base62Digits(UInt64(Self.crc32(Array(body.utf8))), width: 6)
    }

    /// The same shape with a checksum that does not match.
    mutating func badlyChecksummed(_ prefix: String) -> String {
        let good = checksummed(prefix)
        let last = good.last!
        return String(good.dropLast()) + (last == "0" ? "1" : "0")
    }

    static func base62Digits(_ value: UInt64, width: Int) -> String {
        var value = value
        var out: [Character] = []
        while value > 0 {
            out.append(base62[Int(value % 62)])
            value /= 62
        }
        while out.count < width { out.append("0") }
        return String(out.reversed())
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// A card number of `length` digits starting with `prefix`, completed with its Luhn digit.
    mutating func card(prefix: String, length: Int) -> String {
        let partial = prefix + digits(length - prefix.count - 1)
        return partial + String(Self.luhnDigit(partial))
    }

    static func luhnDigit(_ partial: String) -> Int {
        var sum = 0
        for (index, c) in partial.reversed().enumerated() {
            var d = Int(String(c))!
            if index % 2 == 0 { d *= 2; if d > 9 { d -= 9 } }
            sum += d
        }
        return (10 - sum % 10) % 10
    }

    /// A Discord bot token: the base64 of an 18-digit id, a 6-character timestamp, a 27-character
    /// HMAC.
    mutating func discordBotToken() -> String {
        let id = "1" + digits(17)
        let encoded = Data(id.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
        return "\(encoded).\(base64url(6)).\(base64url(27))"
    }

    /// A JWT with a JSON header and payload and a random signature.
    mutating func jwt() -> String {
        func encode(_ json: String) -> String {
            Data(json.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        return encode(#"{"alg":"HS256","typ":"JWT"}"#) + "." + encode(#"{"sub":"\#(digits(8))","role":"ops"}"#)
            + "." + base64url(43)
    }

    /// A PEM private key block with random base64 lines.
    mutating func pem(_ label: String) -> String {
        "-----BEGIN \(label)-----\n\(base64(64))\n\(base64(64))\n\(base64(24))==\n-----END \(label)-----"
    }
}
