extension LanguageModelSession {
    /// Why a session could not produce a response.
    public enum GenerationError: Error, CustomStringConvertible {
        /// The profile resolved without a `.model(_:)`.
        case noModel(profile: String)
        /// `respond` was called while another request of the same session was running.
        case concurrentRequests(session: String)
        /// The model kept calling tools past the session's limit.
        case exceededMaximumToolRounds(limit: Int, profile: String, lastCalls: [String])
        /// The model called a tool the request did not offer.
        case unknownTool(name: String, available: [String])
        /// The model's arguments did not decode into the tool's `Arguments`.
        case toolArgumentsInvalid(tool: String, arguments: String, reason: String)
        /// The tool threw.
        case toolCallFailed(tool: String, callID: String, underlying: any Error)

        public var description: String {
            switch self {
            case .noModel(let profile):
                return "profile \"\(profile)\" resolved without a model; add .model(_:)"
            case .concurrentRequests(let session):
                return "session \"\(session)\" is already responding; await the running request first"
            case .exceededMaximumToolRounds(let limit, let profile, let lastCalls):
                return "profile \"\(profile)\" exceeded \(limit) tool rounds; last calls: "
                    + lastCalls.joined(separator: ", ")
            case .unknownTool(let name, let available):
                return "the model called unknown tool \"\(name)\"; offered: "
                    + available.joined(separator: ", ")
            case .toolArgumentsInvalid(let tool, let arguments, let reason):
                return "arguments for tool \"\(tool)\" do not decode: \(reason); arguments: \(arguments)"
            case .toolCallFailed(let tool, let callID, let underlying):
                return "tool \"\(tool)\" (call \(callID)) failed: \(underlying)"
            }
        }
    }
}
