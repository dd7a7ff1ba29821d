import Foundation
import Reproducible
import SessionTrace
import TestSupport
import Testing
import TraceAnalysis
import TraceStore

/// Trace text is data, never markup: markup and script in every text field of a store stay text.
@Suite("Viewer injection", .serialized)
struct ViewerInjectionTests {
    /// Each tries to leave a mark if it ever runs: a changed title or an element with id `pwned`.
    static let attacks = [
        "<script>document.title='pwned'</script>",
        "<img src=x onerror=\"document.title='pwned';document.body.appendChild(document.createElement('pwned'))\">",
        "javascript:document.title='pwned'",
        "</script><script>document.title='pwned'</script>",
        "<svg onload=\"document.title='pwned'\"><a id=pwned href=\"javascript:alert(1)\">x</a></svg>",
        "<!-- <style>body{display:none}</style>",
    ]

    @Test("markup in labels, names, handoffs, intervals and payloads never runs and shows as text")
    func hostileStrings() throws {
        try #require(Chromium.path != nil, Chromium.missingMessage)
        let directory = try TemporaryDirectory()
        let store = directory.path("hostile.sqlite")
        let script = try StoreScript(path: store, label: Self.attacks[0], capturePayloads: true)
        var at: Int64 = 0
        for (index, attack) in Self.attacks.enumerated() {
            let session = script.session(attack, from: at, to: at + 900)
            let request = script.request(session: session, at: at + 10, dur: 400, ttft: 60, model: attack,
                                         error: index == 0 ? attack : nil, prompt: "prompt " + attack)
            script.toolCall(request: request, session: session, at: at + 420, dur: 100, name: attack,
                            fingerprint: attack, outcome: index == 1 ? ToolCallRecord.Outcome(rawValue: attack) : .ok,
                            arguments: "{\"q\":\(OrderedJSON.quoted(attack))}")
            script.handoff(session: session, at: at + 530, kind: "model", from: attack, to: attack)
            script.interval(session: session, name: attack, from: at + 5, to: at + 800, metadata: ["note": .string(attack)])
            at += 1_000
        }
        script.close()
        let html = directory.path("hostile.html")
        _ = try exportHTML([store], to: html)
        let exported = try String(contentsOfFile: html, encoding: .utf8)
        // The export holds exactly the viewer's two script elements; the data only escaped text.
        #expect(exported.components(separatedBy: "<script").count - 1 == 2)
        #expect(!exported.contains("<img") && !exported.contains("<svg"))

        let counts = try StoreCounts(store)
        for fragment in ["", "selftest=click:tool:0", "selftest=click:request:1", "selftest=click:handoff:2",
                         "selftest=click:interval:4", "selftest=click:tool:4"] {
            let dom = try Chromium.dumpDOM(html, fragment: fragment)
            #expect(dom.body("data-status") == "ready", "the page did not finish loading (\(fragment))")
            #expect(dom.html.contains("<title>SessionTrace viewer</title>"), "the title changed (\(fragment))")
            #expect(!dom.html.contains("<pwned"), "an injected element appeared (\(fragment))")
            #expect(!dom.html.contains("id=\"pwned\""), "an injected element appeared (\(fragment))")
            #expect(dom.count("<script") == 2, "a script element appeared (\(fragment))")
            #expect(dom.count("<style") == 1, "a style element appeared (\(fragment))")
            for tag in ["<img", "<svg", "<a "] {
                #expect(!dom.html.contains(tag), "a \(tag)> element appeared (\(fragment))")
            }
            // Every event still counted and drawn: the strings broke nothing.
            #expect(dom.events("request") == counts.requests)
            #expect(dom.events("tool") == counts.toolCalls)
            #expect(dom.events("handoff") == counts.handoffs)
            if fragment.isEmpty { #expect(dom.canvas("data-drawn-request") == counts.requests) }
            // The strings appear as text, escaped by the DOM serializer.
            #expect(dom.html.contains("&lt;script&gt;document.title='pwned'&lt;/script&gt;"))
            #expect(dom.html.contains("javascript:document.title='pwned'"))
        }

        let tool = try Chromium.dumpDOM(html, fragment: "selftest=click:tool:1")
        #expect(tool.detail("name") == Self.attacks[1])
        #expect(tool.detail("outcome") == Self.attacks[1])
        let request = try Chromium.dumpDOM(html, fragment: "selftest=click:request:3")
        #expect(request.detail("model") == Self.attacks[3])
        #expect(request.detail("session") == Self.attacks[3])
        #expect(request.selfTestText.contains("payload: prompt " + Self.attacks[3]))
        let handoff = try Chromium.dumpDOM(html, fragment: "selftest=click:handoff:2")
        #expect(handoff.detail("from") == Self.attacks[2])
        let interval = try Chromium.dumpDOM(html, fragment: "selftest=click:interval:4")
        #expect(interval.detail("name") == Self.attacks[4])
        #expect(interval.detail("note") == Self.attacks[4])
        try Chromium.screenshot(html, fragment: "selftest=click:tool:1", to: screenshotDirectory + "/injection.png")
    }
}
