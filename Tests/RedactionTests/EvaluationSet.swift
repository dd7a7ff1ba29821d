import Foundation

/// A private evaluation set: lines holding one secret each, written from the vendors' documented
/// formats with values generated at run time, and harmless look-alikes. `%` in a template is
/// where the secret goes.
enum EvaluationSet {
    struct SecretLine: Sendable {
        let kind: String
        let text: String
        let secret: String
    }

    static func secretLines() -> [SecretLine] {
        var f = Fake(seed: 0xE7A1)
        var lines: [SecretLine] = []
        func add(_ kind: String, _ value: String, _ templates: [String]) {
            for template in templates {
                lines.append(SecretLine(kind: kind, text: template.replacingOccurrences(of: "%", with: value),
                                        secret: value))
            }
        }
        add("openai", "sk-proj-" + f.base64url(48), ["OPENAI_API_KEY=%", "client = OpenAI(api_key=\"%\")"])
        add("openai", "sk-" + f.alnum(48), ["{\"openai\": {\"key\": \"%\"}}", "the key % stopped working"])
        add("anthropic", "sk-ant-api03-" + f.base64url(93) + "AA", ["ANTHROPIC_API_KEY=\"%\"", "x-api-key: %"])
        add("aws_access_key", "AKIA" + f.upperDigits(16), ["aws_access_key_id = %", "leaked % in a build log"])
        add("aws_access_key", "ASIA" + f.upperDigits(16), ["<AccessKeyId>%</AccessKeyId>"])
        let awsSecret = f.base64(40)
        add("aws_secret", awsSecret, [
            "aws_secret_access_key = %", "AWS_SECRET_ACCESS_KEY: \"%\"", "<SecretAccessKey>%</SecretAccessKey>",
            "<secret_key>%</secret_key>", "secret_key = %",
            "AKIA\(f.upperDigits(16)),%", "ana,,AKIA\(f.upperDigits(16)),%,https://acme.signin.aws.amazon.com/console",
            "export AWS_SECRET_KEY=%", "\"SecretAccessKey\": \"%\",",
        ])
        add("aws_session", "IQoJb3JpZ2luX2VjE" + f.base64(180), [
            "<SessionToken>%</SessionToken>", "aws_session_token = %", "AWS_SESSION_TOKEN=%",
        ])
        add("aws_session", "FwoGZXIvYXdzE" + f.base64(200), ["<sessionToken>%</sessionToken>"])
        add("github", f.checksummed("ghp_"), ["GITHUB_TOKEN=%", "git clone https://%@github.com/acme/app.git"])
        add("github", f.checksummed("gho_"), ["oauth returned % for the app"])
        add("github", f.checksummed("ghs_"), ["echo % | gh auth login --with-token"])
        add("github", f.checksummed("ghu_"), ["token: %"])
        add("github", "github_pat_11" + f.upperDigits(20) + "_" + f.alnum(59), ["GH_PAT=%"])
        add("gitlab", "glpat-" + f.base64url(20), ["PRIVATE-TOKEN: %", "gitlab_token = \"%\""])
        add("gitlab", "glrt-" + f.base64url(20), ["runner token %"])
        add("slack", "xoxb-\(f.digits(12))-\(f.digits(13))-\(f.alnum(24))", ["SLACK_BOT_TOKEN=%", "slack: %"])
        add("slack", "xoxp-\(f.digits(12))-\(f.digits(12))-\(f.digits(13))-\(f.hex(32))", ["user token %"])
        add("slack_webhook", "T\(f.upperDigits(8))/B\(f.upperDigits(10))/\(f.alnum(24))",
            ["webhook_url: https://hooks.slack.com/services/%"])
        add("stripe", "sk_live_" + f.alnum(24), ["stripe.api_key = '%'", "STRIPE_SECRET=%"])
        add("stripe", "sk_live_51" + f.alnum(97), ["Stripe::setApiKey('%');"])
        add("stripe_restricted", "rk_live_" + f.alnum(24), ["STRIPE_RESTRICTED_KEY=%", "rk: %"])
        add("stripe_restricted", "rk_test_" + f.alnum(99), ["const stripe = require('stripe')('%');"])
        add("stripe_restricted", "rk_prod_" + f.alnum(24), ["\"restricted\": \"%\""])
        add("google", "AIza" + f.base64url(35), ["GOOGLE_API_KEY=%", "https://maps.googleapis.com/maps/api/js?key=%"])
        add("gcp_oauth", "GOCSPX-" + f.base64url(28), ["\"client_secret\": \"%\"", "oauth secret %"])
        add("hf_user", "hf_" + f.letters(34), ["HF_TOKEN=%", "huggingface-cli login --token %",
                                               "from_pretrained(name, token=\"%\")", "hf token: %"])
        add("hf_org", "api_org_" + f.letters(34), ["HUGGINGFACE_ORG_TOKEN=%", "use_auth_token='%'"])
        add("vault", "hvs." + f.base64url(90), ["VAULT_TOKEN=%", "X-Vault-Token: %", "vault login %"])
        add("vault", "hvb." + f.base64url(120), ["batch token %"])
        add("vault", "s." + f.alnum(24), ["export VAULT_TOKEN=%", "vault token: %"])
        add("terraform", f.alnum(14) + ".atlasv1." + f.base64url(67), [
            "credentials \"app.terraform.io\" { token = \"%\" }", "TFE_TOKEN=%", "tf token %",
        ])
        add("notion", "secret_" + f.alnum(43), ["NOTION_KEY=%", "new Client({ auth: \"%\" })"])
        add("notion", "ntn_" + f.digits(11) + f.alnum(35), ["NOTION_TOKEN=%", "notion %"])
        add("sentry", "sntryu_" + f.hex(64), ["SENTRY_AUTH_TOKEN=%", "sentry-cli --auth-token %"])
        let sentryPayload = Data(#"{"iat":1700000000.0,"url":"https://sentry.io","org":"acme"}"#.utf8)
            .base64EncodedString().replacingOccurrences(of: "=", with: "")
        add("sentry", "sntrys_" + sentryPayload + "_" + f.base64(43), ["auth.token=%", "sentry: %"])
        add("sourcegraph", "sgp_" + f.hex(40), ["SRC_ACCESS_TOKEN=%", "Authorization: token %"])
        add("sourcegraph", "sgp_" + f.hex(16) + "_" + f.hex(40), ["sourcegraph %"])
        add("sourcegraph", "sgp_local_" + f.hex(40), ["local token %"])
        add("1password", "A3-\(f.upperDigits(6))-\(f.upperDigits(6))-\(f.upperDigits(5))-\(f.upperDigits(5))-"
            + "\(f.upperDigits(5))-\(f.upperDigits(5))", ["Secret Key: %", "emergency kit %"])
        add("1password", "ops_eyJ" + f.base64(300), ["OP_SERVICE_ACCOUNT_TOKEN=%", "op token %"])
        add("discord", f.discordBotToken(), ["DISCORD_TOKEN=%", "client.login('%')", "bot %"])
        add("discord_webhook", "\(f.digits(18))/\(f.base64url(68))",
            ["https://discord.com/api/webhooks/%"])
        add("telegram", "\(f.digits(10)):AA\(f.base64url(33))", [
            "TELEGRAM_BOT_TOKEN=%", "https://api.telegram.org/bot%/getMe", "bot = telebot.TeleBot(\"%\")",
        ])
        add("mailgun", "key-" + f.lowerDigits(32), ["MAILGUN_API_KEY=%", "curl -s --user 'api:%' https://api.mailgun.net"])
        add("mailgun", "\(f.hex(32))-\(f.hex(8))-\(f.hex(8))", ["mailgun.key = %", "mailgun %"])
        add("mailchimp", "\(f.hex(32))-us\(f.digits(2))", ["MAILCHIMP_KEY=%", "mailchimp %"])
        add("twilio", "SK" + f.hex(32), ["TWILIO_API_KEY=%", "twilio key %"])
        add("twilio_auth", f.hex(32), ["TWILIO_AUTH_TOKEN=%", "twilio_auth_token: \"%\""])
        add("facebook", "EAACEdEose0cBA" + f.alnum(150), ["FACEBOOK_ACCESS_TOKEN=%", "graph?access_token=%"])
        add("facebook_secret", f.hex(32), ["FACEBOOK_APP_SECRET=%", "facebook_secret: '%'", "\"app_secret\": \"%\""])
        add("azure_client_secret", f.alnum(3) + "8Q~" + f.base64url(31) + "." + f.alnum(2), [
            "AZURE_CLIENT_SECRET=%", "\"clientSecret\": \"%\"", "azure secret %",
        ])
        add("azure_storage", f.base64(86) + "==", [
            "DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=%;EndpointSuffix=core.windows.net",
        ])
        add("npm", "npm_" + f.alnum(36), ["//registry.npmjs.org/:_authToken=%", "NPM_TOKEN=%"])
        add("pypi", "pypi-AgEIcHlwaS5vcmc" + f.base64url(150), ["password = %", "TWINE_PASSWORD=%"])
        add("sendgrid", "SG." + f.base64url(22) + "." + f.base64url(43), ["SENDGRID_API_KEY=%", "sg %"])
        add("shopify", "shpat_" + f.hex(32), ["X-Shopify-Access-Token: %"])
        add("databricks", "dapi" + f.hex(32), ["DATABRICKS_TOKEN=%"])
        add("digitalocean", "dop_v1_" + f.hex(64), ["DIGITALOCEAN_TOKEN=%"])
        add("groq", "gsk_" + f.alnum(52), ["GROQ_API_KEY=%"])
        add("square", "EAAA" + f.base64url(60), ["SQUARE_ACCESS_TOKEN=%"])
        add("atlassian", "ATATT3xFfGF0" + f.base64url(170) + "=" + f.hex(8).uppercased(), ["JIRA_API_TOKEN=%"])
        add("postman", "PMAK-\(f.hex(24))-\(f.hex(34))", ["postman %"])
        add("newrelic", "NRAK-" + f.upperDigits(27), ["NEW_RELIC_API_KEY=%"])
        add("age", "AGE-SECRET-KEY-1" + f.upperDigits(58), ["# key: %"])
        add("jwt", f.jwt(), ["Authorization: Bearer %", "id_token=%&state=af0ifjsldkj", "{\"jwt\": \"%\"}",
                             "session cookie jwt %"])
        add("pem", f.pem("RSA PRIVATE KEY"), ["key:\n%\nend"])
        add("pem", f.pem("PRIVATE KEY"), ["%"])
        add("pem", f.pem("OPENSSH PRIVATE KEY"), ["id_ed25519:\n%"])
        add("pem", f.pem("EC PRIVATE KEY"), ["\"private_key\": \"%\"".replacingOccurrences(of: "\n", with: "\\n")])
        add("bearer", f.alnum(40), ["Authorization: Bearer %", "curl -H 'Authorization: Bearer %' https://api.x"])
        add("basic", Data("deploy:\(f.alnum(14))".utf8).base64EncodedString(), ["Authorization: Basic %"])
        let curlPassword = f.punctuated(14).replacingOccurrences(of: "'", with: "")
        add("curl_user", curlPassword, ["curl -u admin:% https://x",
                                        "curl --user \"ops:%\" https://api.internal"])
        add("curl_user", "Pa55-" + f.alnum(8), ["curl -su deploy:% https://x", "curl -X POST -u ana:% https://x"])
        add("url_credential", "s3cr3t" + f.alnum(6), [
            "DATABASE_URL=postgres://app:%@db.internal:5432/prod", "redis://:%@cache:6379/0",
            "amqp://guest:%@rabbit:5672/", "mongodb+srv://root:%@cluster0.mongodb.net/test",
        ])
        add("password", "Tr0ub4dor&" + f.digits(3), [
            "password=%", "DB_PASSWORD: %", "db.password = %", "\"password\": \"%\"", "<password>%</password>",
            "spring.datasource.password=%", "--password=%", "PGPASSWORD=% psql -h db", "$password = '%';",
            "'password' => '%',", "passwd: %", "pwd=%", "password := \"%\"",
            "if password == \"%\" {", "ENV[\"DB_PASSWORD\"] = \"%\"", "  admin_password: \"%\"",
        ])
        let punct = "m{{h}o)p${e]nob(ody[finds>-" + f.alnum(4) + "}"
        add("password_punct", punct, ["password = %", "db_pass=%"])
        add("password_punct", "p@$$w0rd!#%&" + f.digits(2), ["PASSWORD=%", "admin_pass: %"])
        add("password_punct", "(" + f.alnum(6) + ")[" + f.alnum(4) + "]", ["secret = %"])
        add("jdbc", "Sup3r" + f.alnum(6) + "!", [
            "jdbc:sqlserver://db:1433;databaseName=shop;user=sa;password=%;encrypt=true",
            "Server=tcp:acme.database.windows.net,1433;Database=app;User ID=app;Password=%;Encrypt=True;",
            "Driver={PostgreSQL};Server=db;Port=5432;Database=app;Uid=app;Pwd=%;",
            "\"ConnectionStrings\": {\"Default\": \"Host=db;Username=app;Password=%\"}",
            "jdbc:mysql://db:3306/app?user=app&password=%&useSSL=true",
        ])
        add("odbc_braces", "p;" + f.alnum(8), [
            "Driver={ODBC Driver 18 for SQL Server};Server=db;Uid=sa;Pwd={%};",
        ])
        add("netrc", f.hex(40), ["machine api.heroku.com login ana@example.org password %"])
        add("config_xml", f.alnum(26), ["<add key=\"StorageKey\" value=\"%\" />",
                                        "<property name=\"db.password\" value=\"%\"/>"])
        add("cli_password", "Pw" + f.alnum(12), ["mysql -u root -p% app", "docker login -u ci -p % ghcr.io",
                                                 "sshpass -p '%' scp a.txt host:"])
        add("uuid_token", f.uuid(), [
            "api_token = \"%\"", "HEROKU_API_KEY=%", "api_token: %", "\"auth_token\": \"%\"", "apiToken := \"%\"",
            "'api_token' => '%'", "<apiToken>%</apiToken>", "X-Auth-Token: %",
        ])
        add("secret_field", f.alnum(32), [
            "client_secret=%", "CLIENT_SECRET: '%'", "secret: %", "\"webhook_secret\": \"%\"", "app.secret_key = '%'",
            "SECRET_KEY_BASE=%", "access_token: %", "refresh_token=%", "auth: %", "credentials: %",
            "encryption_key = \"%\"", "signing_key: %",
        ])
        add("xml_ci", f.alnum(24), [
            "<secretKey>%</secretKey>", "<passphrase>%</passphrase>", "<apiToken>%</apiToken>",
            "<key>password</key><string>%</string>", "<entryToken>%</entryToken>",
        ])
        add("cookie", "sid=" + f.alnum(24), ["Cookie: %", "Set-Cookie: %; Path=/; HttpOnly"])
        add("email", "ana.garcia\(f.digits(2))@example.org", ["Contact % for refunds.", "From: <%>", "email=%"])
        add("email_spelled", "jane.doe at example.com", ["write to %"])
        add("email_spelled", "jdoe [at] example [dot] org", ["mail: %"])
        add("email_spelled", "mario.rossi(at)posta.it", ["contatto %"])
        add("email_spelled", "carlos at correo dot es", ["escribe a %"])
        add("email_spelled", "kim_lee at uni-bonn.de", ["reach % any time"])
        add("phone_us", "(415) 555-0\(f.digits(3))", ["call % after 5pm"])
        add("phone_us", "415-555-0\(f.digits(3))", ["phone: %"])
        add("phone_intl", "+44 20 7946 0\(f.digits(3))", ["London office %"])
        add("phone_intl", "+44 (0)20 7946 0\(f.digits(3))", ["tel %"])
        add("phone_intl", "+49 30 901820\(f.digits(2))", ["Berlin %"])
        add("phone_intl", "+33 1 42 68 53 \(f.digits(2))", ["Paris %"])
        add("phone_intl", "+91 98765 4\(f.digits(4))", ["mobile %"])
        add("phone_intl", "0044 20 7946 0\(f.digits(3))", ["UK office %"])
        add("phone_national", "030 9018 20\(f.digits(2))", ["Telefon: %"])
        add("phone_national", "06 12 34 56 \(f.digits(2))", ["portable %"])
        add("phone_national", "(02) 9876 5\(f.digits(3))", ["phone %"])
        add("phone_national", "020 7946 0\(f.digits(3))", ["call us on %"])
        add("phone_national", "0171-234567\(f.digits(1))", ["Handy: %"])
        add("ssn", "536-22-\(4000 + Int(f.digits(3))!)", ["SSN %", "ssn: %"])
        add("ssn", "536.22.\(4000 + Int(f.digits(3))!)", ["social security number %"])
        add("ssn", "536 22 \(4000 + Int(f.digits(3))!)", ["SSN: %"])
        add("card", f.card(prefix: "4", length: 16), ["card %", "cc=%"])
        add("card", f.card(prefix: "51", length: 16), ["paid with %"])
        add("card_amex", f.card(prefix: "37", length: 15), ["amex %", "card_number=%"])
        let amex = f.card(prefix: "34", length: 15)
        add("card_amex", "\(amex.prefix(4)) \(amex.dropFirst(4).prefix(6)) \(amex.suffix(5))", ["Amex: %"])
        let uatp = f.card(prefix: "1", length: 15)
        add("card_15", "\(uatp.prefix(4)) \(uatp.dropFirst(4).prefix(5)) \(uatp.suffix(6))", ["UATP card %"])
        add("card", f.card(prefix: "6011", length: 16), ["discover=%"])
        add("card", f.card(prefix: "3528", length: 16), ["JCB %"])
        let visa = f.card(prefix: "4", length: 16)
        add("card", stride(from: 0, to: 16, by: 4).map { i in
            String(visa.dropFirst(i).prefix(4))
        }.joined(separator: "-"), ["card number: %"])
        add("iban", "GB82WEST12345698765432", ["IBAN %"])
        // Issue 25's classes once missed, each in new values.
        add("bearer_lowercase", f.alnum(22), ["sent bearer % upstream", "proxy said: bearer %"])
        add("curl_quoted", "Pw" + f.alnum(12), ["curl -u \"admin\":\"%\" https://api.internal",
                                               "curl -u 'ops':'%' https://x"])
        let compared = "Qx" + f.alnum(5) + "#" + f.alnum(6) + "!"
        add("comparison", compared, ["if (db_pass !== \"%\")", "if pwd != '%':"])
        add("constructor", compared, ["std::string secret(\"%\");"])
        add("env_default", f.alnum(18), ["os.getenv(\"API_TOKEN\", \"%\")"])
        add("vendor_word", f.hex(32), ["Twilio auth for prod: '%'", "Client(\"AC\(f.hex(32))\", \"%\")"])
        add("prose", f.base64(40), ["my aws secret key is %"])
        add("prose", f.alnum(16), ["Your `STRIPE_KEY` is set to `%`."])
        add("ellipsis", "Tr0ub4dor" + f.digits(4), [";password=%..."])
        add("member_shaped", "Plum.Harbor" + f.digits(4), ["SMTP_PASSWORD=%"])
        add("env_punctuated", f.lowerDigits(2) + "(&" + f.lowerDigits(4) + "%" + f.lowerDigits(2) + "*" + f.alnum(4),
            ["SECRET_KEY=%"])
        add("env_punctuated", f.alnum(6) + "&" + f.alnum(6), ["DB_PASSWORD=%"])
        add("aws_no_digit", "AKIA" + f.from(Fake.upperLetters, 16), ["aws_access_key_id = %", "key %"])
        // `%` is where the secret goes, so these lines are written out.
        let escaped = f.checksummed("ghp_")
        for prefix in ["q=%22", "redirect=%3D"] {
            lines.append(SecretLine(kind: "percent_escape", text: prefix + escaped, secret: escaped))
        }
        add("1password_joined", "A3-\(f.upperDigits(6))-\(f.upperDigits(11))-\(f.upperDigits(5))-"
            + "\(f.upperDigits(5))-\(f.upperDigits(5))", ["key %"])
        let foreign = f.alnum(12)
        add("foreign_keyword", foreign, [
            "contraseña=%", "mot_de_passe: %", "\u{043F}\u{0430}\u{0440}\u{043E}\u{043B}\u{044C}=%",
            "\u{5BC6}\u{7801}\u{FF1A}%", "\u{30D1}\u{30B9}\u{30EF}\u{30FC}\u{30C9}\u{FF1A}%",
        ])
        add("email_unicode", "j\u{00F6}rg.m\u{00FC}ller\(f.digits(2))@example.de", ["write to % now"])
        add("email_unicode", "info\(f.digits(2))@b\u{00FC}cher.de", ["Kontakt: %"])
        add("phone_national_bare", "0151 2345\(f.digits(4))", ["ruf % an"])
        add("phone_national_bare", "06 12 34 56 \(f.digits(2))", ["appelle le %"])
        add("phone_national_bare", "090-1234-\(f.digits(4))", ["携帯 %"])
        add("unknown_name", f.hex(40), ["\"private_key_id\": \"%\","])
        add("unknown_name", f.base64(400), ["session: %"])
        // Full-width digits, as a Japanese, Chinese or Korean keyboard types them.
        func wide(_ ascii: String) -> String {
            String(String.UnicodeScalarView(ascii.unicodeScalars.map {
                $0 == " " ? "\u{3000}" : Unicode.Scalar($0.value + 0xFEE0)!
            }))
        }
        add("phone_full_width", wide("090-1234-\(f.digits(4))"), ["\u{643A}\u{5E2F} %"])
        add("phone_full_width", wide("0151 2345\(f.digits(4))"), ["call me at % today"])
        add("card_full_width", wide("4111 1111 1111 1111"), ["card %"])
        let secretData = f.base64(24)
        add("kubernetes_json", secretData, [
            #"{"apiVersion": "v1", "data": {"DB_CONN": "%"}, "kind": "Secret"}"#,
            #"kubectl said: {\"kind\":\"Secret\",\"data\":{\"token\":\"%\"}}"#,
        ])
        return lines
    }

    /// Harmless lines that look like the secret lines: each must come out byte for byte.
    static func harmlessLines() -> [String] {
        var f = Fake(seed: 0xBEEF)
        return [
            // Code on the right of `=`.
            "password = get_password(user)",
            "token = self.token",
            "api_key = config.api_key",
            "secret = os.environ[\"APP_SECRET\"]",
            "password = os.getenv(\"DB_PASSWORD\")",
            "const token = process.env.GITHUB_TOKEN;",
            "let apiKey = try keychain.read(service: \"api\")",
            "access_token = response.json()[\"access_token\"]",
            "self.password = password",
            "token = generate_token(user_id, expires_in=3600)",
            "api_key: str = Field(..., env=\"API_KEY\")",
            "password: String",
            "token: Optional[str] = None",
            "secret_key = SecretKeySpec(bytes, \"HmacSHA256\")",
            "private String password;",
            "var authToken: String?",
            "client_secret = settings.CLIENT_SECRET",
            "password = PasswordField(\"Password\", validators=[DataRequired()])",
            "token = request.headers.get(\"Authorization\")",
            "if password == confirm_password:",
            "password = hashlib.sha256(raw.encode()).hexdigest()",
            "secret = new Secret(name, value);",
            "$password = $_POST['password'];",
            "token := os.Getenv(\"TOKEN\")",
            "apiKey := cfg.APIKey",
            "password = None",
            "API_TOKEN = ACCESS_TOKEN",
            "credentials = service_account.Credentials.from_service_account_file(path)",
            "auth = HTTPBasicAuth(user, password)",
            "token=$(cat /run/secrets/token)",
            // Placeholders and variable references.
            "api_key: insert_key_here",
            "API_KEY=insert-your-api-key-here",
            "token = \"<your-token>\"",
            "password: ${DB_PASSWORD:=postgres}",
            "export TOKEN=${GITHUB_TOKEN:-}",
            "curl -u <user:password> https://api.example.com",
            "curl -u $USER:$PASS https://api.example.com",
            "https://<user>:<password>@host/path",
            "password: \"{{ vault_db_password }}\"",
            "secret: ${{ secrets.DEPLOY_KEY }}",
            "token: \"ACCESS_TOKEN\"",
            "password = \"ADMIN_PASSWORD\"",
            "API_KEY=your_api_key",
            "password=changeme",
            "api_key = \"REPLACE_ME\"",
            "OPENAI_API_KEY=sk-...",
            "Authorization: Bearer <token>",
            "Authorization: Bearer $TOKEN",
            "password: '********'",
            "secret_key = '%(SECRET_KEY)s'",
            "token = \"{token}\"",
            "password=\"\"",
            "export AWS_SECRET_ACCESS_KEY=",
            // Identifiers that are not secrets.
            "credentialsId: 'github-deploy-creds'",
            "aws_access_key_id_name = \"prod\"",
            "secret_name: \"db-credentials\"",
            "key_id = \"alias/app-key\"",
            "client_id = \"\(f.hex(20)).apps.example.com\"",
            "tokenUrl: https://login.example.com/oauth2/token",
            "token_type: bearer",
            "password_policy: strict",
            "api_key_header = \"X-API-Key\"",
            "\"jsonwebtoken\": \"^9.0.2\",",
            "\"passport-jwt\": \"4.0.1\",",
            "implementation 'io.jsonwebtoken:jjwt-api:0.11.5'",
            "keyring==24.3.1",
            "<artifactId>spring-security-crypto</artifactId><version>6.2.1</version>",
            "gem 'jwt', '~> 2.7'",
            "ALPHABET = \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789\"",
            "token_chars = 'abcdefghijklmnopqrstuvwxyz0123456789'",
            "key_alphabet: \"0123456789ABCDEF\"",
            "private_key_file = \"~/.ssh/id_ed25519\"",
            "ssh_key: id_rsa",
            "key: /etc/ssl/private/server.key",
            "secret_key_path = \"./certs/client.pem\"",
            "password_file: /run/secrets/db_password",
            "api_key = load_key(\"keys/service.json\")",
            "public_key = \"\(f.base64(64))\"",
            "publishable_key: pk_live_\(f.alnum(24))",
            // PEM armour without a key.
            "-----BEGIN RSA PRIVATE KEY-----\n-----END RSA PRIVATE KEY-----",
            "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
            "Paste the block between -----BEGIN OPENSSH PRIVATE KEY----- and -----END OPENSSH PRIVATE KEY-----.",
            // Values that fail their checksum or are known not to be issued.
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789 in the docs",
            "see ghp_ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            "card 4111 1111 1111 1112",
            "ref 5500-0000-0000-0005",
            "amex 378282246310006",
            "IBAN GB82 WEST 1234 5698 7654 33",
            "SSN 000-12-3456",
            "ssn 666-45-6789",
            "SSN 912-45-6789",
            "ssn 078-05-1120",
            "ssn 123-45-6789",
            "SSN 111-11-1111",
            // Ordinary text that looks like personal data.
            "look at example.com for details",
            "meet at noon.tomorrow",
            "The server at db.internal is down",
            "icon@2x.png and @MainActor",
            "git@github.com:acme/app.git",
            "version 1.2.3 released on 2024-05-01",
            "build 20240501.123456 done",
            "ip 192.168.10.20 port 8080",
            "order 0012345678 shipped",
            "invoice 0001-2345-6789",
            "dates 01.02.2024 and 03.04.2025",
            "ts=1718000000123456789 dur=2500000",
            "epoch 1718000000123",
            "sizes 0 100 200 300 400",
            "version v0.11.5 of jjwt",
            "range 100-200-3000",
            // Identifiers, hashes and counts.
            "request_id=\(f.uuid())",
            "commit \(f.hex(40)) on main",
            "sha256: \(f.hex(64))",
            "cache_key=\(f.hex(32))",
            "etag: \"\(f.hex(32))\"",
            "max_tokens: 256",
            "input_tokens=1024 output_tokens=512",
            "prompt_tokens: 12, completion_tokens: 30",
            "time_to_first_token=0.35",
            "Error: invalid token: expired",
            "password reset email sent",
            "The token was rotated yesterday.",
            "keyboard shortcut key: Enter",
            "primary key: id",
            "sort key = created_at",
            "api_version=2024-02-01",
            "passwordless: true",
            "token_limit = 4096",
            "model SmolLM2-135M-Instruct.Q4_1.gguf loaded",
            "Swift version 6.3.1 (swift-6.3.1-RELEASE)",
            "see https://docs.example.com/auth?page=2#tokens",
            "Bearer authentication is described in RFC 6750.",
            "s.isEmpty ? nil : s.uppercased()",
            "NSString *key = @\"preferred_language\";",
            "auth: required",
            "secret: false",
            "key_len = 32",
            "token_count = len(tokens)",
            // Issue 25's harmless classes.
            "APP_ACCESS_KEY={AppAccessKey}",
            "API_KEY=`vault read -field=key secret/app`",
            "password: {{ .Values.db.password }}",
            "client_secret=aB12Q~xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
            "\"com.example.token:token-utils-2.3.1\"",
            "pub const EVP_pkey_st = struct_EVP_pkey_st;",
            "password = \"notarealpassword\"",
            "get_secret_value(SecretId=\"staging/api\")",
            "IBAN AT00 4111 1111 1111 1111",
            "curl -u \"${USER}\":\"${PASS}\"",
            "the password is expired",
            "\u{5BC6}\u{7801}\u{FF1A}\u{FF08}\u{7A7A}\u{FF09}",
        ]
    }
}
