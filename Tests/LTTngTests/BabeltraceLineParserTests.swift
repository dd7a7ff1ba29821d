import Testing

@testable import SessionTraceLTTng

/// The reader of `babeltrace2` lines, on lines as babeltrace2 2.0 prints them.
@Suite("babeltrace2 line parser")
struct BabeltraceLineParserTests {
    @Test("reads the event name, context and payload fields, and unescapes strings")
    func eventLine() throws {
        let line = #"[12:52:27.064693706] vm session_trace:payload: { cpu_id = 0 }, "#
            + #"{ payload_id = 7001, parent_id = -1, kind = "tool_output", "#
            + #"text = "a \"q\", {b} = [c]\\ d\ne\tf café" }"#
        let event = try BabeltraceLineParser.parse(line)
        #expect(event.name == "session_trace:payload")
        #expect(
            event.fields == [
                "cpu_id": "0", "payload_id": "7001", "parent_id": "-1", "kind": "tool_output",
                "text": "a \"q\", {b} = [c]\\ d\ne\tf café",
            ])
    }

    @Test("keeps compound values as their text")
    func compoundValues() throws {
        let line = #"[00:00:00.000000001] host prov:ev: { seq = [ [0] = 1, [1] = 2 ], s = { x = "}" } }"#
        let event = try BabeltraceLineParser.parse(line)
        #expect(event.name == "prov:ev")
        #expect(event.fields == ["seq": "[ [0] = 1, [1] = 2 ]", "s": #"{ x = "}" }"#])
    }

    @Test("rejects a line that is not an event")
    func notAnEvent() {
        #expect(throws: LTTngControl.Error.self) { try BabeltraceLineParser.parse("garbage") }
    }
}
