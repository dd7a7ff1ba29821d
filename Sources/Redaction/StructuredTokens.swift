/// Credentials whose format is more than a prefix and a body: several segments, a separator in
/// the middle, or a checked part. Each is found where its format is cheapest to recognise.
extension TextScanner {
    /// A Discord bot token: the bot's user id in base64 (a 17–20 digit snowflake, so 23–28
    /// characters starting `M`, `N` or `O`), a 6–7 character timestamp and a 27–40 character HMAC,
    /// separated by dots. The first segment decodes to digits, or the whole looks random (a token
    /// retyped or made up for an example has the shape but not the id).
    static func scanDiscordBotToken(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        func segment(_ from: Int) -> Int {
            var j = from
            while j < b.count && j - from <= 48 && TokenCharacters.base64url.contains(b[j]) { j += 1 }
            return j
        }
        let idEnd = segment(i)
        guard (23...28).contains(idEnd - i), idEnd < b.count, b[idEnd] == UInt8(ascii: ".") else {
            return nil
        }
        let timeEnd = segment(idEnd + 1)
        guard (6...7).contains(timeEnd - idEnd - 1), timeEnd < b.count, b[timeEnd] == UInt8(ascii: ".") else {
            return nil
        }
        let end = segment(timeEnd + 1)
        guard (27...40).contains(end - timeEnd - 1), endsWord(b, end) else { return nil }
        if let id = Base64.decode(b[i..<idEnd]), (17...20).contains(id.count), id.allSatisfy(isDigit) {
            return Finding(start: i, end: end, kind: .discordBotToken)
        }
        guard b[i..<end].contains(where: isDigit), b[i..<end].contains(where: isLower),
            b[(i + 1)..<end].contains(where: isUpper)
        else { return nil }
        return Finding(start: i, end: end, kind: .discordBotToken)
    }

    /// A Telegram bot token: the bot's numeric id, a colon and 34–35 base64url characters (the
    /// Bot API documents both lengths in its examples).
    static func scanTelegramBotToken(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        var j = i
        while j < b.count && isDigit(b[j]) && j - i <= 16 { j += 1 }
        guard (6...16).contains(j - i), j < b.count, b[j] == UInt8(ascii: ":") else { return nil }
        let bodyStart = j + 1
        var k = bodyStart
        while k < b.count && k - bodyStart <= 36 && TokenCharacters.base64url.contains(b[k]) { k += 1 }
        guard (34...35).contains(k - bodyStart), endsWord(b, k), b[bodyStart..<k].contains(where: isAlpha),
            b[bodyStart..<k].contains(where: isDigit)
        else { return nil }
        return Finding(start: i, end: k, kind: .telegramBotToken)
    }

    /// A Terraform Cloud or Enterprise API token, `<14 characters>.atlasv1.<60–70 characters>`,
    /// found at its first dot.
    static func scanTerraformToken(_ b: UnsafeBufferPointer<UInt8>, dot: Int, lowerLimit: Int) -> Finding? {
        guard b.has(".atlasv1.", at: dot) else { return nil }
        let start = dot - 14
        guard start >= lowerLimit, b[start..<dot].allSatisfy(isAlnum), isBoundary(b, start) else {
            return nil
        }
        let bodyStart = dot + 9
        var j = bodyStart
        while j < b.count && j - bodyStart <= 70 && TokenCharacters.base64urlEquals.contains(b[j]) { j += 1 }
        guard (60...70).contains(j - bodyStart), endsWord(b, j) else { return nil }
        return Finding(start: start, end: j, kind: .terraformToken)
    }

    /// A 1Password Secret Key: `A3-`, then 32 uppercase letters and digits in five to seven groups
    /// of 4 to 11 (`6-6-5-5-5-5` as the Emergency Kit prints it, or with groups run together).
    static func scanOnePasswordSecretKey(_ b: UnsafeBufferPointer<UInt8>, at i: Int) -> Finding? {
        guard b.has("A3-", at: i) else { return nil }
        var j = i + 3
        var total = 0
        var groups = 0
        while groups < 7 {
            let start = j
            while j < b.count && j - start <= 11 && (isUpper(b[j]) || isDigit(b[j])) { j += 1 }
            guard (4...11).contains(j - start) else { return nil }
            total += j - start
            groups += 1
            guard total < 32, j + 1 < b.count, b[j] == UInt8(ascii: "-"),
                  isUpper(b[j + 1]) || isDigit(b[j + 1]) else { break }
            j += 1
        }
        guard total == 32, (5...7).contains(groups) else { return nil }
        guard endsWord(b, j), b[i + 3..<j].contains(where: isDigit) else { return nil }
        return Finding(start: i, end: j, kind: .onepasswordSecretKey)
    }

    /// A Microsoft Entra ID (Azure AD) client secret: three characters, a digit, `Q~`, then 31–34
    /// characters of `[A-Za-z0-9_~.-]`; found at its `~`.
    static func scanAzureClientSecret(_ b: UnsafeBufferPointer<UInt8>, tilde: Int, lowerLimit: Int)
        -> Finding?
    {
        func allowed(_ c: UInt8) -> Bool {
            isWordByte(c) || c == UInt8(ascii: "~") || c == UInt8(ascii: ".") || c == UInt8(ascii: "-")
        }
        let start = tilde - 5
        guard start >= lowerLimit, b[tilde - 1] == UInt8(ascii: "Q"), isDigit(b[tilde - 2]),
            b[start..<(tilde - 2)].allSatisfy(allowed), start == 0 || !allowed(b[start - 1])
        else { return nil }
        var j = tilde + 1
        while j < b.count && j - tilde <= 35 && allowed(b[j]) { j += 1 }
        while j > tilde + 1 && b[j - 1] == UInt8(ascii: ".") { j -= 1 }
        guard (31...34).contains(j - tilde - 1), j == b.count || !allowed(b[j]) else { return nil }
        return Finding(start: start, end: j, kind: .azureClientSecret)
    }

    /// A 32-hex-digit word that the same line says is a vendor's: `Twilio auth for prod: '<hex>'`,
    /// or the auth token after an account SID (`Client("AC<32 hex>", "<32 hex>")`).
    static func scanVendorHexKey(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Finding? {
        guard end - start == 32, endsWord(b, end) else { return nil }
        let mix = CharacterMix(b[start..<end])
        guard mix.digit, mix.lower, !mix.upper, b[start..<end].allSatisfy(isHex) else { return nil }
        var lineStart = start
        while lineStart > 0 && start - lineStart < 64 && b[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        let before = lineStart..<start
        if b.containsIgnoringCase("twilio", in: before) { return Finding(start: start, end: end, kind: .twilioKey) }
        // An account SID: `AC` and 32 hex digits, one word, earlier on the line.
        var k = lineStart
        while k + 34 <= start {
            if b.has("AC", at: k), k == 0 || !isAlnum(b[k - 1]), b[(k + 2)..<(k + 34)].allSatisfy(isHex),
               k + 34 == b.count || !isAlnum(b[k + 34]) {
                return Finding(start: start, end: end, kind: .twilioKey)
            }
            k += 1
        }
        return nil
    }

    /// A 32-hex-digit word followed by `-`: Mailgun's private keys (`<32 hex>-<8 hex>-<8 hex>`)
    /// and Mailchimp's API keys (`<32 hex>-us<datacenter>`).
    static func scanHexKeyWithSuffix(_ b: UnsafeBufferPointer<UInt8>, start: Int, end: Int) -> Finding? {
        guard end - start == 32, end + 3 < b.count, b[end] == UInt8(ascii: "-"),
            b[start..<end].allSatisfy(isHex)
        else { return nil }
        if b.has("us", at: end + 1) {
            var j = end + 3
            while j < b.count && isDigit(b[j]) && j - end <= 5 { j += 1 }
            guard j > end + 3, endsWord(b, j) else { return nil }
            return Finding(start: start, end: j, kind: .mailchimpKey)
        }
        func hexGroup(_ from: Int) -> Bool {
            from + 8 <= b.count && b[from..<(from + 8)].allSatisfy(isHex)
        }
        guard hexGroup(end + 1), end + 9 < b.count, b[end + 9] == UInt8(ascii: "-"), hexGroup(end + 10),
            endsWord(b, end + 18)
        else { return nil }
        return Finding(start: start, end: end + 18, kind: .mailgunKey)
    }

    /// The secret access key, and session token, written after an AWS access key id on the same
    /// line, as in `aws configure` output or a credentials CSV: the next few words are looked at.
    static func scanPairedAWSSecrets(_ b: UnsafeBufferPointer<UInt8>, after keyEnd: Int) -> [Finding] {
        func separator(_ c: UInt8) -> Bool {
            c == 0x20 || c == 0x09 || c == UInt8(ascii: ",") || c == UInt8(ascii: ";")
                || c == UInt8(ascii: "|")
                || c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") || c == UInt8(ascii: ":")
                || c == UInt8(ascii: "<") || c == UInt8(ascii: ">")
        }
        var found: [Finding] = []
        var j = keyEnd
        var words = 0
        while j < b.count && words < 6 && j - keyEnd < 4096 {
            while j < b.count && separator(b[j]) { j += 1 }
            let start = j
            while j < b.count && !separator(b[j]) && b[j] != 0x0A && b[j] != 0x0D { j += 1 }
            guard j > start else { break }
            words += 1
            let word = start..<j
            let base64 = b[word].allSatisfy {
                isAlnum($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "=")
            }
            guard base64 else { continue }
            if word.count == 40, SecretFields.looksRandom(b, word, threshold: 4.0, minimumLength: 40) {
                found.append(Finding(start: start, end: j, kind: .awsSecretKey))
            } else if word.count >= 100, SecretFields.looksRandom(b, word, threshold: 4.5, minimumLength: 100)
            {
                found.append(Finding(start: start, end: j, kind: .awsSessionToken))
            }
            if j < b.count && (b[j] == 0x0A || b[j] == 0x0D) { break }
        }
        return found
    }
}
