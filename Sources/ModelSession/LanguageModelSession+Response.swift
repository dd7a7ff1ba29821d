extension LanguageModelSession {
    /// The answer to one prompt.
    public struct Response: Sendable {
        public let content: String
        /// The entries this prompt added to the transcript: the prompt, any tool calls and
        /// outputs, the response.
        public let transcriptEntries: [Transcript.Entry]
        public let profileName: String
        /// Summed over every model call of the tool loop; nil if the server reported none.
        public let usage: TokenUsage?
        /// The last model call's finish reason.
        public let finishReason: String?
        /// How many rounds of tool calls it took.
        public let toolRounds: Int
    }
}
