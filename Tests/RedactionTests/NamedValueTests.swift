import Foundation
import Redaction
import Testing

/// Values that are secret because of the name they are given: config lines, code, connection
/// strings, XML and credential files, command lines.
@Suite("Named values")
struct NamedValueTests {
    static let secrets: [Sensitive] = {
        var f = Fake(seed: 0x5EC2)
        let password = "Tr0ub4dor&" + f.digits(3)
        let punctuated = "m{{h}o)p${e]nob(ody[f>-" + f.alnum(4) + "}"
        let uuid = f.uuid()
        let key = f.alnum(28)
        return [
            Sensitive(kind: "password", "password = %", punctuated),
            Sensitive(kind: "password", "db_pass=%", punctuated),
            Sensitive(kind: "password", "ADMIN_PASS: %", "p@$$w0rd!#%&" + f.digits(2)),
            Sensitive(kind: "password", "'password' => '%',", password),
            Sensitive(kind: "password", "password := \"%\"", password),
            Sensitive(kind: "password", "if password == \"%\" {", password),
            Sensitive(kind: "password", "ENV[\"DB_PASSWORD\"] = \"%\"", password),
            Sensitive(kind: "password", "Server=db;User ID=app;Password=%;Encrypt=True;", password),
            Sensitive(kind: "password", "jdbc:sqlserver://db:1433;user=sa;password=%;encrypt=true", password),
            Sensitive(kind: "password", "Driver={ODBC Driver 18};Uid=sa;Pwd={%};", "p;" + f.alnum(9)),
            Sensitive(kind: "password", "machine api.example.com login ana password %", f.hex(40)),
            Sensitive(kind: "password", "<password>%</password>", password),
            Sensitive(kind: "password", "<key>password</key>\n<string>%</string>", password),
            Sensitive(kind: "basic_auth", "curl -u admin:% https://x", punctuated),
            Sensitive(kind: "basic_auth", "curl -su deploy:% https://x", password),
            Sensitive(kind: "basic_auth", "curl --user \"ops:%\" https://x", password),
            Sensitive(kind: "basic_auth", "curl -uops:% https://x", password),
            Sensitive(kind: "basic_auth", "curl -u %: https://api.example.com", "key_" + f.alnum(24)),
            Sensitive(kind: "api_key", "api_token = \"%\"", uuid),
            Sensitive(kind: "api_key", "HEROKU_API_KEY=%", uuid),
            Sensitive(kind: "api_key", "'api_token' => '%'", uuid),
            Sensitive(kind: "api_key", "apiToken := \"%\"", uuid),
            Sensitive(kind: "api_key", "<apiToken>%</apiToken>", uuid),
            Sensitive(kind: "token", "<SessionToken>%</SessionToken>", f.base64(180)),
            Sensitive(kind: "aws_secret_key", "<SecretAccessKey>%</SecretAccessKey>", f.base64(40)),
            Sensitive(kind: "secret", "<secretKey>%</secretKey>", key),
            Sensitive(kind: "secret", "secret_key = %", key),
            Sensitive(
                kind: "secret", "AccountName=acme;AccountKey=%;EndpointSuffix=core.windows.net",
                f.base64(86) + "=="),
            Sensitive(kind: "api_key", "<add key=\"ApiKey\" value=\"%\" />", key),
            Sensitive(kind: "password", "<property name=\"password\" value=\"%\"/>", password),
            Sensitive(kind: "token", "<param name=\"token\">%</param>", key),
            Sensitive(kind: "password", "<password>{%}</password>", "AQAAABAAAAAQ" + f.base64(40) + "="),
            Sensitive(kind: "password", "mysql -u root -p% shop", "S3cret" + f.alnum(6)),
            Sensitive(kind: "password", "docker login -u ana -p % registry.example.com", f.alnum(16)),
            Sensitive(kind: "password", "sshpass -p '%' ssh root@host", password),
            Sensitive(kind: "password", "  password: %", "qwzrtplk"),
            Sensitive(kind: "password", "define('DB_PASSWORD', '%');", password),
            Sensitive(kind: "api_key", "os.environ.setdefault(\"API_KEY\", \"%\")", key),
        ]
    }()

    @Test("secrets under their names", arguments: secrets)
    func found(_ sample: Sensitive) { TruePositiveTests.check(sample) }

    static let code = [
        "password = get_password(user)",
        "token = self.token",
        "api_key = config.api_key",
        "secret = os.environ[\"APP_SECRET\"]",
        "let apiKey = try keychain.read(service: \"api\")",
        "var authToken: String?",
        "token: Optional[str] = None",
        "secret_key = SecretKeySpec(bytes, \"HmacSHA256\")",
        "client_secret = settings.CLIENT_SECRET",
        "password = PasswordField(\"Password\", validators=[DataRequired()])",
        "token := os.Getenv(\"TOKEN\")",
        "API_TOKEN = ACCESS_TOKEN",
        "password = new_password",
        "auth = HTTPBasicAuth(user, password)",
    ]

    @Test("code on the right of = is left alone", arguments: code)
    func codeStays(_ line: String) { FalsePositiveTests.unchanged(line) }

    static let placeholders = [
        "api_key: insert_key_here",
        "API_KEY=insert-your-api-key-here",
        "password: ${DB_PASSWORD:=postgres}",
        "export TOKEN=${GITHUB_TOKEN:-}",
        "curl -u <user:password> https://api.example.com",
        "curl -u $USER:$PASS https://api.example.com",
        "https://<user>:<password>@host/path",
        "token: \"ACCESS_TOKEN\"",
        "secret: ${{ secrets.DEPLOY_KEY }}",
        "token = \"{token}\"",
        "password: password",
        "Error: invalid password: wrong",
        "  auth: required",
        "password: !vault |",
        "mysql -h db -p 3306",
        "Password: (hidden)",
        "password: !Sub '{{resolve:secretsmanager:MySecret:SecretString:password}}'",
    ]

    @Test("placeholders and variable references are left alone", arguments: placeholders)
    func placeholderStays(_ line: String) { FalsePositiveTests.unchanged(line) }

    static let identifiers = [
        "credentialsId: 'github-deploy-creds'",
        "secret_name: \"db-credentials\"",
        "key_id = \"alias/app-key\"",
        "tokenUrl: https://login.example.com/oauth2/token",
        "api_key_header = \"X-API-Key\"",
        "\"jsonwebtoken\": \"^9.0.2\",",
        "implementation 'io.jsonwebtoken:jjwt-api:0.11.5'",
        "gem 'jwt', '~> 2.7'",
        "ALPHABET = \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789\"",
        "token_chars = 'abcdefghijklmnopqrstuvwxyz0123456789'",
        "private_key_file = \"~/.ssh/id_ed25519\"",
        "ssh_key: id_rsa",
        "key: /etc/ssl/private/server.key",
        "secret_key_path = \"./certs/client.pem\"",
        "public_key = \"MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq8sM3fPz1yL5wAq7Vb0cRm2TnUe9HkXd\"",
        "-----BEGIN RSA PRIVATE KEY-----\n-----END RSA PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----",
        "password_reset_timeout = 3600",
        "password: \"%{db_password}\"",
        "password = os.getenv(\"PASSWORD\", \"default\")",
        "label = translate(\"password\", \"Passwort\")",
    ]

    @Test("ids, package coordinates, alphabets, key file names and empty PEM armour", arguments: identifiers)
    func identifierStays(_ line: String) { FalsePositiveTests.unchanged(line) }
}
