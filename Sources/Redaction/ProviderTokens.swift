/// A provider credential recognised by its fixed prefix: `ghp_` + 36 letters and digits, and so on.
///
/// Prefix formats are the cheapest and most precise detectors there are: the prefix is checked
/// only at a word start, and the body must have the provider's alphabet and length.
struct TokenFormat: Sendable {
    let prefix: [UInt8]
    let kind: String
    let body: TokenCharacters
    let minimumBody: Int
    let maximumBody: Int
    /// Real keys are random: a body without a digit is prose or a made-up name (`sk-your-key`).
    let needsDigit: Bool

    init(_ prefix: String, _ kind: String, _ body: TokenCharacters, min: Int, max: Int = .max,
         needsDigit: Bool = true) {
        self.prefix = Array(prefix.utf8)
        self.kind = kind
        self.body = body
        self.minimumBody = min
        self.maximumBody = max
        self.needsDigit = needsDigit
    }

    /// Every prefix format the built-in rules know, longest prefix first within a provider.
    static let all: [TokenFormat] = [
        TokenFormat("sk-ant-", "anthropic_key", .base64url, min: 20),
        // sk-, sk-proj-, sk-svcacct-, sk-admin-: the body alphabet includes the dash.
        TokenFormat("sk-", "openai_key", .base64url, min: 20),
        TokenFormat("sk_live_", "stripe_key", .alnum, min: 16),
        TokenFormat("sk_test_", "stripe_key", .alnum, min: 16),
        TokenFormat("rk_live_", "stripe_key", .alnum, min: 16),
        TokenFormat("rk_test_", "stripe_key", .alnum, min: 16),
        TokenFormat("whsec_", "stripe_key", .alnum, min: 24),
        TokenFormat("AIza", "google_api_key", .base64url, min: 30),
        TokenFormat("ya29.", "google_oauth_token", .base64url, min: 20),
        TokenFormat("AKIA", "aws_access_key", .upperDigit, min: 16, max: 16),
        TokenFormat("ASIA", "aws_access_key", .upperDigit, min: 16, max: 16),
        TokenFormat("ABIA", "aws_access_key", .upperDigit, min: 16, max: 16),
        TokenFormat("ACCA", "aws_access_key", .upperDigit, min: 16, max: 16),
        TokenFormat("ghp_", "github_token", .alnum, min: 30),
        TokenFormat("gho_", "github_token", .alnum, min: 30),
        TokenFormat("ghu_", "github_token", .alnum, min: 30),
        TokenFormat("ghs_", "github_token", .alnum, min: 30),
        TokenFormat("ghr_", "github_token", .alnum, min: 30),
        TokenFormat("github_pat_", "github_token", .alnumUnderscore, min: 22),
        TokenFormat("glpat-", "gitlab_token", .base64url, min: 20),
        TokenFormat("xoxb-", "slack_token", .alnumDash, min: 10),
        TokenFormat("xoxp-", "slack_token", .alnumDash, min: 10),
        TokenFormat("xoxa-", "slack_token", .alnumDash, min: 10),
        TokenFormat("xoxr-", "slack_token", .alnumDash, min: 10),
        TokenFormat("xoxs-", "slack_token", .alnumDash, min: 10),
        TokenFormat("xoxe-", "slack_token", .alnumDash, min: 10),
        TokenFormat("xapp-", "slack_token", .alnumDash, min: 10),
        TokenFormat("hf_", "huggingface_token", .alnum, min: 30),
        TokenFormat("npm_", "npm_token", .alnum, min: 30),
        TokenFormat("SG.", "sendgrid_key", .base64urlDot, min: 40),
        TokenFormat("SK", "twilio_key", .hex, min: 32, max: 32),
        TokenFormat("shpat_", "shopify_token", .hex, min: 32, max: 32),
        TokenFormat("shpss_", "shopify_token", .hex, min: 32, max: 32),
        TokenFormat("shpca_", "shopify_token", .hex, min: 32, max: 32),
        TokenFormat("shppa_", "shopify_token", .hex, min: 32, max: 32),
        TokenFormat("dop_v1_", "digitalocean_token", .hex, min: 64, max: 64),
        TokenFormat("pypi-AgEIcHlwaS5vcmc", "pypi_token", .base64url, min: 50),
        TokenFormat("gsk_", "groq_key", .alnum, min: 40),
        TokenFormat("xai-", "xai_key", .alnum, min: 40),
        TokenFormat("r8_", "replicate_token", .alnum, min: 30),
        TokenFormat("pplx-", "perplexity_key", .alnum, min: 40),
        TokenFormat("nvapi-", "nvidia_key", .base64url, min: 40),
        TokenFormat("lin_api_", "linear_key", .alnum, min: 30),
        TokenFormat("dapi", "databricks_token", .hex, min: 32, max: 32),
        TokenFormat("AGE-SECRET-KEY-1", "age_secret_key", .upperDigit, min: 50),
    ]

    /// The kinds the prefix formats report, for the built-in rule list.
    static let kinds: [String] = {
        var seen = Set<String>()
        return all.map(\.kind).filter { seen.insert($0).inserted }
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
    static func table(for kinds: Set<String>) -> [[TokenFormat]] {
        var table = [[TokenFormat]](repeating: [], count: 256)
        for format in all where kinds.contains(format.kind) {
            table[Int(format.prefix[0])].append(format)
        }
        return table
    }
}
