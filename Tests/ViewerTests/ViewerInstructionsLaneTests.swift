import Foundation
import SessionTrace
import TestSupport
import Testing
import TraceStore

@testable import TraceExport
@testable import TraceModel

/// The instructions and tools lane: per session, what the model was told, changing where the
/// profile, model, instructions or tool set changed, with the change named. Read back from real
/// headless Chromium.
@Suite("Viewer instructions lane", .serialized)
struct ViewerInstructionsLaneTests {
    static let planner = repositoryRoot + "/tracefiles/planner/run-1.sqlite"

    /// What the lane should hold, computed here from the store: per session in time order, a new
    /// stretch wherever a request's profile, model, instructions or tools differ from the one before.
    private func stretches(_ store: String) throws -> [(first: RequestRecord, changed: [String])] {
        let requests = try StoreReader(path: store).requests().sorted {
            ($0.ts, String($0.requestID)) < ($1.ts, String($1.requestID))
        }
        var result: [(first: RequestRecord, changed: [String])] = []
        var last: [Int64?: [String?]] = [:]
        for request in requests {
            let state = [request.profile, request.model, request.instructionsFingerprint, request.toolsFingerprint]
            let before = last[request.sessionID]
            last[request.sessionID] = state
            guard before != state else { continue }
            let names = ["profile", "model", "instructions", "tools"]
            let changed = before.map { before in names.indices.filter { before[$0] != state[$0] }.map { names[$0] } }
            result.append((request, changed ?? []))
        }
        return result.sorted { $0.first.ts < $1.first.ts }
    }

    @Test("each session's stretches are drawn and listed, a handoff's change named on a click")
    func plannerStretches() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let html = directory.path("planner.html")
        _ = try exportHTML([Self.planner], to: html)
        let expected = try stretches(Self.planner)
        let changes = expected.filter { !$0.changed.isEmpty }
        #expect(expected.count >= 2 && !changes.isEmpty, "the planner run changes its profile")

        let dom = try Chromium.dumpDOM(html)
        #expect(dom.canvas("data-drawn-instructions") == expected.count)
        #expect(dom.canvas("data-drawn-instruction-changes") == changes.count)
        #expect(dom.events("instructions") == expected.count)

        let index = try #require(expected.firstIndex { !$0.changed.isEmpty })
        let change = expected[index]
        let clicked = try Chromium.dumpDOM(html, fragment: "selftest=click:instructions:\(index)")
        #expect(clicked.selfTest("data-clicked-kind") == "instructions")
        let previous = expected[..<index].last { $0.first.sessionID == change.first.sessionID }?.first
        let named = change.changed.map { field in
            let (old, new): (String?, String?) = switch field {
            case "profile": (previous?.profile, change.first.profile)
            case "model": (previous?.model, change.first.model)
            case "instructions": (previous?.instructionsFingerprint, change.first.instructionsFingerprint)
            default: (previous?.toolsFingerprint, change.first.toolsFingerprint)
            }
            return "\(field) \(old ?? "none") → \(new ?? "none")"
        }
        #expect(clicked.detail("changed") == named.joined(separator: "; "))
        #expect(clicked.detail("instructions") == change.first.instructionsFingerprint ?? "not recorded")
        #expect(clicked.detail("tools") == change.first.toolsFingerprint ?? "not recorded")
        #expect(clicked.detail("first request") == String(change.first.requestID))
        try Chromium.screenshot(html, fragment: "selftest=click:instructions:\(index)",
                                to: screenshotDirectory + "/planner-instructions.png")
    }

    @Test("a stretch shows the instructions and tool definitions captured with its first request")
    func capturedInstructions() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let store = directory.path("captured.sqlite")
        let script = try StoreScript(path: store, label: "captured", capturePayloads: true)
        let session = script.session("agent", from: 0, to: 3_000)
        var tools = "aaaa"
        for (index, start) in [Int64(10), 1_000, 2_000].enumerated() {
            if index == 2 { tools = "bbbb" }
            let id = script.tracer.makeID()
            script.tracer.record(
                .request(
                    RequestRecord(
                        requestID: id, sessionID: session, ts: script.at(start), dur: 500_000_000,
                        timeToFirstToken: 100_000_000, model: "smollm2-135m", instructionsFingerprint: "1234abcd",
                        toolsFingerprint: tools)), kind: .request)
            script.tracer.capturePayload(.instructions, "You plan days, tersely.", parentID: id)
            script.tracer.capturePayload(.toolDefinitions, "[{\"name\":\"tool-set-\(tools)\"}]", parentID: id)
        }
        script.close()
        let html = directory.path("captured.html")
        _ = try exportHTML([store], to: html)

        let dom = try Chromium.dumpDOM(html)
        #expect(dom.canvas("data-drawn-instructions") == 2, "the tool set changed once")
        let second = try Chromium.dumpDOM(html, fragment: "selftest=click:instructions:1")
        #expect(second.detail("changed") == "tools aaaa → bbbb")
        #expect(second.detail("requests") == "1")
        #expect(second.selfTestText.contains("You plan days, tersely."))
        #expect(second.selfTestText.contains("tool-set-bbbb"))
        #expect(!second.selfTestText.contains("tool-set-aaaa"), "the stretch shows its own first request's text")
    }
}
