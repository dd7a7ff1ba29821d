import Foundation
import SessionTrace
import TestSupport
import Testing

@testable import TraceStore

/// The typed vocabulary (tool outcome, handoff kind, drop reason) is text in the store: the same
/// words as before the types, and a word no constant names reads back unchanged.
@Suite("Store vocabulary")
struct StoreVocabularyTests {
    static let plannerRun = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tracefiles/planner/run-1.sqlite").path

    /// Known and unknown words go in through the real store and come back as they went in.
    @Test func unknownWordsRoundTripThroughTheStoreUnchanged() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("run.sqlite")
        let sink = try StoreSink(path: path)
        for (id, outcome) in [(1, ToolCallRecord.Outcome.ok), (2, .error), (3, .init(rawValue: "cancelled"))] {
            sink.record(
                .toolCall(
                    ToolCallRecord(
                        toolCallID: Int64(id), ts: Int64(id), dur: 1, name: "search", argumentsFingerprint: "ab",
                        argumentsBytes: 2, outputBytes: 0, outcome: outcome)))
        }
        sink.record(.handoff(HandoffRecord(handoffID: 10, sessionID: nil, ts: 10, kind: .model, from: "a", to: "b")))
        sink.record(
            .handoff(HandoffRecord(handoffID: 11, sessionID: nil, ts: 11, kind: "temperature", from: "0.2", to: "0.7")))
        sink.record(.dropped(DroppedRecord(ts: 20, sinkName: "store", reason: .queueFull, count: 3)))
        sink.record(.dropped(DroppedRecord(ts: 21, sinkName: "relay", reason: "ring_overflow", count: 4)))
        sink.close()

        let reader = try StoreReader(path: path)
        #expect(try reader.toolCalls().map(\.outcome.rawValue) == ["ok", "error", "cancelled"])
        #expect(try reader.handoffs().map(\.kind) == [.model, "temperature"])
        #expect(try reader.dropped().map(\.reason) == [.queueFull, "ring_overflow"])
        // The columns hold the words themselves, as stores written before the types do.
        var columns: [String] = []
        try reader.query(
            """
            SELECT outcome FROM tool_call UNION ALL SELECT kind FROM handoff
            UNION ALL SELECT reason FROM dropped ORDER BY 1
            """
        ) { row in columns.append(row.string(0)) }
        #expect(columns == ["cancelled", "error", "model", "ok", "queue_full", "ring_overflow", "temperature"])
    }

    /// A planner run recorded before the types reads with the same words.
    @Test func aStoreWrittenBeforeTheTypesReadsTheSame() throws {
        let reader = try StoreReader(path: Self.plannerRun)
        #expect(try reader.toolCalls().map(\.outcome) == [.ok, .ok, .ok])
        #expect(try reader.handoffs().map(\.kind) == [.profile])
        #expect(try reader.dropped().isEmpty)
    }

    /// The constants spell the words the store has always held.
    @Test func theConstantsSpellTheStoredWords() {
        #expect([ToolCallRecord.Outcome.ok, .error].map(\.rawValue) == ["ok", "error"])
        #expect(
            [HandoffRecord.Kind.profile, .model, .instructions, .tools].map(\.rawValue)
                == ["profile", "model", "instructions", "tools"])
        #expect(
            [DroppedRecord.Reason.queueFull, .sqliteError, .busy, .closed, .discarded].map(\.rawValue)
                == ["queue_full", "sqlite_error", "busy", "closed", "discarded"])
    }
}
