import Redaction
import Testing

@Suite("Ordinary values stay as they are")
struct FalsePositiveTests {
    static let identifiers = [
        "commit 3f2a9c1d7e8b4a6f0c5d2e9b1a7f3c8d6e4b2a0f on main",
        "git_revision=9fceb02d0ae598e95dc970b74767f19372d61af8",
        "sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "request_id=550e8400-e29b-41d4-a716-446655440000",
        "trace 7F3C9E2A-1B4D-4E8F-9A6C-2D5B8E1F4A7C",
        "session_id: 7f3c9e2a-1b4d-4e8f-9a6c-2d5b8e1f4a7c",
        "session: morning standup notes for the whole team",
        #"{"session": "planner", "session_count": 42}"#,
        "cache_key=3f2a9c1d7e8b4a6f0c5d2e9b1a7f3c8d",
        "id chatcmpl-9x8y7zAbCdEfGhIjKlMn created",
        "model SmolLM2-135M-Instruct.Q4_1.gguf loaded",
        "task-sk-learn-pipeline finished",
        "hf_hub_download(repo_id=\"org/model\")",
        "npm_config_cache=/tmp/npm",
        "key: Enter",
        "author: Jane Doe",
        "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@host",
    ]

    static let versionsAndTimes = [
        "Swift version 6.3.1 (swift-6.3.1-RELEASE)",
        "upgraded to v2.14.0-beta.1+build.42",
        "2024-01-15T10:30:00Z started",
        "2024-01-15 10:30:00.123 +0000 done",
        "ts=1718000000123456789 dur=2500000",
        "epoch ms 1718000000123",
        "released 12/25/2023",
        "uptime 1234567 ns, rss 104857600 bytes",
        "lttng 2.13.11 babeltrace2 2.0.5",
    ]

    static let numbers = [
        "order #A-2024-000123 shipped",
        "order 1234567812345678",
        "luhn fails: 4111111111111112",
        "IBAN with a wrong checksum DE89 3704 0044 0532 0130 01",
        "not an SSN 000-12-3456 or 666-12-3456 or 900-12-3456",
        "ip 192.168.1.100 port 8080 pid 12345",
        "sizes 512 256 1024 4096",
        "price $1,234.56 tax 0.07",
        "temperature=0.7 top_p=0.95 seed=42",
        "range 100-200-3000",
        "extension 555-0132",
        "fraction 4111111111111111.5",
        "+1.5 points",
        "math 3+4=7 and 10-5=5",
    ]

    static let placeholders = [
        "api_key=YOUR_API_KEY",
        "export OPENAI_API_KEY=sk-...",
        "OPENAI_API_KEY=\"sk-your-key-here\"",
        "Authorization: Bearer <token>",
        "Authorization: Bearer YOUR_TOKEN",
        "password: ********",
        "token=xxxxxxxxxxxxxxxx",
        "export API_KEY=${API_KEY}",
        "password=$DB_PASSWORD",
        "\"password\": \"\"",
        "\"token\": null",
        "password=[REDACTED:password]",
        "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "sk-abc",
        "ghp_short",
    ]

    static let prose = [
        "The bearer of bad news arrived.",
        "Bearer authentication is described in RFC 6750.",
        "Basic configuration is enough.",
        "Error: invalid token: expired",
        "max_tokens: 256",
        "input_tokens=1024 output_tokens=512 cached_input_tokens=128",
        "token_count: 42, tokens: 128, next_token: abc",
        "time_to_first_token=0.35",
        "icon@2x.png and @MainActor and @escaping",
        "git@github.com:acme/app.git",
        "user@localhost",
        "see https://example.com/path?page=2&sort=asc#top",
        "a=b, x==y, p => q",
        "passwordless: true",
        "token_type=bearer",
        "std::string key;",
        "C++ a::b::c",
    ]

    @Test("identifiers, hashes and UUIDs", arguments: identifiers)
    func identifier(_ text: String) { Self.unchanged(text) }

    @Test("versions, dates and timestamps", arguments: versionsAndTimes)
    func versionOrTime(_ text: String) { Self.unchanged(text) }

    @Test("numbers that are not cards, IBANs, SSNs or phones", arguments: numbers)
    func number(_ text: String) { Self.unchanged(text) }

    @Test("placeholders and short tokens", arguments: placeholders)
    func placeholder(_ text: String) { Self.unchanged(text) }

    @Test("prose and field names that do not hold secrets", arguments: prose)
    func proseStays(_ text: String) { Self.unchanged(text) }

    static func unchanged(_ text: String) {
        let result = Redactor.standard.redact(text)
        #expect(result.text == text)
        #expect(result.counts.isEmpty, "\(result.counts)")
    }

    @Test func ordinaryJSONStaysByteForByte() {
        let json = """
            {"model":"gpt-4o","max_tokens":256,"temperature":0.2,"id":"chatcmpl-9x8y7z",
             "created":1718000000,"usage":{"prompt_tokens":12,"completion_tokens":30},
             "git":"9fceb02d0ae598e95dc970b74767f19372d61af8","note":"caf\\u00e9 \\"quoted\\""}
            """
        let result = Redactor.standard.redactJSON(json)
        #expect(result.text == json)
        #expect(result.counts.isEmpty)
    }
}
