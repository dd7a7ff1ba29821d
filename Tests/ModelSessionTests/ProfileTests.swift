import ModelSession
import Synchronization
import Testing

@Suite("Profiles")
struct ProfileTests {
    @Test("the modifier closest to the profile wins")
    func closestModifierWins() async throws {
        let near = ScriptedModel("near")
        let far = ScriptedModel("far")
        let profile = Profile("planner") { Instructions("Plan.") }
            .model(near).temperature(0.2).maximumResponseTokens(50)
            .model(far).temperature(0.9).maximumResponseTokens(500)
        let session = LanguageModelSession(profile: profile)
        _ = try await session.respond(to: "hi")
        #expect(near.requests.count == 1)
        #expect(far.requests.isEmpty)
        let request = try #require(near.requests.first)
        #expect(request.options.temperature == 0.2)
        #expect(request.options.maximumResponseTokens == 50)
        #expect(request.profileName == "planner")
        #expect(request.instructions == "Plan.")
    }

    @Test("call-site options override only the values they set")
    func callSiteOptionsWin() async throws {
        let model = ScriptedModel()
        let session = LanguageModelSession(
            profile: Profile { Instructions("x") }.model(model).temperature(0.2).maximumResponseTokens(50))
        _ = try await session.respond(to: "hi", options: GenerationOptions(temperature: 0))
        let options = try #require(model.requests.first).options
        #expect(options.temperature == 0)
        #expect(options.maximumResponseTokens == 50)
    }

    @Test("several Instructions join, conditionals included")
    func instructionsBuilder() {
        let terse = true
        let profile = Profile {
            Instructions("You plan a day.")
            if terse { Instructions("Be terse.") } else { Instructions("Be chatty.") }
        }
        #expect(profile.instructions == "You plan a day.\n\nBe terse.")
        #expect(Profile().instructions == nil)
    }

    @Test(
        "economy mode switches model, caps the response and keeps a rolling window", arguments: [false, true])
    func economyMode(isEnabled: Bool) async throws {
        let large = ScriptedModel("large")
        let small = ScriptedModel("small")
        let profile = Profile("planner") { Instructions("Plan.") }
            .economyMode(isEnabled: isEnabled, model: small, maximumResponseTokens: 64, promptWindow: 2)
            .model(large)
            .maximumResponseTokens(1000)
        let session = LanguageModelSession(profile: profile)
        for prompt in ["one", "two", "three"] { _ = try await session.respond(to: prompt) }

        let used = isEnabled ? small : large
        #expect((isEnabled ? large : small).requests.isEmpty)
        let last = try #require(used.requests.last)
        #expect(last.options.maximumResponseTokens == (isEnabled ? 64 : 1000))
        let prompts = last.entries.compactMap { if case .prompt(let text) = $0 { text } else { nil } }
        #expect(prompts == (isEnabled ? ["two", "three"] : ["one", "two", "three"]))
        // The session's transcript stays whole either way.
        #expect(session.transcript.count == 6)
    }

    @Test("a dynamic profile is re-evaluated before every request")
    func dynamicProfile() async throws {
        let state = AppState()
        let large = ScriptedModel("large")
        let small = ScriptedModel("small")
        let session = LanguageModelSession(
            label: "planner", profile: Planner(state: state, large: large, small: small))

        let first = try await session.respond(to: "plan monday")
        state.economy.value = true
        let second = try await session.respond(to: "plan tuesday")

        #expect(first.content == "answer from large")
        #expect(second.content == "answer from small")
        #expect(first.profileName == "planner")
        #expect(second.profileName == "planner-economy")
        #expect(small.requests.first?.instructions == "You plan days.\n\nKeep it short.")
        #expect(small.requests.first?.options.maximumResponseTokens == 32)
    }

    @Test("a closure profile switches tools between requests")
    func closureProfile() async throws {
        let withTools = Box(false)
        let model = ScriptedModel()
        let session = LanguageModelSession { [model] in
            let tools: [any Tool] = withTools.value ? [WeatherTool()] : []
            return Profile("weather") { Instructions("x") }.model(model).tools(tools)
        }
        _ = try await session.respond(to: "a")
        withTools.value = true
        _ = try await session.respond(to: "b")
        #expect(model.requests.map { $0.tools.map(\.name) } == [[], ["get_weather"]])
    }

    @Test("custom modifiers compose and every onResponse callback runs, closest first")
    func customModifiersAndCallbacks() async throws {
        let log = Box<[String]>([])
        let model = ScriptedModel()
        let profile = Profile { Instructions("x") }
            .modifier(Logged(tag: "inner", log: log))
            .model(model)
            .onResponse { _ in log.mutate { $0.append("outer") } }
            .modifier(Terse())
        let session = LanguageModelSession(profile: profile)
        _ = try await session.respond(to: "hi")
        #expect(log.value == ["inner", "outer"])
        #expect(model.requests.first?.options.temperature == 0)
        #expect(model.requests.first?.options.maximumResponseTokens == 16)
    }

    @Test("a profile without a model fails with a typed error")
    func noModel() async throws {
        let session = LanguageModelSession(profile: Profile("empty") { Instructions("x") })
        await #expect(throws: LanguageModelSession.GenerationError.self) {
            try await session.respond(to: "hi")
        }
        #expect(session.transcript.isEmpty)
    }
}

final class AppState: Sendable {
    let economy = Box(false)
}

struct Planner: DynamicProfile {
    let state: AppState
    let large: any LanguageModel
    let small: any LanguageModel

    var body: Profile {
        let economy = state.economy.value
        return Profile(economy ? "planner-economy" : "planner") {
            Instructions("You plan days.")
            if economy { Instructions("Keep it short.") }
        }
        .economyMode(isEnabled: economy, model: small, maximumResponseTokens: 32)
        .model(large)
    }
}

struct Terse: ProfileModifier {
    func body(content: Profile) -> Profile { content.temperature(0).maximumResponseTokens(16) }
}

struct Logged: ProfileModifier {
    let tag: String
    let log: Box<[String]>
    func body(content: Profile) -> Profile {
        content.onResponse { [log, tag] _ in log.mutate { $0.append(tag) } }
    }
}
