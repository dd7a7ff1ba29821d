import CBabeltrace
import SessionTrace
import TraceModel
import TraceStore

/// Turns CTF records of the `session_trace` provider into SessionTrace's records: the parser of
/// the LTTng importer.
///
/// Fields are found by name once per event class, so a trace whose events carry more or fewer
/// fields than this version writes is still read: a field the class lacks reads as unknown (nil),
/// as the store reads a column an older schema lacks. The LTTng convention for unknown values is
/// undone here: an integer -1 and an empty string read as nil (see `docs/lttng.md`).
///
/// A reader that needs only some fields names them (a ``Selection``): babeltrace2 then decodes
/// those alone, and the others read as unknown, as the store's columns a query does not select.
package struct SessionTraceDecoder {
    /// The fields to read, by kind and store column, as the store reads them
    /// (``FieldSelection``); the first field of a kind places a record in its run.
    package typealias Selection = FieldSelection

    /// The version of the tracepoints this reader understands, as `session_trace_tp.h` declares it
    /// in every event class's `model.emf.uri`.
    static let supportedVersion = 2
    static let versionURIPrefix = "urn:sessiontrace:tracepoints:"

    /// One decoded record and what the tracker needs to place it in a run.
    struct Decoded {
        var event: TraceEvent
        /// The id whose upper 32 bits name the run (`Tracer.makeID`), nil for `dropped`.
        var id: Int64?
    }

    enum Failure: Error {
        /// An event class declares a newer tracepoint version.
        case newerVersion(Int)
        /// A `session_trace` event lacks a field without which it means nothing.
        case missingField(event: String, field: String)
    }

    /// Where each field of one event class sits in its payload (-1 where the class lacks it), and
    /// the values each integer field may plausibly hold, as the store's column of that name.
    fileprivate struct Layout {
        var kind: TraceEventKind?
        var positions: [Int]
        var names: [String] = []
        var ranges: [ClosedRange<Int64>] = []
    }

    /// Layouts by ``st_ctf_class/index``.
    private var layouts: [Layout?] = []
    /// The fields read; nil for every field.
    let selection: Selection?
    /// Records of other providers seen, which this reader skips.
    private(set) var foreignRecords = 0
    /// Fields this version writes that some event class of the trace lacks, as `event.field`.
    private(set) var absentFields: Set<String> = []
    /// Numbers no recording writes, each read as the nearest plausible value.
    let implausibleFields = ImplausibleFields()

    /// - Parameter selection: the fields to read; nil (the default) for every field.
    init(selection: Selection? = nil) {
        self.selection = selection
    }

    /// Decodes the reader's current record; nil for a record of another provider.
    mutating func decode(_ reader: CTFReader) throws(Failure) -> Decoded? {
        let eventClass = reader.eventClass
        let index = Int(eventClass.pointee.index)
        if index >= layouts.count { layouts.append(contentsOf: repeatElement(nil, count: index + 1 - layouts.count)) }
        let layout: Layout
        if let known = layouts[index] {
            layout = known
        } else {
            layout = try Self.layout(of: eventClass, selection: selection, absentFields: &absentFields)
            layouts[index] = layout
            var wanted = [Bool](repeating: false, count: Int(eventClass.pointee.field_count))
            for position in layout.positions where position >= 0 { wanted[position] = true }
            reader.selectFields(classIndex: eventClass.pointee.index, wanted: wanted)
        }
        guard let kind = layout.kind else {
            foreignRecords += 1
            return nil
        }
        let f = Fields(
            reader: reader, layout: layout, table: kind.name, implausible: implausibleFields)
        switch kind {
        case .run: return Self.decoded(f.record(), RunRecord.self) { .run($0) }
        case .session: return Self.decoded(f.record(), SessionRecord.self) { .session($0) }
        case .request: return Self.decoded(f.record(), RequestRecord.self) { .request($0) }
        case .toolCall: return Self.decoded(f.record(), ToolCallRecord.self) { .toolCall($0) }
        case .handoff: return Self.decoded(f.record(), HandoffRecord.self) { .handoff($0) }
        case .interval: return Self.decoded(f.record(), IntervalRecord.self) { .interval($0) }
        case .instant: return Self.decoded(f.record(), InstantRecord.self) { .instant($0) }
        case .chunk: return Self.decoded(f.record(), ChunkRecord.self) { .chunk($0) }
        case .payload: return Self.decoded(f.record(), PayloadRecord.self) { .payload($0) }
        case .dropped: return Self.decoded(f.record(), DroppedRecord.self) { .dropped($0) }
        }
    }

    /// The event, and the id that places it in its run: the record's first field where that is
    /// an id (a chunk's is its request's), nil for `dropped`, which has none.
    private static func decoded<Record: TableRecord>(
        _ record: Record, _: Record.Type, _ event: (Record) -> TraceEvent
    ) -> Decoded {
        let first = Record.table.fields[0]
        let id = first.spec.unit == .identifier ? first.get(record).integer : nil
        return Decoded(event: event(record), id: id)
    }

    /// The fields of each kind, as the tracepoint names them, in field-table order; the first
    /// (the record's id, `dropped`'s `ts`) and `ts` must be present for a record to mean anything.
    static let fieldNames: [TraceEventKind: [String]] = Dictionary(
        uniqueKeysWithValues: TraceEventKind.allCases.map { kind in (kind, kind.fieldSpecs.map(\.tracepointField)) })

    private static let kindsByEventName: [String: TraceEventKind] = Dictionary(
        uniqueKeysWithValues: TraceEventKind.allCases.map { ("session_trace:\($0.name)", $0) })

    private static func layout(
        of eventClass: UnsafePointer<st_ctf_class>, selection: Selection?, absentFields: inout Set<String>
    ) throws(Failure) -> Layout {
        let name = String(cString: eventClass.pointee.name)
        guard let kind = kindsByEventName[name], let fields = fieldNames[kind] else {
            return Layout(kind: nil, positions: [])
        }
        if let uri = eventClass.pointee.emf_uri.map({ String(cString: $0) }), uri.hasPrefix(versionURIPrefix),
            let version = Int(uri.dropFirst(versionURIPrefix.count)), version > supportedVersion
        {
            throw .newerVersion(version)
        }
        var positionByName: [String: Int] = [:]
        for index in 0..<Int(eventClass.pointee.field_count) {
            positionByName[String(cString: eventClass.pointee.field_names[index]!)] = index
        }
        var positions = fields.map { positionByName[$0] ?? -1 }
        for (offset, position) in positions.enumerated() where position < 0 {
            if offset == 0 || fields[offset] == "ts" { throw .missingField(event: name, field: fields[offset]) }
            absentFields.insert("\(kind.name).\(fields[offset])")
        }
        if let selection {
            let selected = selection[kind] ?? []
            for (offset, spec) in kind.fieldSpecs.enumerated() where offset > 0 && !selected.contains(spec.column) {
                positions[offset] = -1
            }
        }
        return Layout(
            kind: kind, positions: positions, names: fields, ranges: fields.map(PlausibleRange.of(column:)))
    }
}

/// One record's fields by their place in a kind's list, with LTTng's unknown values undone and
/// implausible numbers read as the store reads them (see ``ImplausibleFields``).
private struct Fields {
    let reader: CTFReader
    let layout: SessionTraceDecoder.Layout
    let table: String
    let implausible: ImplausibleFields

    /// A field that is always written; 0 if the class lacks it.
    @inline(__always)
    func int(_ field: Int) -> Int64 {
        let position = layout.positions[field]
        guard position >= 0, let value = reader.integer(position) else { return 0 }
        return plausible(value, field)
    }

    /// -1 (the LTTng convention for unknown) and a field the class lacks read as nil.
    @inline(__always)
    func optionalInt(_ field: Int) -> Int64? {
        let position = layout.positions[field]
        guard position >= 0, let value = reader.integer(position), value != -1 else { return nil }
        return plausible(value, field)
    }

    @inline(__always)
    private func plausible(_ value: Int64, _ field: Int) -> Int64 {
        let range = layout.ranges[field]
        if range.contains(value) { return value }
        return implausible.outOfRange(value, range, table: table, column: layout.names[field])
    }

    /// Like ``optionalInt(_:)``; an infinity reads as nil too, and is counted.
    @inline(__always)
    func optionalReal(_ field: Int) -> Double? {
        let position = layout.positions[field]
        guard position >= 0, let value = reader.real(position), value != -1 else { return nil }
        if value.isFinite { return value }
        implausible.notFinite(value, table: table, column: layout.names[field])
        return nil
    }

    @inline(__always)
    func text(_ field: Int) -> String {
        let position = layout.positions[field]
        return position < 0 ? "" : reader.string(position) ?? ""
    }

    /// "" (the LTTng convention for unknown) and a field the class lacks read as nil.
    @inline(__always)
    func optionalText(_ field: Int) -> String? {
        let value = text(field)
        return value.isEmpty ? nil : value
    }

    func metadata(_ field: Int) -> TraceMetadata {
        TraceMetadata(jsonObject: text(field)) ?? [:]
    }

    /// The record of `Record`'s kind, read field by field through its table.
    func record<Record: TableRecord>() -> Record {
        Record.table.record { offset, spec in value(offset, spec) }
    }

    /// Field `field` as a value of `spec`'s kind, with LTTng's unknown values read as null.
    private func value(_ field: Int, _ spec: FieldSpec) -> FieldValue {
        switch spec.kind {
        case .integer:
            spec.isOptional ? optionalInt(field).map(FieldValue.integer) ?? .null : .integer(int(field))
        case .real: optionalReal(field).map(FieldValue.real) ?? .null
        case .text: spec.isOptional ? optionalText(field).map(FieldValue.text) ?? .null : .text(text(field))
        case .bool: optionalInt(field).map { FieldValue.bool($0 != 0) } ?? .null
        case .metadata: .metadata(metadata(field))
        case .sketch: sketch(field).map(FieldValue.sketch) ?? .null
        }
    }

    /// An empty sketch is how LTTng writes "none made".
    func sketch(_ field: Int) -> [UInt32]? {
        let position = layout.positions[field]
        guard position >= 0, let values = reader.integers(position), !values.isEmpty else { return nil }
        return values.map { UInt32(truncatingIfNeeded: $0) }
    }
}
