import Foundation
import Synchronization

/// A conversation with a model: it keeps the transcript, resolves its profile before every
/// request, runs the tool-call loop and applies middleware to the model and tools.
///
/// ```swift
/// let session = LanguageModelSession(model: model, tools: [WeatherTool()], instructions: "Be brief.")
/// let answer = try await session.respond(to: "Weather in Paris?").content
/// ```
///
/// One request at a time: a second `respond` while one runs throws
/// ``GenerationError/concurrentRequests(session:)``.
public final class LanguageModelSession: Sendable {
    public let info: SessionInfo
    /// How many rounds of tool calls one prompt may take before
    /// ``GenerationError/exceededMaximumToolRounds(limit:profile:lastCalls:)``.
    public let maximumToolRounds: Int
    let profile: any DynamicProfile
    let middleware: [any SessionMiddleware]

    private struct State {
        var transcript = Transcript()
        var isResponding = false
    }
    private let state = Mutex(State())

    /// A session with one fixed model, tools and instructions (the profile named "default").
    public convenience init(
        model: any LanguageModel, label: String = "session", tools: [any Tool] = [],
        instructions: String? = nil,
        middleware: [any SessionMiddleware] = [], maximumToolRounds: Int = 5
    ) {
        let profile = Profile(name: "default", instructions: instructions).model(model).tools(tools)
        self.init(
            label: label, profile: profile, middleware: middleware, maximumToolRounds: maximumToolRounds)
    }

    /// A profile-driven session; a ``DynamicProfile``'s body is evaluated before every request.
    public init(
        label: String = "session", profile: any DynamicProfile, middleware: [any SessionMiddleware] = [],
        maximumToolRounds: Int = 5
    ) {
        self.info = SessionInfo(label: label)
        self.profile = profile
        self.middleware = middleware
        self.maximumToolRounds = maximumToolRounds
    }

    deinit {
        for middleware in middleware { middleware.sessionEnded(info) }
    }

    /// A profile-driven session whose profile a closure makes before every request.
    public convenience init(
        label: String = "session", middleware: [any SessionMiddleware] = [], maximumToolRounds: Int = 5,
        profile: @escaping @Sendable () -> Profile
    ) {
        self.init(
            label: label, profile: ProfileClosure(profile), middleware: middleware,
            maximumToolRounds: maximumToolRounds)
    }

    /// Every prompt, response and tool exchange so far; history transforms never shorten it.
    public var transcript: Transcript { state.withLock { $0.transcript } }

    public var isResponding: Bool { state.withLock { $0.isResponding } }

    /// Answers a prompt, running tools the model asks for.
    public func respond(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    ) async throws -> Response {
        try await generate(prompt: prompt, options: options) { _ in }
    }

    /// Streams snapshots of the answer as it grows; iterate it, or `collect()` the response.
    public func streamResponse(
        to prompt: String, options: GenerationOptions = GenerationOptions()
    ) -> ResponseStream {
        ResponseStream { [self] onSnapshot in
            try await generate(prompt: prompt, options: options, onSnapshot: onSnapshot)
        }
    }

    func beginResponding() throws {
        try state.withLock { state in
            if state.isResponding { throw GenerationError.concurrentRequests(session: info.label) }
            state.isResponding = true
        }
    }

    func finishResponding(appending entries: [Transcript.Entry]?) {
        state.withLock { state in
            if let entries { state.transcript.entries.append(contentsOf: entries) }
            state.isResponding = false
        }
    }
}
