import SessionTrace
import Testing
import TraceStore

/// The size estimate against the field tables: it is written out per kind for speed, so this
/// checks that every field holding out-of-line bytes counts. A text field added to a table and
/// not to `approximateBytes` fails here.
@Suite("Event size estimate")
struct ApproximateBytesTests {
    @Test(arguments: TraceEventKind.allCases)
    func everyTextMetadataAndSketchFieldCounts(kind: TraceEventKind) {
        let uncounted: [String] =
            switch kind {
            case .run: Self.uncounted(RunRecord.table) { .run($0) }
            case .session: Self.uncounted(SessionRecord.table) { .session($0) }
            case .request: Self.uncounted(RequestRecord.table) { .request($0) }
            case .toolCall: Self.uncounted(ToolCallRecord.table) { .toolCall($0) }
            case .handoff: Self.uncounted(HandoffRecord.table) { .handoff($0) }
            case .interval: Self.uncounted(IntervalRecord.table) { .interval($0) }
            case .instant: Self.uncounted(InstantRecord.table) { .instant($0) }
            case .chunk: Self.uncounted(ChunkRecord.table) { .chunk($0) }
            case .payload: Self.uncounted(PayloadRecord.table) { .payload($0) }
            case .dropped: Self.uncounted(DroppedRecord.table) { .dropped($0) }
            }
        #expect(uncounted == [])
    }

    /// A request's estimate: its inline size and the UTF-8 bytes of its strings.
    @Test func aRequestCountsItsInlineSizeAndItsStrings() {
        let request = RequestRecord(requestID: 1, ts: 0, dur: 0, profile: "economy", model: "gpt-x", error: "boom")
        #expect(TraceEvent.request(request).approximateBytes == MemoryLayout<TraceEvent>.stride + 7 + 5 + 4)
    }

    /// The columns whose field, set to a large value on a blank record, leaves the estimate
    /// short of that value's bytes. A field whose setter does not keep the text (a payload's
    /// kind is an enum) holds nothing out of line and is skipped.
    static func uncounted<Record>(_ table: RecordTable<Record>, _ event: (Record) -> TraceEvent) -> [String] {
        let long = String(repeating: "x", count: 1_000)
        let base = event(table.blank).approximateBytes
        var uncounted: [String] = []
        for field in table.fields {
            let large: FieldValue
            let bytes: Int
            switch field.spec.kind {
            case .text: (large, bytes) = (.text(long), 1_000 - (field.get(table.blank).text?.utf8.count ?? 0))
            case .metadata: (large, bytes) = (.metadata(["k": .string(long)]), 1_000)
            case .sketch: (large, bytes) = (.sketch(Array(repeating: 7, count: 250)), 1_000)
            case .integer, .real, .bool: continue
            }
            var record = table.blank
            field.set(&record, large)
            guard field.get(record) == large else { continue }
            if event(record).approximateBytes - base < bytes { uncounted.append(field.spec.column) }
        }
        return uncounted
    }
}
