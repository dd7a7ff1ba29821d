import ModelSession
import SessionInstrumentation
import SessionTrace
import SessionTraceTesting
import Testing

/// A traced tool records a fingerprint and a MinHash sketch of its output, never the text, and the
/// sketches of two outputs agree in about the share of words the outputs share.
@Suite("Output sketch")
struct OutputSketchTests {
    /// Answers with the text it is given.
    struct EchoTool: Tool {
        var name: String { "echo" }
        var description: String { "Answers with its query." }
        var parameters: JSONSchema { .object([.init("query", .string())]) }
        func call(arguments: SearchArguments) async throws -> String { arguments.query }
    }

    /// The sketch of each text, as a traced tool records it.
    static func sketches(_ texts: [String]) async throws -> [ToolCallRecord] {
        let sink = MemorySink()
        let tool = TracedTool(EchoTool(), tracer: Tracer(sink: sink))
        for text in texts { _ = try await tool.call(arguments: SearchArguments(query: text)) }
        return sink.toolCalls
    }

    /// The share of positions at which two sketches agree.
    static func agreement(_ left: [UInt32], _ right: [UInt32]) -> Double {
        Double(zip(left, right).filter { $0 == $1 }.count) / Double(left.count)
    }

    static let words = (0..<400).map { "word\($0)" }

    @Test func equalWordsGiveEqualSketchesAndDifferentTextsDisagree() async throws {
        let text = Self.words.joined(separator: " ")
        let calls = try await Self.sketches([
            text, text.uppercased().replacingOccurrences(of: " ", with: ", "),
            (0..<400).map { "other\($0)" }.joined(separator: " "),
        ])
        let sketches = try calls.map { try #require($0.outputSketch) }
        #expect(sketches.allSatisfy { $0.count == 32 })
        #expect(calls[0].outputFingerprint != calls[1].outputFingerprint)
        #expect(sketches[0] == sketches[1])
        #expect(Self.agreement(sketches[0], sketches[2]) < 0.2)
    }

    /// Half the words replaced: Jaccard similarity 200/600 = 0.33; 40 of 400 replaced: 360/440 = 0.82.
    @Test(arguments: [(200, 1.0 / 3), (40, 360.0 / 440)])
    func agreementEstimatesTheShareOfSharedWords(replaced: Int, jaccard: Double) async throws {
        let changed = Self.words.enumerated().map { $0.offset < replaced ? "new\($0.offset)" : $0.element }
        let calls = try await Self.sketches([Self.words.joined(separator: " "), changed.joined(separator: " ")])
        let estimate = Self.agreement(try #require(calls[0].outputSketch), try #require(calls[1].outputSketch))
        // Three standard errors of a 32-value MinHash.
        #expect(abs(estimate - jaccard) <= 3 * (jaccard * (1 - jaccard) / 32).squareRoot())
    }

    @Test func aFailedCallHasNoSketch() async throws {
        let sink = MemorySink()
        let tool = TracedTool(SearchTool(fails: true), tracer: Tracer(sink: sink))
        _ = try? await tool.call(arguments: SearchArguments(query: "launch"))
        #expect(sink.toolCalls.count == 1 && sink.toolCalls[0].outputSketch == nil)
    }
}
