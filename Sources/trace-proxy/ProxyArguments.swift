import Foundation

/// trace-proxy's command line: `--upstream URL --store FILE [--listen HOST:PORT] [--lttng]
/// [--capture-payloads] [--ca-file PEM] [--label TEXT] [--drain-timeout SECONDS] [--request-memory MIB]`.
struct ProxyArguments {
    var upstream: URL
    var storePath: String
    var listenAddress = "127.0.0.1"
    var listenPort: UInt16 = 0
    var lttng = false
    var capturePayloads = false
    var caFile: String?
    var label: String?
    /// How long SIGTERM or Ctrl-C lets requests in flight finish before they are cut.
    var drainTimeout: Double = 10
    /// MiB of request bodies held at once, by all connections; past it a request is answered 503.
    var requestMemory = 256

    static let usage = """
        usage: trace-proxy --upstream URL --store FILE [--listen HOST:PORT] [--lttng] [--capture-payloads]
                           [--ca-file PEM] [--label TEXT] [--drain-timeout SECONDS] [--request-memory MIB]

        Forwards every request to URL and records each chat completion, completion (OpenAI's and
        llama.cpp's), Responses, Messages and Ollama /api/chat and /api/generate request to FILE.
        Point a client at it:
        OPENAI_BASE_URL=http://127.0.0.1:PORT/v1, ANTHROPIC_BASE_URL=http://127.0.0.1:PORT or
        OLLAMA_HOST=http://127.0.0.1:PORT.
        """

    /// Why the command line is wrong, in one sentence.
    struct UsageError: Error {
        var message: String
    }

    init(_ arguments: [String]) throws(UsageError) {
        var upstream: URL?
        var store: String?
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            let flag = arguments[index]
            switch flag {
            case "--upstream":
                let text = try value(flag)
                guard let url = URL(string: text), url.scheme == "http" || url.scheme == "https", url.host != nil
                else { throw UsageError(message: "--upstream takes an http or https URL, not '\(text)'") }
                upstream = url
            case "--store": store = try value(flag)
            case "--listen":
                let text = try value(flag)
                // HOST:PORT, with an IPv6 HOST in brackets: [::1]:8089.
                guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
                    throw UsageError(message: "--listen takes HOST:PORT, such as 127.0.0.1:8089 or [::1]:8089, not '\(text)'")
                }
                var host = text[..<colon]
                if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
                guard !host.isEmpty, !host.contains("[") else {
                    throw UsageError(message: "--listen takes HOST:PORT, such as 127.0.0.1:8089 or [::1]:8089, not '\(text)'")
                }
                listenAddress = String(host)
                listenPort = port
            case "--lttng": lttng = true
            case "--capture-payloads": capturePayloads = true
            case "--ca-file": caFile = try value(flag)
            case "--label": label = try value(flag)
            case "--drain-timeout":
                let text = try value(flag)
                guard let seconds = Double(text), seconds >= 0 else {
                    throw UsageError(message: "--drain-timeout takes seconds, such as 10, not '\(text)'")
                }
                drainTimeout = seconds
            case "--request-memory":
                let text = try value(flag)
                guard let mebibytes = Int(text), (1...1_048_576).contains(mebibytes) else {
                    throw UsageError(message: "--request-memory takes MiB from 1 to 1048576, such as 256, not '\(text)'")
                }
                requestMemory = mebibytes
            default: throw UsageError(message: "unknown argument '\(flag)'")
            }
            index += 1
        }
        guard let upstream else { throw UsageError(message: "--upstream URL is required") }
        guard let store else { throw UsageError(message: "--store FILE is required") }
        self.upstream = upstream
        self.storePath = store
    }
}
