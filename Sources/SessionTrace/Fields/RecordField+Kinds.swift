// One constructor per kind of field, so that a table's entry names its property once for reading
// and once for writing, and the conversion to and from `FieldValue` is written here alone.

extension RecordField {
    /// An integer that is always known.
    static func integer(
        _ name: String, _ column: String, unit: FieldUnit, tracepoint: String? = nil, _ doc: String,
        get: @escaping @Sendable (Record) -> Int64, set: @escaping @Sendable (inout Record, Int64) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: tracepoint, kind: .integer, isOptional: false,
            unit: unit, isFreeText: false, doc: doc, get: { .integer(get($0)) },
            set: { record, value in set(&record, value.integer ?? 0) })
    }

    /// An integer that may be unknown.
    static func optionalInteger(
        _ name: String, _ column: String, unit: FieldUnit, _ doc: String,
        get: @escaping @Sendable (Record) -> Int64?, set: @escaping @Sendable (inout Record, Int64?) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: nil, kind: .integer, isOptional: true,
            unit: unit, isFreeText: false, doc: doc, get: { get($0).map(FieldValue.integer) ?? .null },
            set: { record, value in set(&record, value.integer) })
    }

    /// A double that may be unknown.
    static func optionalReal(
        _ name: String, _ column: String, _ doc: String,
        get: @escaping @Sendable (Record) -> Double?, set: @escaping @Sendable (inout Record, Double?) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: nil, kind: .real, isOptional: true, unit: .none,
            isFreeText: false, doc: doc, get: { get($0).map(FieldValue.real) ?? .null },
            set: { record, value in set(&record, value.real) })
    }

    /// A flag that may be unknown.
    static func optionalBool(
        _ name: String, _ column: String, _ doc: String,
        get: @escaping @Sendable (Record) -> Bool?, set: @escaping @Sendable (inout Record, Bool?) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: nil, kind: .bool, isOptional: true, unit: .none,
            isFreeText: false, doc: doc, get: { get($0).map(FieldValue.bool) ?? .null },
            set: { record, value in set(&record, value.bool) })
    }

    /// Text that is always there, possibly empty. `freeText` where a redaction must see it.
    static func text(
        _ name: String, _ column: String, freeText: Bool, tracepoint: String? = nil, _ doc: String,
        get: @escaping @Sendable (Record) -> String, set: @escaping @Sendable (inout Record, String) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: tracepoint, kind: .text, isOptional: false,
            unit: .none, isFreeText: freeText, doc: doc, get: { .text(get($0)) },
            set: { record, value in set(&record, value.text ?? "") })
    }

    /// Text that may be unknown. `freeText` where a redaction must see it.
    static func optionalText(
        _ name: String, _ column: String, freeText: Bool, _ doc: String,
        get: @escaping @Sendable (Record) -> String?, set: @escaping @Sendable (inout Record, String?) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: nil, kind: .text, isOptional: true, unit: .none,
            isFreeText: freeText, doc: doc, get: { get($0).map(FieldValue.text) ?? .null },
            set: { record, value in set(&record, value.text) })
    }

    /// App-defined metadata; its values are free text.
    static func metadata(
        _ name: String, _ column: String, _ doc: String,
        get: @escaping @Sendable (Record) -> TraceMetadata,
        set: @escaping @Sendable (inout Record, TraceMetadata) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: nil, kind: .metadata, isOptional: false,
            unit: .none, isFreeText: true, doc: doc, get: { .metadata(get($0)) },
            set: { record, value in
                if case .metadata(let metadata) = value { set(&record, metadata) } else { set(&record, [:]) }
            })
    }

    /// A similarity sketch that may be absent.
    static func optionalSketch(
        _ name: String, _ column: String, _ doc: String,
        get: @escaping @Sendable (Record) -> [UInt32]?,
        set: @escaping @Sendable (inout Record, [UInt32]?) -> Void
    ) -> RecordField {
        RecordField(
            name, column: column, jsonKey: nil, tracepointField: nil, kind: .sketch, isOptional: true,
            unit: .none, isFreeText: false, doc: doc, get: { get($0).map(FieldValue.sketch) ?? .null },
            set: { record, value in
                if case .sketch(let sketch) = value { set(&record, sketch) } else { set(&record, nil) }
            })
    }
}

extension FieldValue {
    /// The integer, or nil for null and other kinds (a bool reads as 0 or 1).
    package var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .bool(let value): value ? 1 : 0
        default: nil
        }
    }

    /// The number as a double, or nil for null and other kinds.
    package var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    /// The flag, or nil for null and other kinds (an integer reads as not zero).
    package var bool: Bool? {
        switch self {
        case .bool(let value): value
        case .integer(let value): value != 0
        default: nil
        }
    }

    /// The text, or nil for null and other kinds.
    package var text: String? {
        if case .text(let value) = self { value } else { nil }
    }
}
