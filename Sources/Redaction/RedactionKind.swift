/// What a redacted value was: the `<kind>` of `[REDACTED:<kind>]`, and the key of the counts.
///
/// An open set: the built-in detectors report the kinds declared here, and a custom rule names its
/// own (``RedactionRule/init(kind:pattern:triggers:validator:)``), in lowercase snake case.
public struct RedactionKind: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name as markers and reports print it: `openai_key`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }

    public static func < (a: RedactionKind, b: RedactionKind) -> Bool { a.rawValue < b.rawValue }
}

/// The kinds the built-in detectors report.
extension RedactionKind {
    public static let ageSecretKey = RedactionKind(rawValue: "age_secret_key")
    public static let anthropicKey = RedactionKind(rawValue: "anthropic_key")
    public static let apiKey = RedactionKind(rawValue: "api_key")
    public static let artifactoryKey = RedactionKind(rawValue: "artifactory_key")
    public static let atlassianToken = RedactionKind(rawValue: "atlassian_token")
    public static let awsAccessKey = RedactionKind(rawValue: "aws_access_key")
    public static let awsSecretKey = RedactionKind(rawValue: "aws_secret_key")
    public static let awsSessionToken = RedactionKind(rawValue: "aws_session_token")
    public static let azureClientSecret = RedactionKind(rawValue: "azure_client_secret")
    public static let basicAuth = RedactionKind(rawValue: "basic_auth")
    public static let bearerToken = RedactionKind(rawValue: "bearer_token")
    public static let contentfulToken = RedactionKind(rawValue: "contentful_token")
    public static let cookie = RedactionKind(rawValue: "cookie")
    public static let creditCard = RedactionKind(rawValue: "credit_card")
    public static let databricksToken = RedactionKind(rawValue: "databricks_token")
    public static let decodedSecret = RedactionKind(rawValue: "decoded_secret")
    public static let digitaloceanToken = RedactionKind(rawValue: "digitalocean_token")
    public static let discordBotToken = RedactionKind(rawValue: "discord_bot_token")
    public static let discordWebhook = RedactionKind(rawValue: "discord_webhook")
    public static let dopplerToken = RedactionKind(rawValue: "doppler_token")
    public static let dynatraceToken = RedactionKind(rawValue: "dynatrace_token")
    public static let email = RedactionKind(rawValue: "email")
    public static let facebookToken = RedactionKind(rawValue: "facebook_token")
    public static let flyioToken = RedactionKind(rawValue: "flyio_token")
    public static let githubToken = RedactionKind(rawValue: "github_token")
    public static let gitlabToken = RedactionKind(rawValue: "gitlab_token")
    public static let googleApiKey = RedactionKind(rawValue: "google_api_key")
    public static let googleOauthSecret = RedactionKind(rawValue: "google_oauth_secret")
    public static let googleOauthToken = RedactionKind(rawValue: "google_oauth_token")
    public static let grafanaToken = RedactionKind(rawValue: "grafana_token")
    public static let groqKey = RedactionKind(rawValue: "groq_key")
    public static let huggingfaceToken = RedactionKind(rawValue: "huggingface_token")
    public static let iban = RedactionKind(rawValue: "iban")
    public static let jwt = RedactionKind(rawValue: "jwt")
    public static let kubernetesSecret = RedactionKind(rawValue: "kubernetes_secret")
    public static let linearKey = RedactionKind(rawValue: "linear_key")
    public static let mailchimpKey = RedactionKind(rawValue: "mailchimp_key")
    public static let mailgunKey = RedactionKind(rawValue: "mailgun_key")
    public static let mapboxToken = RedactionKind(rawValue: "mapbox_token")
    public static let netlifyToken = RedactionKind(rawValue: "netlify_token")
    public static let newrelicKey = RedactionKind(rawValue: "newrelic_key")
    public static let notionToken = RedactionKind(rawValue: "notion_token")
    public static let npmToken = RedactionKind(rawValue: "npm_token")
    public static let nvidiaKey = RedactionKind(rawValue: "nvidia_key")
    public static let onepasswordSecretKey = RedactionKind(rawValue: "onepassword_secret_key")
    public static let onepasswordToken = RedactionKind(rawValue: "onepassword_token")
    public static let openaiKey = RedactionKind(rawValue: "openai_key")
    public static let password = RedactionKind(rawValue: "password")
    public static let perplexityKey = RedactionKind(rawValue: "perplexity_key")
    public static let phone = RedactionKind(rawValue: "phone")
    public static let postmanKey = RedactionKind(rawValue: "postman_key")
    public static let privateKey = RedactionKind(rawValue: "private_key")
    public static let pulumiToken = RedactionKind(rawValue: "pulumi_token")
    public static let pypiToken = RedactionKind(rawValue: "pypi_token")
    public static let renderKey = RedactionKind(rawValue: "render_key")
    public static let replicateToken = RedactionKind(rawValue: "replicate_token")
    public static let secret = RedactionKind(rawValue: "secret")
    public static let sendgridKey = RedactionKind(rawValue: "sendgrid_key")
    public static let sentryToken = RedactionKind(rawValue: "sentry_token")
    public static let shippoToken = RedactionKind(rawValue: "shippo_token")
    public static let shopifyToken = RedactionKind(rawValue: "shopify_token")
    public static let signature = RedactionKind(rawValue: "signature")
    public static let slackToken = RedactionKind(rawValue: "slack_token")
    public static let slackWebhook = RedactionKind(rawValue: "slack_webhook")
    public static let sourcegraphToken = RedactionKind(rawValue: "sourcegraph_token")
    public static let squareToken = RedactionKind(rawValue: "square_token")
    public static let ssn = RedactionKind(rawValue: "ssn")
    public static let stripeKey = RedactionKind(rawValue: "stripe_key")
    public static let supabaseToken = RedactionKind(rawValue: "supabase_token")
    public static let telegramBotToken = RedactionKind(rawValue: "telegram_bot_token")
    public static let terraformToken = RedactionKind(rawValue: "terraform_token")
    public static let token = RedactionKind(rawValue: "token")
    public static let twilioKey = RedactionKind(rawValue: "twilio_key")
    public static let urlCredential = RedactionKind(rawValue: "url_credential")
    public static let vaultToken = RedactionKind(rawValue: "vault_token")
    public static let xaiKey = RedactionKind(rawValue: "xai_key")
}
