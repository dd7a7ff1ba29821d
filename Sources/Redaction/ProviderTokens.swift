/// A provider credential recognised by its fixed prefix: `ghp_` + 36 letters and digits, and so on.
///
/// Prefix formats are the cheapest and most precise detectors there are: the prefix is checked
/// only at a word start, and the body must have the provider's alphabet and length.
struct TokenFormat: Sendable {
    /// What a body must show besides its alphabet and length.
    enum Check: Sendable {
        /// A digit and a letter: real keys are random, and a body without a digit is prose or a
        /// made-up name (`sk-your-key`).
        case digitAndLetter
        /// An uppercase and a lowercase letter, for formats whose bodies may hold no digit.
        case mixedCase
        /// Nothing more than the alphabet and the length, for long fixed-length bodies that prose
        /// never has (Hugging Face's 34 letters).
        case shapeOnly
        /// The last six characters are the base62 CRC-32 of the rest (GitHub's 2021 format); a
        /// body that fails it must look random instead.
        case crc32Suffix
    }

    let prefix: [UInt8]
    let kind: RedactionKind
    let body: TokenCharacters
    let minimumBody: Int
    let maximumBody: Int
    let check: Check

    init(_ prefix: String, _ kind: RedactionKind, _ body: TokenCharacters, min: Int, max: Int = .max,
         check: Check = .digitAndLetter) {
        self.prefix = Array(prefix.utf8)
        self.kind = kind
        self.body = body
        self.minimumBody = min
        self.maximumBody = max
        self.check = check
    }

    /// Every prefix format the built-in rules know, longest prefix first within a provider. The
    /// prefixes, alphabets and lengths are the ones each vendor documents for its credentials.
    static let all: [TokenFormat] = {
        var formats = [
            TokenFormat("sk-ant-", .anthropicKey, .base64url, min: 20),
            // sk-, sk-proj-, sk-svcacct-, sk-admin-: the body alphabet includes the dash.
            TokenFormat("sk-", .openaiKey, .base64url, min: 20),
            TokenFormat("whsec_", .stripeKey, .alnum, min: 24),
            TokenFormat("AIza", .googleApiKey, .base64url, min: 30),
            TokenFormat("ya29.", .googleOauthToken, .base64url, min: 20),
            TokenFormat("GOCSPX-", .googleOauthSecret, .base64url, min: 24),
            TokenFormat("github_pat_", .githubToken, .alnumUnderscore, min: 22),
            TokenFormat("GR1348941", .gitlabToken, .base64url, min: 20),
            TokenFormat("xapp-", .slackToken, .alnumDash, min: 10),
            // Hugging Face user tokens are `hf_` and 34 letters; organization tokens `api_org_`.
            TokenFormat("hf_", .huggingfaceToken, .alnum, min: 30, max: 40, check: .shapeOnly),
            TokenFormat("api_org_", .huggingfaceToken, .alnum, min: 30, max: 40, check: .shapeOnly),
            TokenFormat("npm_", .npmToken, .alnum, min: 30),
            TokenFormat("SG.", .sendgridKey, .base64urlDot, min: 40),
            // Twilio API key SIDs: SK and 32 hex digits.
            TokenFormat("SK", .twilioKey, .alnum, min: 32, max: 32),
            TokenFormat("dop_v1_", .digitaloceanToken, .hex, min: 64, max: 64),
            TokenFormat("doo_v1_", .digitaloceanToken, .hex, min: 64, max: 64),
            TokenFormat("dor_v1_", .digitaloceanToken, .hex, min: 64, max: 64),
            TokenFormat("pypi-AgEIcHlwaS5vcmc", .pypiToken, .base64url, min: 50),
            TokenFormat("pypi-AgENdGVzdC5weXBpLm9yZw", .pypiToken, .base64url, min: 50),
            TokenFormat("gsk_", .groqKey, .alnum, min: 40),
            TokenFormat("xai-", .xaiKey, .alnum, min: 40),
            TokenFormat("r8_", .replicateToken, .alnum, min: 30),
            TokenFormat("pplx-", .perplexityKey, .alnum, min: 40),
            TokenFormat("nvapi-", .nvidiaKey, .base64url, min: 40),
            TokenFormat("lin_api_", .linearKey, .alnum, min: 30),
            TokenFormat("dapi", .databricksToken, .hex, min: 32, max: 32),
            TokenFormat("AGE-SECRET-KEY-1", .ageSecretKey, .upperDigit, min: 50),
            // HashiCorp Vault: service, batch and recovery tokens; before 1.10, `s.` and 24
            // characters. Terraform tokens (`….atlasv1.…`) are found at their middle.
            TokenFormat("hvs.", .vaultToken, .base64url, min: 24, check: .mixedCase),
            TokenFormat("hvb.", .vaultToken, .base64url, min: 24, check: .mixedCase),
            TokenFormat("hvr.", .vaultToken, .base64url, min: 20, check: .mixedCase),
            TokenFormat("s.", .vaultToken, .alnum, min: 24, max: 24),
            // Notion integration tokens: `secret_` and 43 characters, since 2024 `ntn_`.
            TokenFormat("secret_", .notionToken, .alnum, min: 43, max: 43),
            TokenFormat("ntn_", .notionToken, .alnum, min: 40, max: 50),
            // Sentry: user tokens are 64 hex digits, organization tokens base64 JSON and a secret.
            TokenFormat("sntryu_", .sentryToken, .hex, min: 64, max: 64),
            TokenFormat("sntrys_", .sentryToken, .base64, min: 60, check: .mixedCase),
            // Sourcegraph: `sgp_`, optionally an instance id or `local_`, then 40 hex digits.
            TokenFormat("sgp_", .sourcegraphToken, .alnumUnderscore, min: 40, max: 80),
            TokenFormat("sgph_", .sourcegraphToken, .alnumUnderscore, min: 40, max: 80),
            // 1Password service accounts; Secret Keys (`A3-…`) are found by their groups.
            TokenFormat("ops_eyJ", .onepasswordToken, .base64, min: 100, check: .mixedCase),
            // Mailgun: the private API key and the public validation key.
            TokenFormat("key-", .mailgunKey, .lowerDigit, min: 32, max: 32),
            TokenFormat("pubkey-", .mailgunKey, .lowerDigit, min: 32, max: 32),
            // Square before Facebook: both start with EAA.
            TokenFormat("EAAA", .squareToken, .base64url, min: 60),
            TokenFormat("EAA", .facebookToken, .alnum, min: 60),
            TokenFormat("sq0atp-", .squareToken, .base64url, min: 22),
            TokenFormat("sq0csp-", .squareToken, .base64url, min: 40),
            TokenFormat("ATATT3", .atlassianToken, .base64urlEquals, min: 100),
            TokenFormat("AKCp", .artifactoryKey, .alnum, min: 60),
            TokenFormat("PMAK-", .postmanKey, .alnumDash, min: 50),
            TokenFormat("NRAK-", .newrelicKey, .upperDigit, min: 27, max: 27),
            TokenFormat("dp.pt.", .dopplerToken, .alnum, min: 40),
            TokenFormat("dp.st.", .dopplerToken, .alnum, min: 40),
            TokenFormat("dt0c01.", .dynatraceToken, .base64urlDot, min: 80),
            TokenFormat("pul-", .pulumiToken, .hex, min: 40, max: 40),
            TokenFormat("sbp_", .supabaseToken, .hex, min: 40, max: 40),
            TokenFormat("glc_", .grafanaToken, .base64urlEquals, min: 32),
            TokenFormat("glsa_", .grafanaToken, .alnumUnderscore, min: 32),
            TokenFormat("sk.eyJ", .mapboxToken, .base64urlDot, min: 60),
            TokenFormat("CFPAT-", .contentfulToken, .base64url, min: 40),
            TokenFormat("fo1_", .flyioToken, .base64url, min: 40),
            TokenFormat("nfp_", .netlifyToken, .alnum, min: 36),
            TokenFormat("rnd_", .renderKey, .alnum, min: 30),
            TokenFormat("shippo_live_", .shippoToken, .hex, min: 40, max: 40),
            TokenFormat("shippo_test_", .shippoToken, .hex, min: 40, max: 40),
            TokenFormat("IQoJb3JpZ2luX2Vj", .awsSessionToken, .base64, min: 100),
            TokenFormat("FwoGZXIvYXdzE", .awsSessionToken, .base64, min: 100),
        ]
        // Stripe: secret and restricted keys, live, test or prod.
        for kind in ["sk", "rk"] {
            for mode in ["live", "test", "prod"] {
                formats.append(TokenFormat("\(kind)_\(mode)_", .stripeKey, .alnum, min: 10))
            }
        }
        for prefix in ["AKIA", "ASIA", "ABIA", "ACCA"] {
            // About one id in 28 holds no digit among its 16 characters: the shape decides.
            formats.append(
                TokenFormat(prefix, .awsAccessKey, .upperDigit, min: 16, max: 16, check: .shapeOnly))
        }
        // GitHub's tokens end in a CRC-32 of their body.
        for prefix in ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"] {
            formats.append(TokenFormat(prefix, .githubToken, .alnum, min: 36, max: 36, check: .crc32Suffix))
        }
        for prefix in ["glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "glft-", "glimt-", "glagent-",
                       "gloas-", "glsoat-", "glffct-"] {
            formats.append(TokenFormat(prefix, .gitlabToken, .base64url, min: 20))
        }
        for prefix in ["xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxc-"] {
            formats.append(TokenFormat(prefix, .slackToken, .alnumDash, min: 10))
        }
        for prefix in ["shpat_", "shpss_", "shpca_", "shppa_"] {
            formats.append(TokenFormat(prefix, .shopifyToken, .hex, min: 32, max: 32))
        }
        // Longest prefix first, so that `sk-ant-` is tried before `sk-` and `EAAA` before `EAA`.
        return formats.enumerated().sorted {
            $0.element.prefix.count != $1.element.prefix.count
                ? $0.element.prefix.count > $1.element.prefix.count : $0.offset < $1.offset
        }.map(\.element)
    }()

    /// The kinds of the formats found by their shape (``TextScanner``'s structured scanners).
    static let structuredKinds: [RedactionKind] = [
        .discordBotToken, .telegramBotToken, .terraformToken, .onepasswordSecretKey,
        .azureClientSecret, .mailgunKey, .mailchimpKey, .awsSecretKey, .awsSessionToken,
    ]

    /// The kinds the token formats report, for the built-in rule list.
    static let kinds: [RedactionKind] = {
        var seen = Set<RedactionKind>()
        return (all.map(\.kind) + structuredKinds).filter { seen.insert($0).inserted }
    }()

    /// The (first byte, second byte) pairs of the prefixes in `table`, as a 256 × 256 bit set.
    static func pairBits(_ table: [[TokenFormat]]) -> [UInt64] {
        var bits = [UInt64](repeating: 0, count: 1024)
        for formats in table {
            for format in formats where format.prefix.count >= 2 {
                let first = Int(format.prefix[0]), second = format.prefix[1]
                bits[first << 2 | Int(second >> 6)] |= 1 << UInt64(second & 63)
            }
        }
        return bits
    }

    /// Formats indexed by their first byte, restricted to `kinds`.
    static func table(for kinds: Set<RedactionKind>) -> [[TokenFormat]] {
        var table = [[TokenFormat]](repeating: [], count: 256)
        for format in all where kinds.contains(format.kind) {
            table[Int(format.prefix[0])].append(format)
        }
        return table
    }
}
