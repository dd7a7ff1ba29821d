/// What a field holds, as every encoding of the vocabulary must carry it.
package enum FieldKind: Sendable, Hashable {
    /// A 64-bit integer (ids, times, counts).
    case integer
    /// A double.
    case real
    /// UTF-8 text.
    case text
    /// True or false; an INTEGER 0 or 1 in the store.
    case bool
    /// App-defined ``TraceMetadata``, stored as one JSON object with sorted keys.
    case metadata
    /// A tool output's similarity sketch, stored as eight hex digits per value.
    case sketch
}

/// The unit of a field's number, which says how an encoding that cannot hold every value of it
/// writes it (JSON writes ids and wall-clock times as decimal strings, above 2^53).
package enum FieldUnit: String, Sendable, Hashable {
    /// No unit: text, flags, names.
    case none
    /// An id made by `Tracer.makeID`, unique across runs.
    case identifier
    /// A time in nanoseconds on the tracer's monotonic clock.
    case timestamp
    /// Nanoseconds since the Unix epoch.
    case wallClock
    /// A duration in nanoseconds.
    case nanoseconds
    /// A count of tokens.
    case tokens
    /// A count of bytes.
    case bytes
    /// A count of transcript entries, events or other things.
    case count
    /// A TCP port.
    case port
}

/// One field of a record as a value of no particular record type, for the code that moves
/// fields between a record and an encoding without naming them.
package enum FieldValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case bool(Bool)
    case metadata(TraceMetadata)
    case sketch([UInt32])
}

/// What a field is, apart from the record it belongs to: its names in each encoding, its kind
/// and unit, whether it is free text a redaction must see, and its documentation.
package struct FieldSpec: Sendable, Hashable {
    /// The record's property, as Swift spells it (`serverTimings.promptTokens` for a nested one).
    package let name: String
    /// The store's column, in its table of the record's kind.
    package let column: String
    /// The member's key in a JSON Lines object.
    package let jsonKey: String
    /// The field's name in the LTTng tracepoint of the record's kind (`session_trace_tp.h`).
    package let tracepointField: String
    package let kind: FieldKind
    /// Whether the field may be unknown: nil in the record, NULL in the store, null in JSON.
    package let isOptional: Bool
    package let unit: FieldUnit
    /// Whether the field is free text (or metadata) that a payload redaction must pass through;
    /// ids, times, counts, fingerprints and the tracer's own vocabulary are not.
    package let isFreeText: Bool
    /// One line for `docs/schema.md` and `trace-report`'s readers.
    package let doc: String
    /// The attribute that OpenTelemetry's semantic conventions give the field
    /// (`gen_ai.usage.input_tokens`), under which the OTLP export writes it; nil where they name
    /// none (the export then writes it as `session_trace.*`, or not at all).
    package var otelAttribute: String?
}

/// One field of `Record`: what it is, and how to read it from and write it into a record.
///
/// Reading goes through ``get`` and returns a ``FieldValue`` that shares the record's storage
/// (a string or array is retained, not copied), so binding a record allocates nothing.
///
/// A class, so that walking a table on the emit path (the size estimate, the insert) retains one
/// reference per field instead of copying the spec's strings and both closures.
package final class RecordField<Record>: Sendable {
    package let spec: FieldSpec
    /// The field's value in a record; ``FieldValue/null`` where an optional is nil.
    package let get: @Sendable (Record) -> FieldValue
    /// Sets the field from a value of its kind; null (or a value of another kind) sets nil, or
    /// zero or empty where the field is not optional, as SQLite reads NULL.
    package let set: @Sendable (inout Record, FieldValue) -> Void

    init(
        _ name: String, column: String, jsonKey: String?, tracepointField: String?, kind: FieldKind,
        isOptional: Bool, unit: FieldUnit, isFreeText: Bool, doc: String,
        get: @escaping @Sendable (Record) -> FieldValue, set: @escaping @Sendable (inout Record, FieldValue) -> Void
    ) {
        spec = FieldSpec(
            name: name, column: column, jsonKey: jsonKey ?? column, tracepointField: tracepointField ?? column,
            kind: kind, isOptional: isOptional, unit: unit, isFreeText: isFreeText, doc: doc)
        self.get = get
        self.set = set
    }

    private init(spec: FieldSpec, get: @escaping @Sendable (Record) -> FieldValue,
                 set: @escaping @Sendable (inout Record, FieldValue) -> Void) {
        self.spec = spec
        self.get = get
        self.set = set
    }

    /// The field, named `attribute` in OpenTelemetry's semantic conventions.
    func otel(_ attribute: String) -> RecordField {
        var spec = spec
        spec.otelAttribute = attribute
        return RecordField(spec: spec, get: get, set: set)
    }
}
