import Foundation
import Redaction
import SessionTrace
import TestSupport
import Testing
import TraceScenarios
import TraceStore

@testable import TraceAnalysis
@testable import TraceExport
@testable import TraceModel

/// `trace-report export`: each format's structure, the values it carries, and redaction.
@Suite("trace-report export")
struct ExportTests {
    /// Exports `store` in process and returns the file's text.
    private func export(
        _ format: ExportFormat, _ store: String, rules: String? = nil, options: [String] = []
    ) throws -> String {
        let directory = try TemporaryDirectory()
        let out = directory.path("export.\(format.rawValue)")
        var arguments = ["export", "--format", format.rawValue, "--out", out] + options
        if let rules { arguments += ["--rules", rules] }
        let result = report(arguments + [store])
        try #require(result.status == .success, "\(result.err)")
        #expect(result.out.isEmpty)
        return try String(contentsOfFile: out, encoding: .utf8)
    }

    private var scenarioStores: [String] { Scenario.allCases.map(scenarioPath) }

    // MARK: Perfetto

    @Test func perfettoEventsHaveTheFieldsTheirPhaseNeeds() throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("known.sqlite"), secrets: false)
        for store in [known.path] + scenarioStores {
            let object = try parseJSON(try export(.perfetto, store))
            let events = try #require(object["traceEvents"] as? [[String: Any]])
            #expect(!events.isEmpty)
            try checkPerfettoEvents(events, store: store)
            let other = try #require(object["otherData"] as? [String: Any])
            let redaction = try #require(other["redaction"] as? [String: Any])
            #expect(redaction["summary"] as? String == "redacted 0 values")
        }
    }

    private func checkPerfettoEvents(_ events: [[String: Any]], store: String) throws {
        var slices: [String: [(start: Double, end: Double)]] = [:]
        var threadNames: Set<String> = []
        var processNames = 0
        for event in events {
            let phase = try #require(event["ph"] as? String)
            #expect(event["pid"] is Int, "\(event)")
            #expect(event["tid"] is Int, "\(event)")
            #expect(event["name"] is String, "\(event)")
            switch phase {
            case "X":
                let ts = try #require(event["ts"] as? Double)
                let dur = try #require(event["dur"] as? Double)
                #expect(ts >= 0 && dur >= 0)
                slices["\(event["pid"]!)/\(event["tid"]!)", default: []].append((ts, ts + dur))
            case "C":
                _ = try #require(event["ts"] as? Double)
                let args = try #require(event["args"] as? [String: Any])
                #expect(!args.isEmpty)
                for value in args.values { #expect(value is Double, "counter args are numbers: \(event)") }
            case "M":
                let args = try #require(event["args"] as? [String: Any])
                switch event["name"] as? String {
                case "process_name":
                    processNames += 1
                    #expect(args["name"] is String)
                case "thread_name": threadNames.insert(try #require(args["name"] as? String))
                case "process_sort_index", "thread_sort_index": #expect(args["sort_index"] is Int)
                default: Issue.record("unexpected metadata event \(event)")
                }
            case "i", "I":
                _ = try #require(event["ts"] as? Double)
                #expect(["g", "p", "t"].contains(event["s"] as? String ?? ""), "\(event)")
            default:
                Issue.record("unexpected phase \(phase) in \(store)")
            }
        }
        #expect(processNames >= 1)
        #expect(!threadNames.isEmpty)
        // Complete events on one thread must follow each other or nest whole.
        for (thread, spans) in slices {
            let sorted = spans.sorted { ($0.start, -$0.end) < ($1.start, -$1.end) }
            var open: [Double] = []
            for span in sorted {
                while let top = open.last, top <= span.start + 1e-6 { open.removeLast() }
                if let top = open.last {
                    #expect(span.end <= top + 1e-6, "slices overlap without nesting on \(thread) in \(store)")
                }
                open.append(span.end)
            }
        }
    }

    @Test func perfettoShowsTimeToFirstTokenRateAndHandoffs() throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("known.sqlite"), secrets: false)
        let events = try #require(
            try parseJSON(try export(.perfetto, known.path))["traceEvents"] as? [[String: Any]])
        func named(_ name: String) -> [[String: Any]] { events.filter { $0["name"] as? String == name } }
        let request = try #require(named("chat gpt-test").first)
        #expect(request["ts"] as? Double == 100_000)
        #expect(request["dur"] as? Double == 1_000_000)
        let args = try #require(request["args"] as? [String: Any])
        #expect(args["ttft_ms"] as? Double == 250)
        #expect(args["input_tokens"] as? Int == 500)
        #expect(args["cached_input_tokens"] as? Int == 300)
        #expect(args["request_id"] as? String == String(known.first.requestID))
        #expect(args["prompt"] as? String == #"{"messages":[{"role":"user","content":"plan my day"}]}"#)
        let waiting = named("waiting for first token")
        #expect(waiting.count == 2)
        #expect(waiting.first?["dur"] as? Double == 250_000)
        #expect(waiting.first?["tid"] as? Int == request["tid"] as? Int)
        let rate = events.filter { $0["ph"] as? String == "C" }
        #expect(rate.first?["ts"] as? Double == 350_000)
        #expect((rate.first?["args"] as? [String: Double])?["tokens/s"] == 40.0 / 0.75)
        let handoff = try #require(named("handoff: model").first)
        #expect(handoff["ph"] as? String == "i")
        #expect((handoff["args"] as? [String: Any])?["to"] as? String == "gpt-test-mini")
        let tool = try #require(named("searchNotes").first)
        #expect(tool["ts"] as? Double == 1_200_000)
        #expect((tool["args"] as? [String: Any])?["output_sketch"] as? String == "00000001deadbeef")
        let threads = events.filter { $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(threads.contains("planner"))
        #expect(threads.contains("planner · tools"))
        let process = try #require(named("process_name").first?["args"] as? [String: Any])
        #expect((process["name"] as? String)?.hasPrefix("nightly @ ") == true)
        #expect(named("PlanDay").first?["tid"] as? Int == request["tid"] as? Int)
        #expect(named("dropped events").first?["s"] as? String == "p")
    }

    @Test func overlappingSlicesOpenASecondLane() {
        var lanes = NestingLanes()
        #expect(lanes.place(start: 0, end: 100, acceptsChildren: true) == 0)
        #expect(lanes.place(start: 10, end: 50, acceptsChildren: false) == 0)
        #expect(lanes.place(start: 40, end: 60, acceptsChildren: false) == 1)
        #expect(lanes.place(start: 60, end: 90, acceptsChildren: false) == 0)
        #expect(lanes.place(start: 95, end: 120, acceptsChildren: false) == 1)
        #expect(lanes.place(start: 130, end: 140, acceptsChildren: false) == 0)
    }

    // MARK: OTLP

    @Test func otlpIsAnExportTraceServiceRequest() throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("known.sqlite"), secrets: false)
        for store in [known.path] + scenarioStores {
            let object = try parseJSON(try export(.otlp, store))
            #expect(Set(object.keys) == ["resourceSpans"])
            let resources = try #require(object["resourceSpans"] as? [[String: Any]])
            #expect(!resources.isEmpty)
            for resource in resources { try checkResourceSpans(resource) }
        }
    }

    private func isHex(_ text: String?, length: Int) -> Bool {
        guard let text, text.utf8.count == length else { return false }
        return text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
            && text != String(repeating: "0", count: length)
    }

    private func checkAttribute(_ attribute: [String: Any]) throws {
        #expect(Set(attribute.keys) == ["key", "value"])
        #expect(attribute["key"] is String)
        let value = try #require(attribute["value"] as? [String: Any])
        #expect(value.count == 1)
        switch value.keys.first! {
        case "stringValue": #expect(value["stringValue"] is String)
        case "intValue":
            let text = try #require(value["intValue"] as? String, "intValue is a decimal string")
            #expect(Int64(text) != nil)
        case "doubleValue": #expect(value["doubleValue"] is Double)
        case "boolValue": #expect(value["boolValue"] is Bool)
        case "arrayValue":
            let array = try #require(value["arrayValue"] as? [String: Any])
            for element in try #require(array["values"] as? [[String: Any]]) {
                #expect(element.count == 1 && element["stringValue"] is String)
            }
        default: Issue.record("unexpected attribute value \(value)")
        }
    }

    private func checkResourceSpans(_ resource: [String: Any]) throws {
        #expect(Set(resource.keys) == ["resource", "scopeSpans"])
        let attributes = try #require(
            (resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
        for attribute in attributes { try checkAttribute(attribute) }
        let keys = attributes.compactMap { $0["key"] as? String }
        #expect(keys.contains("service.name"))
        #expect(keys.contains("session_trace.redaction.summary"))
        let scopes = try #require(resource["scopeSpans"] as? [[String: Any]])
        #expect(scopes.count == 1)
        let scope = try #require(scopes[0]["scope"] as? [String: Any])
        #expect(scope["name"] as? String == "SessionTrace")
        let spans = try #require(scopes[0]["spans"] as? [[String: Any]])
        let byID = Dictionary(spans.map { ($0["spanId"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byID.count == spans.count, "span ids are unique")
        var rootsByTrace: [String: Int] = [:]
        var conversationsByTrace: [String: Set<String>] = [:]
        var children: [String: Int] = [:]
        for span in spans {
            let required: Set<String> = [
                "traceId", "spanId", "name", "kind", "startTimeUnixNano", "endTimeUnixNano",
                "attributes", "status",
            ]
            #expect(required.isSubset(of: Set(span.keys)), "\(span.keys)")
            #expect(Set(span.keys).isSubset(of: required.union(["parentSpanId", "events", "links"])))
            let trace = try #require(span["traceId"] as? String)
            #expect(isHex(trace, length: 32))
            #expect(isHex(span["spanId"] as? String, length: 16))
            #expect([1, 2, 3, 4, 5].contains(span["kind"] as? Int ?? 0))
            let start = try #require(UInt64(span["startTimeUnixNano"] as? String ?? ""), "decimal nanoseconds")
            let end = try #require(UInt64(span["endTimeUnixNano"] as? String ?? ""), "decimal nanoseconds")
            #expect(start <= end)
            if let parentID = span["parentSpanId"] as? String {
                let parent = try #require(byID[parentID], "parent \(parentID) resolves")
                #expect(parent["traceId"] as? String == trace, "a parent lies in its child's trace")
                let parentStart = UInt64(parent["startTimeUnixNano"] as? String ?? "") ?? .max
                let parentEnd = UInt64(parent["endTimeUnixNano"] as? String ?? "") ?? 0
                #expect(parentStart <= start && end <= parentEnd, "\(span["name"]!) lies within \(parent["name"]!)")
                children[parentID, default: 0] += 1
            } else {
                rootsByTrace[trace, default: 0] += 1
            }
            let attributes = try #require(span["attributes"] as? [[String: Any]])
            for attribute in attributes { try checkAttribute(attribute) }
            let kinds = attributes.filter { $0["key"] as? String == "openinference.span.kind" }
            #expect(kinds.count == 1, "\(span["name"]!) has its OpenInference kind")
            if let conversation = attributes.first(where: { $0["key"] as? String == "gen_ai.conversation.id" }) {
                let value = (conversation["value"] as? [String: Any])?["stringValue"] as? String
                conversationsByTrace[trace, default: []].insert(value ?? "")
            }
            let status = try #require(span["status"] as? [String: Any])
            #expect([0, 1, 2].contains(status["code"] as? Int ?? -1))
            for event in span["events"] as? [[String: Any]] ?? [] {
                #expect(UInt64(event["timeUnixNano"] as? String ?? "") != nil)
                #expect(event["name"] is String)
                for attribute in try #require(event["attributes"] as? [[String: Any]]) {
                    try checkAttribute(attribute)
                }
            }
            for link in span["links"] as? [[String: Any]] ?? [] {
                #expect(byID[link["spanId"] as? String ?? ""] != nil, "a link names a span of the export")
            }
        }
        #expect(rootsByTrace.values.allSatisfy { $0 == 1 }, "one root span per trace")
        #expect(conversationsByTrace.values.allSatisfy { $0.count == 1 }, "one conversation per trace")
        for span in spans where (span["name"] as? String ?? "").hasPrefix("invoke_agent") {
            #expect(children[span["spanId"] as? String ?? ""] ?? 0 > 0, "an agent span holds its turn")
        }
    }

    @Test func otlpCarriesTheGenAIAttributes() throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("known.sqlite"), secrets: false)
        let spans = try otlpSpans(known.path)
        func span(_ name: String) throws -> [String: Any] {
            try #require(spans.first { $0["name"] as? String == name }, "no span \(name)")
        }
        let chat = try span("chat gpt-test")
        let a = otlpAttributes(chat)
        #expect(a["openinference.span.kind"]?["stringValue"] as? String == "LLM")
        #expect(a["gen_ai.operation.name"]?["stringValue"] as? String == "chat")
        #expect(a["gen_ai.provider.name"]?["stringValue"] as? String == "openai")
        #expect(a["gen_ai.request.model"]?["stringValue"] as? String == "gpt-test")
        #expect(a["gen_ai.usage.input_tokens"]?["intValue"] as? String == "500")
        #expect(a["gen_ai.usage.output_tokens"]?["intValue"] as? String == "41")
        #expect(a["gen_ai.usage.cache_read.input_tokens"]?["intValue"] as? String == "300")
        // The same count under OpenInference's name, which Phoenix reads.
        #expect(a["llm.token_count.prompt_details.cache_read"]?["intValue"] as? String == "300")
        #expect(a["llm.token_count.total"]?["intValue"] as? String == "541")
        #expect(a["gen_ai.response.time_to_first_chunk"]?["doubleValue"] as? Double == 0.25)
        #expect(a["gen_ai.conversation.id"]?["stringValue"] as? String == String(known.session.sessionID))
        #expect(a["session.id"]?["stringValue"] as? String == String(known.session.sessionID))
        #expect(a["session_trace.request_id"]?["stringValue"] as? String == String(known.first.requestID))
        let reasons = (a["gen_ai.response.finish_reasons"]?["arrayValue"] as? [String: Any])?["values"]
        #expect((reasons as? [[String: String]]) == [["stringValue": "tool_calls"]])
        #expect(chat["kind"] as? Int == 3)
        #expect(chat["startTimeUnixNano"] as? String == String(KnownStore.wallClockStart + 100_000_000))
        #expect(chat["endTimeUnixNano"] as? String == String(KnownStore.wallClockStart + 1_100_000_000))
        #expect((chat["status"] as? [String: Any])?["code"] as? Int == 1, "a span that did not fail is OK, not unset")

        let tool = try span("execute_tool searchNotes")
        let t = otlpAttributes(tool)
        #expect(t["openinference.span.kind"]?["stringValue"] as? String == "TOOL")
        #expect(t["gen_ai.operation.name"]?["stringValue"] as? String == "execute_tool")
        #expect(t["gen_ai.tool.name"]?["stringValue"] as? String == "searchNotes")
        #expect(t["gen_ai.tool.call.id"]?["stringValue"] as? String == "call_7")
        #expect(t["gen_ai.tool.call.arguments"]?["stringValue"] as? String == #"{"query":"launch"}"#)
        #expect(t["input.value"]?["stringValue"] as? String == #"{"query":"launch"}"#)
        #expect(t["input.mime_type"]?["stringValue"] as? String == "application/json")
        #expect(t["session_trace.output_fingerprint"]?["stringValue"] as? String == "0123456789abcdef")
        #expect(t["session_trace.output_sketch"]?["stringValue"] as? String == "00000001deadbeef")

        let failed = try span("chat gpt-test-mini")
        let status = try #require(failed["status"] as? [String: Any])
        #expect(status["code"] as? Int == 2)
        #expect(status["message"] as? String == "timed out")
        #expect(otlpAttributes(failed)["error.type"]?["stringValue"] as? String == "timeout")

        // The turn (a request that asked for a tool, the tool, the next request) is one trace,
        // rooted in its invoke_agent span with its chat and execute_tool spans side by side; it
        // links to the app's PlanDay interval it ran in, inside the session's span.
        let agent = try span("invoke_agent planner")
        let g = otlpAttributes(agent)
        #expect(g["openinference.span.kind"]?["stringValue"] as? String == "AGENT")
        #expect(g["gen_ai.operation.name"]?["stringValue"] as? String == "invoke_agent")
        #expect(g["gen_ai.provider.name"]?["stringValue"] as? String == "openai")
        for child in [chat, tool, failed] {
            #expect(child["parentSpanId"] as? String == agent["spanId"] as? String)
            #expect(child["traceId"] as? String == agent["traceId"] as? String)
        }
        let planDay = try span("PlanDay")
        #expect(agent["parentSpanId"] == nil)
        #expect(agent["traceId"] as? String != planDay["traceId"] as? String)
        let links = try #require(agent["links"] as? [[String: Any]])
        #expect(links.contains { $0["spanId"] as? String == planDay["spanId"] as? String
            && $0["traceId"] as? String == planDay["traceId"] as? String })
        #expect(otlpAttributes(planDay)["session_trace.interval.requestLength"]?["intValue"] as? String == "42")
        #expect(otlpAttributes(planDay)["requestLength"] == nil, "interval metadata is namespaced")
        let session = try span("session planner")
        #expect(planDay["parentSpanId"] as? String == session["spanId"] as? String)
        #expect(otlpAttributes(session)["openinference.span.kind"]?["stringValue"] as? String == "CHAIN")
        #expect(otlpAttributes(session)["gen_ai.operation.name"]?["stringValue"] as? String == "invoke_workflow")
        let handoff = (session["events"] as? [[String: Any]])?.first {
            $0["name"] as? String == "session_trace.handoff"
        }
        #expect(handoff?["timeUnixNano"] as? String == String(KnownStore.wallClockStart + 1_550_000_000))
        let instant = (planDay["events"] as? [[String: Any]])?.first
        #expect(instant?["name"] as? String == "cacheMiss")
    }

    @Test func otlpCarriesWhatTheServerReported() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("reported.sqlite")
        try makeStore(path) { tracer, _ in
            let session = tracer.makeID()
            tracer.record(.session(SessionRecord(sessionID: session, ts: 0, dur: 0, label: "s")), kind: .session)
            let record = RequestRecord(
                requestID: tracer.makeID(), sessionID: session, ts: 5_000_000_000, dur: 1_000_000,
                provider: "llama.cpp", model: "m", responseID: "chatcmpl-9", responseModel: "m-q4",
                serverAddress: "127.0.0.1", serverPort: 8080, streamed: true, maxTokens: 64, temperature: 0.5)
            tracer.record(.request(record), kind: .request)
        }
        let chat = try #require(try otlpSpans(path).first { $0["name"] as? String == "chat m" })
        let a = otlpAttributes(chat)
        #expect(a["gen_ai.response.id"]?["stringValue"] as? String == "chatcmpl-9")
        #expect(a["gen_ai.response.model"]?["stringValue"] as? String == "m-q4")
        #expect(a["server.address"]?["stringValue"] as? String == "127.0.0.1")
        #expect(a["server.port"]?["intValue"] as? String == "8080")
        #expect(a["gen_ai.request.stream"]?["boolValue"] as? Bool == true)
        #expect(a["gen_ai.request.max_tokens"]?["intValue"] as? String == "64")
        #expect(a["gen_ai.request.temperature"]?["doubleValue"] as? Double == 0.5)
    }

    @Test func otlpGivesEachConversationItsTraceAndLinksSharedIntervals() throws {
        // A real planner run: PlanDay holds both sessions' work, so it stays in the run's trace,
        // and each session's GatherContext and PlanTurn intervals link to it.
        let store = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let object = try parseJSON(try export(.otlp, store))
        let resources = try #require(object["resourceSpans"] as? [[String: Any]])
        for resource in resources { try checkResourceSpans(resource) }
        let spans = try otlpSpans(store)
        let traces = Dictionary(grouping: spans, by: { $0["traceId"] as? String ?? "" })
        #expect(traces.count == 3 + 8, "the run's trace, one per session and one per user turn")
        // A turn's trace: rooted in its invoke_agent span, every span of it in one session.
        for spans in traces.values {
            let roots = spans.filter { $0["parentSpanId"] == nil }
            #expect(roots.count == 1)
            guard let root = roots.first, (root["name"] as? String ?? "").hasPrefix("invoke_agent") else { continue }
            #expect(Set(spans.map { otlpAttributes($0)["session.id"]?["stringValue"] as? String }).count == 1)
            #expect(spans.count > 1)
        }
        let planDay = try #require(spans.first { $0["name"] as? String == "PlanDay" })
        let root = try #require(spans.first { ($0["name"] as? String ?? "").hasPrefix("run ") })
        #expect(planDay["parentSpanId"] as? String == root["spanId"] as? String)
        let linked = spans.filter { span in
            (span["links"] as? [[String: Any]])?.contains { $0["spanId"] as? String == planDay["spanId"] as? String }
                ?? false
        }
        #expect(linked.map { $0["name"] as? String } == Array(repeating: "GatherContext", count: 3)
            + Array(repeating: "PlanTurn", count: 5))
        #expect(spans.filter { ($0["name"] as? String ?? "").hasPrefix("invoke_agent") }.count == 8)
        #expect(spans.filter { ($0["name"] as? String ?? "").hasPrefix("chat ") }.count == 11)
    }

    /// `--prices` puts each priced chat span's dollars in `llm.cost.*`, as `check --prices` prices
    /// it; `--project` names the back end's project on every resource.
    /// A reasoning model's captured thinking goes into GenAI's output message as its `reasoning`
    /// part, before the answer's text; OpenInference, which has no such part, keeps the answer.
    @Test func otlpPutsTheReasoningBeforeTheAnswerInTheOutputMessage() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("reasoning.sqlite")
        let sink = try StoreSink(path: path)
        let tracer = Tracer(sink: sink, label: "thinking")
        let id = tracer.makeID()
        tracer.record(
            request: RequestRecord(
                requestID: id, ts: tracer.now(), dur: 1_000_000, provider: "openai", model: "qwen3", finishReason: "stop"))
        for (kind, text) in [(PayloadRecord.Kind.reasoning, "Count the r's."), (.response, "Three.")] {
            tracer.record(
                .payload(PayloadRecord(payloadID: tracer.makeID(), parentID: id, ts: tracer.now(), kind: kind, text: text)),
                kind: .payload)
        }
        sink.close()

        let chat = try #require(try otlpSpans(path).first { $0["name"] as? String == "chat qwen3" })
        let a = otlpAttributes(chat)
        #expect(
            a["gen_ai.output.messages"]?["stringValue"] as? String
                == #"[{"role":"assistant","parts":[{"type":"reasoning","content":"Count the r's."},"#
                + #"{"type":"text","content":"Three."}],"finish_reason":"stop"}]"#)
        #expect(a["output.value"]?["stringValue"] as? String == "Three.")
        #expect(a["session_trace.payload.reasoning"]?["stringValue"] as? String == "Count the r's.")
    }

    @Test func otlpCarriesCostAndProject() throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("known.sqlite"), secrets: false)
        let prices = directory.path("prices.json")
        try #"{"models":[{"provider":"openai","model":"gpt-test","input":2,"cached_input":0.5,"output":8}]}"#
            .write(toFile: prices, atomically: true, encoding: .utf8)
        let object = try parseJSON(
            try export(.otlp, known.path, options: ["--prices", prices, "--project", "bars"]))
        let resources = try #require(object["resourceSpans"] as? [[String: Any]])
        for resource in resources {
            let attributes = ((resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]]) ?? []
            #expect(attributes.contains { $0["key"] as? String == "openinference.project.name"
                && ($0["value"] as? [String: Any])?["stringValue"] as? String == "bars" })
        }
        let spans = resources.flatMap { resource in
            ((resource["scopeSpans"] as? [[String: Any]]) ?? []).flatMap { $0["spans"] as? [[String: Any]] ?? [] }
        }
        let chat = try #require(spans.first { $0["name"] as? String == "chat gpt-test" })
        let a = otlpAttributes(chat)
        // 500 input tokens, 300 of them cached, 41 output: 200 × $2 + 300 × $0.5 + 41 × $8 per million.
        let prompt = try #require(a["llm.cost.prompt"]?["doubleValue"] as? Double)
        let completion = try #require(a["llm.cost.completion"]?["doubleValue"] as? Double)
        let total = try #require(a["llm.cost.total"]?["doubleValue"] as? Double)
        #expect(abs(prompt - 550e-6) < 1e-12 && abs(completion - 328e-6) < 1e-12 && abs(total - 878e-6) < 1e-12)
        let unpriced = try #require(spans.first { $0["name"] as? String == "chat gpt-test-mini" })
        #expect(otlpAttributes(unpriced)["llm.cost.total"] == nil)
    }

    private func otlpSpans(_ store: String) throws -> [[String: Any]] {
        let object = try parseJSON(try export(.otlp, store))
        let resources = try #require(object["resourceSpans"] as? [[String: Any]])
        return resources.flatMap { resource in
            ((resource["scopeSpans"] as? [[String: Any]]) ?? []).flatMap { $0["spans"] as? [[String: Any]] ?? [] }
        }
    }

    private func otlpAttributes(_ span: [String: Any]) -> [String: [String: Any]] {
        var out: [String: [String: Any]] = [:]
        for attribute in span["attributes"] as? [[String: Any]] ?? [] {
            out[attribute["key"] as! String] = attribute["value"] as? [String: Any]
        }
        return out
    }

    // MARK: JSON Lines

    @Test func jsonLinesHaveOneLinePerRecordAndAReport() throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("known.sqlite"), secrets: false)
        #expect(try storeRowCount(known.path) == known.recordCount)
        let types: Set<String> = [
            "run", "session", "request", "tool_call", "handoff", "interval", "instant", "chunk",
            "payload", "dropped",
        ]
        for store in [known.path] + scenarioStores {
            let text = try export(.jsonl, store)
            #expect(text.hasSuffix("\n"))
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == (try storeRowCount(store)) + 1, "\(store)")
            let objects = try lines.map { try parseJSON(String($0)) }
            for object in objects.dropLast() {
                #expect(types.contains(object["type"] as? String ?? ""), "\(object)")
                #expect(Int64(object["run_id"] as? String ?? "") != nil, "ids are decimal strings")
                for key in object.keys { #expect(key == key.lowercased() && !key.contains("-")) }
                for (key, value) in object where key.hasSuffix("_id") && !(value is NSNull) {
                    #expect(value is String, "\(key) is a string, which JavaScript and jq read exactly")
                }
            }
            let last = try #require(objects.last)
            #expect(last["type"] as? String == "redaction_report")
            #expect(last["total"] as? Int == 0)
        }
        let objects = try export(.jsonl, known.path).split(separator: "\n").map { try parseJSON(String($0)) }
        let request = try #require(objects.first { $0["type"] as? String == "request" })
        #expect(request["request_id"] as? String == String(known.first.requestID))
        #expect(request["ttft"] as? Int == 250_000_000)
        #expect(request["cached_input_tokens"] as? Int == 300)
        #expect(request["server_prompt_dur"] as? Int == 80_000_000)
        let call = try #require(objects.first { $0["type"] as? String == "tool_call" })
        #expect(call["output_sketch"] as? String == "00000001deadbeef")
        let interval = try #require(objects.first { $0["type"] as? String == "interval" })
        #expect((interval["metadata"] as? [String: Any])?["requestLength"] as? Int == 42)
    }

    /// What `sqlite3` counts in `store` for `sql`, one number.
    private func count(_ store: String, _ sql: String) throws -> Int {
        let result = try runProgram("/usr/bin/sqlite3", [store, sql])
        try #require(result.status == 0, "sqlite3 failed: \(result.err)")
        return try #require(Int(result.out.trimmingCharacters(in: .whitespacesAndNewlines)))
    }

    @Test func runAndSessionExportOnePartOfAStore() throws {
        // Every session of every scenario run that holds more than one, exported alone, by its ids.
        var checked = 0
        for store in scenarioStores {
            let runs = try TraceLoader.load(path: store, chunks: false).runs
            for run in runs where run.recordedSessionIDs.count > 1 {
                for session in run.recordedSessionIDs.sorted() {
                    let options = ["--run", String(run.run.runID), "--session", ShortID.record(session)]
                    let lines = try export(.jsonl, store, options: options).split(separator: "\n")
                    let objects = try lines.dropLast().map { try parseJSON(String($0)) }
                    #expect(objects.filter { $0["type"] as? String == "session" }.count == 1, "\(store)")
                    for object in objects where object["session_id"] is String {
                        #expect(object["session_id"] as? String == String(session), "\(store): \(object)")
                    }
                    let filter = "run_id = \(run.run.runID) AND session_id = \(session)"
                    for (type, table) in [("request", "request"), ("tool_call", "tool_call")] {
                        #expect(
                            objects.filter { $0["type"] as? String == type }.count
                                == (try count(store, "SELECT count(*) FROM \(table) WHERE \(filter)")),
                            "\(store): \(type)s of session \(session)")
                    }
                    let html = try embeddedViewerData(export(.html, store, options: options))
                    let drawn = try #require(html["runs"] as? [[String: Any]])
                    #expect(drawn.count == 1)
                    let sessions = drawn.flatMap { $0["sessions"] as? [[String: Any]] ?? [] }
                    #expect(sessions.compactMap { $0["id"] as? String } == [String(session)], "\(store)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 4)
    }

    // MARK: Redaction

    @Test(arguments: ExportFormat.allCases)
    func secretsNeverLeaveInAnExport(format: ExportFormat) throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("secrets.sqlite"), secrets: true)
        let before = try Data(contentsOf: URL(fileURLWithPath: known.path))
        // Without redaction the store does hold every secret, so their absence below means something.
        let raw = try runProgram("/usr/bin/sqlite3", [known.path, ".dump"]).out
        for secret in KnownStore.secrets { #expect(raw.contains(secret)) }

        let out = directory.path("export.out")
        let result = try runProgram(
            try builtBinary(), ["export", "--format", format.rawValue, "--out", out, known.path])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.isEmpty)
        #expect(result.err == "redacted 7 values: 4 email, 2 openai_key, 1 jwt\n")
        let text = try String(contentsOfFile: out, encoding: .utf8)
        for secret in KnownStore.secrets + ["@example."] {
            #expect(!text.contains(secret), "\(format) leaks \(secret)")
        }
        #expect(text.contains("[REDACTED:email]"))
        #expect(try permissions(out) == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: known.path)) == before)

        let counts: [String: Any]
        switch format {
        case .perfetto:
            let other = try #require(try parseJSON(text)["otherData"] as? [String: Any])
            counts = try #require((other["redaction"] as? [String: Any])?["counts"] as? [String: Any])
        case .otlp:
            let resource = try #require((try parseJSON(text)["resourceSpans"] as? [[String: Any]])?.first)
            let attributes = try #require(
                (resource["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
            var found: [String: Any] = [:]
            for attribute in attributes {
                let key = attribute["key"] as! String
                guard key.hasPrefix("session_trace.redaction.count.") else { continue }
                let value = (attribute["value"] as? [String: Any])?["intValue"] as? String
                found[String(key.dropFirst("session_trace.redaction.count.".count))] = value.flatMap {
                    Int($0)
                }
            }
            counts = found
        case .html:
            let data = try embeddedViewerData(text)
            counts = try #require((data["redaction"] as? [String: Any])?["counts"] as? [String: Any])
        case .jsonl:
            let last = try parseJSON(String(try #require(text.split(separator: "\n").last)))
            #expect(last["type"] as? String == "redaction_report")
            #expect(last["summary"] as? String == "redacted 7 values: 4 email, 2 openai_key, 1 jwt")
            counts = try #require(last["counts"] as? [String: Any])
        }
        #expect(counts.mapValues { $0 as? Int } == KnownStore.secretCounts.mapValues { Optional($0) })
    }

    @Test func toStandardOutputTheReportGoesToStandardError() throws {
        let directory = try TemporaryDirectory()
        let known = try KnownStore(path: directory.path("secrets.sqlite"), secrets: true)
        let result = try runProgram(try builtBinary(), ["export", "--format", "jsonl", known.path])
        #expect(result.status == 0)
        #expect(result.err == "redacted 7 values: 4 email, 2 openai_key, 1 jwt\n")
        for secret in KnownStore.secrets { #expect(!result.out.contains(secret)) }
        #expect(result.out.split(separator: "\n").count == known.recordCount + 1)
    }

    @Test func customRulesApplyToExports() throws {
        let directory = try TemporaryDirectory()
        let store = directory.path("employee.sqlite")
        try makeStore(store, label: "run for EMP-123456") { tracer, _ in
            request(tracer, session: nil, at: 5_100_000_000, error: "EMP-654321 has no access")
        }
        let rules = directory.path("rules.tsv")
        try "# employee ids\nemployee_id\tEMP-[0-9]{6}\ttrigger=EMP-\n".write(
            toFile: rules, atomically: true, encoding: .utf8)
        for format in ExportFormat.allCases {
            let text = try export(format, store, rules: rules)
            #expect(!text.contains("EMP-1") && !text.contains("EMP-6"), "\(format)")
            #expect(text.contains("[REDACTED:employee_id]"))
        }
        let plain = try export(.jsonl, store)
        #expect(plain.contains("EMP-123456"))
    }

    @Test func existingFilesAreReplacedWithOwnerOnlyPermissions() throws {
        let directory = try TemporaryDirectory()
        let out = directory.path("trace.json")
        try "old".write(toFile: out, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: out)
        let result = report(["export", "--format", "perfetto", "--out", out, scenarioPath(.toolLoop)])
        #expect(result.status == .success)
        #expect(try permissions(out) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["trace.json"])
    }

    // MARK: Bad input

    @Test func badInputIsOneSentenceExitTwoAndTheStoreUntouched() throws {
        let binary = try builtBinary()
        let directory = try TemporaryDirectory()
        let store = directory.path("copy.sqlite")
        try FileManager.default.copyItem(atPath: scenarioPath(.toolLoop), toPath: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let badRules = directory.path("bad.rules")
        try "# fine\nticket\tTCK-[0-9]{6}\nbroken line without a tab\n".write(
            toFile: badRules, atomically: true, encoding: .utf8)
        let out = directory.path("out.json")
        let cases: [([String], String)] = [
            (["export", store], "trace-report export: --format is required: perfetto, otlp, jsonl, html; "),
            (["export", "--format", "svg", store], "trace-report export: unknown format 'svg'; "),
            (["export", "--format", "otlp"], "trace-report export: no store given; "),
            (
                ["export", "--format", "otlp", "--out", out, directory.path("missing.sqlite")],
                "does not exist"
            ),
            (["export", "--format", "otlp", "--out", out, "--rules", badRules, store], "bad.rules:3: "),
            (
                ["export", "--format", "otlp", "--out", out, "--rules", directory.path("none.rules"), store],
                "cannot read rules file"
            ),
            (["export", "--format", "jsonl", "--out", store, store], "itself; name another file"),
            (["export", "--format", "otlp", store, store], "only html compares two"),
            (["export", "--format", "jsonl", "--session", "nobody", store], "no session 'nobody' in "),
            (["export", "--format", "html", "--run", "12", store], "no run '12' in "),
            (
                ["export", "--format", "jsonl", "--out", directory.path("no/such/dir/x.json"), store],
                "cannot create"
            ),
        ]
        for (arguments, message) in cases {
            let result = try runProgram(binary, arguments)
            #expect(result.status == 2, "\(arguments)")
            #expect(result.out.isEmpty)
            #expect(result.err.contains(message), "\(arguments): \(result.err)")
            #expect(result.err.filter { $0 == "\n" }.count == 1, "\(result.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(
            Set(try FileManager.default.contentsOfDirectory(atPath: directory.url.path)) == [
                "copy.sqlite", "bad.rules",
            ])
    }

    @Test(arguments: ExportFormat.allCases)
    func everyScenarioExportsThroughTheBinary(format: ExportFormat) throws {
        let binary = try builtBinary()
        for scenario in Scenario.allCases {
            let result = try runProgram(
                binary, ["export", "--format", format.rawValue, scenarioPath(scenario)])
            #expect(result.status == 0)
            #expect(result.err == "redacted 0 values\n")
            if format == .jsonl {
                for line in result.out.split(separator: "\n") { _ = try parseJSON(String(line)) }
            } else if format == .html {
                _ = try embeddedViewerData(result.out)
            } else {
                _ = try parseJSON(result.out)
            }
        }
    }
}

/// The trace data a viewer export embeds, parsed.
func embeddedViewerData(_ html: String) throws -> [String: Any] {
    let opening = #"<script type="application/json" id="trace-data">"#
    let start = try #require(html.range(of: opening)).upperBound
    let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
    return try parseJSON(String(html[start..<end]))
}
