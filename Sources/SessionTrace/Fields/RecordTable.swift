/// The fields of one record kind, in the order every encoding lists them: the one declaration
/// of the vocabulary that the store's schema, binding and reading, JSON Lines, redaction and the
/// size estimate derive from, and that tests hold the tracepoints and exports against.
///
/// A class, so that `Record.table` on the emit path hands out one reference, not a copy of the
/// blank record and three arrays.
package final class RecordTable<Record: Sendable>: Sendable {
    /// The event kind whose records these are; its ``TraceEventKind/name`` names the table.
    package let kind: TraceEventKind
    /// A record with every field zero, empty or nil, which reading fills in field by field.
    package let blank: Record
    /// The fields, the record's own id first where it has one.
    package let fields: [RecordField<Record>]
    /// The fields that hold out-of-line bytes (text, metadata, sketches), for the size estimate.
    package let outOfLineFields: [RecordField<Record>]
    /// The fields a payload redaction passes through.
    package let freeTextFields: [RecordField<Record>]

    init(_ kind: TraceEventKind, blank: Record, fields: [RecordField<Record>]) {
        self.kind = kind
        self.blank = blank
        self.fields = fields
        outOfLineFields = fields.filter { [.text, .metadata, .sketch].contains($0.spec.kind) }
        freeTextFields = fields.filter(\.spec.isFreeText)
    }

    /// The table's name: `request`, `tool_call`, ...
    package var name: String { kind.name }

    /// What each field is, in order.
    package var specs: [FieldSpec] { fields.map(\.spec) }

    /// A record read field by field: `value(offset, spec)` gives each field's value in order.
    package func record(_ value: (Int, FieldSpec) -> FieldValue) -> Record {
        var record = blank
        for (offset, field) in fields.enumerated() {
            field.set(&record, value(offset, field.spec))
        }
        return record
    }
}

/// The fields a reader needs, by kind and by store column (``FieldSpec/column``): the store and
/// the LTTng reader then read those alone, and every other field reads as unknown (nil, zero or
/// empty). The first field of every kind (its id; `dropped`'s `ts`) is always read; a kind left out
/// reads that field alone, and a kind not read at all need not be named.
package typealias FieldSelection = [TraceEventKind: Set<String>]

/// A record of the vocabulary, with its field table.
package protocol TableRecord: Sendable {
    static var table: RecordTable<Self> { get }
}

extension TraceEventKind {
    /// What each field of this kind's record is, in table order.
    package var fieldSpecs: [FieldSpec] {
        switch self {
        case .run: RunRecord.table.specs
        case .session: SessionRecord.table.specs
        case .request: RequestRecord.table.specs
        case .toolCall: ToolCallRecord.table.specs
        case .handoff: HandoffRecord.table.specs
        case .interval: IntervalRecord.table.specs
        case .instant: InstantRecord.table.specs
        case .chunk: ChunkRecord.table.specs
        case .payload: PayloadRecord.table.specs
        case .dropped: DroppedRecord.table.specs
        }
    }
}
