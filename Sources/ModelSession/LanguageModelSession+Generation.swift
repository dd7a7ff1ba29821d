extension LanguageModelSession {
    /// One prompt: resolve the profile, ask the model, run tools, ask again, until it answers.
    ///
    /// The transcript gains the prompt and everything after it only when the answer is complete,
    /// so a failed request leaves no half exchange behind. `onResponse` callbacks run after the
    /// session is free again, so they may start the next request.
    func generate(
        prompt: String, options: GenerationOptions, onSnapshot: @Sendable (ResponseStream.Snapshot) -> Void
    ) async throws -> Response {
        try beginResponding()
        let resolved = profile.body
        let response: Response
        do {
            response = try await generate(
                prompt: prompt, resolved: resolved, options: options, onSnapshot: onSnapshot)
        } catch {
            finishResponding(appending: nil)
            throw error
        }
        finishResponding(appending: response.transcriptEntries)
        resolved.runResponseHandlers(response)
        return response
    }

    private func generate(
        prompt: String, resolved: Profile, options: GenerationOptions,
        onSnapshot: @Sendable (ResponseStream.Snapshot) -> Void
    ) async throws -> Response {
        guard let baseModel = resolved.model else { throw GenerationError.noModel(profile: resolved.name) }
        var model = baseModel
        for middleware in middleware { model = middleware.model(model, session: info) }
        let tools = (resolved.tools ?? []).map(wrapped)
        let toolDefinitions = tools.map(\.definition)
        let history = transcript.entries
        var entries: [Transcript.Entry] = [.prompt(prompt)]
        var usage: TokenUsage?
        var finishReason: String?
        var rounds = 0

        while true {
            let request = ModelRequest(
                instructions: resolved.instructions, entries: resolved.transformedHistory(history + entries),
                tools: toolDefinitions, options: options.overriding(resolved.options),
                profileName: resolved.name)
            var content = ""
            var calls: [ToolCallRequest] = []
            for try await event in model.stream(request) {
                switch event {
                case .contentDelta(let delta):
                    content += delta
                    onSnapshot(ResponseStream.Snapshot(content: content))
                case .toolCall(let call): calls.append(call)
                case .usage(let reported): usage = usage.map { $0 + reported } ?? reported
                case .reasoningDelta, .serverTimings, .outputStarted, .responseInfo, .connectionPhases: break
                case .finished(let reason): finishReason = reason
                }
            }
            if calls.isEmpty {
                entries.append(.response(content))
                return Response(
                    content: content, transcriptEntries: entries, profileName: resolved.name, usage: usage,
                    finishReason: finishReason, toolRounds: rounds)
            }
            rounds += 1
            guard rounds <= maximumToolRounds else {
                throw GenerationError.exceededMaximumToolRounds(
                    limit: maximumToolRounds, profile: resolved.name, lastCalls: calls.map(\.name))
            }
            entries.append(.toolCalls(calls))
            for call in calls {
                let output = try await run(call, among: tools)
                entries.append(.toolOutput(ToolOutput(callID: call.id, toolName: call.name, content: output)))
            }
        }
    }

    /// The tool after every middleware wrapped it, the first middleware innermost.
    private func wrapped(_ tool: any Tool) -> any Tool {
        var result = tool
        for middleware in middleware { result = wrap(result, with: middleware) }
        return result
    }

    private func wrap<T: Tool>(_ tool: T, with middleware: any SessionMiddleware) -> any Tool {
        middleware.tool(tool, session: info)
    }

    private func run(_ call: ToolCallRequest, among tools: [any Tool]) async throws -> String {
        guard let tool = tools.first(where: { $0.name == call.name }) else {
            throw GenerationError.unknownTool(name: call.name, available: tools.map(\.name))
        }
        do {
            return try await ToolCallRequest.$current.withValue(call) {
                try await tool.call(argumentsJSON: call.arguments)
            }
        } catch let error as GenerationError {
            throw error
        } catch {
            throw GenerationError.toolCallFailed(tool: call.name, callID: call.id, underlying: error)
        }
    }
}
