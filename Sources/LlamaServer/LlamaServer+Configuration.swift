import Foundation

extension LlamaServer {
    /// How the server is launched; the defaults suit SmolLM2-135M on two shared cores.
    public struct Configuration: Sendable, Hashable {
        /// Overrides `SESSIONTRACE_LLAMA_SERVER` and the script's path when set.
        public var serverPath: String?
        /// Overrides `SESSIONTRACE_MODEL` and the script's path when set.
        public var modelPath: String?
        public var contextSize: Int
        public var threads: Int
        /// `--cache-reuse`: the smallest chunk reused from the prompt cache by KV shifting.
        public var cacheReuseChunk: Int
        public var startupTimeout: Duration
        /// Appended last, so they override the defaults above.
        public var extraArguments: [String]
        /// Keeps the server's log file after ``LlamaServer/stop()``; set
        /// `SESSIONTRACE_KEEP_LLAMA_LOG=1` to keep it by default.
        public var keepsLog: Bool

        public init(
            serverPath: String? = nil, modelPath: String? = nil, contextSize: Int = 4096,
            threads: Int = 2, cacheReuseChunk: Int = 256, startupTimeout: Duration = .seconds(60),
            extraArguments: [String] = [],
            keepsLog: Bool = ProcessInfo.processInfo.environment["SESSIONTRACE_KEEP_LLAMA_LOG"] == "1"
        ) {
            self.serverPath = serverPath
            self.modelPath = modelPath
            self.contextSize = contextSize
            self.threads = threads
            self.cacheReuseChunk = cacheReuseChunk
            self.startupTimeout = startupTimeout
            self.extraArguments = extraArguments
            self.keepsLog = keepsLog
        }

        /// One slot keeps its KV cache between requests, so an appended conversation reuses its
        /// prefix (`timings.cache_n`); `--jinja` renders the model's template with tools.
        func arguments(model: String, port: Int) -> [String] {
            [
                "-m", model, "--host", "127.0.0.1", "--port", String(port),
                "-c", String(contextSize), "-np", "1", "-t", String(threads), "-tb", String(threads),
                "--cache-prompt", "--cache-reuse", String(cacheReuseChunk), "--jinja", "--no-webui",
            ] + extraArguments
        }
    }
}
