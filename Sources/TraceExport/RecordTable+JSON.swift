import Reproducible
import SessionTrace
import TraceStore

extension RecordTable {
    /// The record's fields as JSON members, `(jsonKey, value)` in table order, leaving out the
    /// fields whose column is in `excluded`.
    ///
    /// Ids and wall-clock times are decimal strings, which JavaScript and jq read exactly (a JSON
    /// number above 2^53 they round); unknown values are `null`; metadata is an object; a sketch
    /// its hex digits, as stored.
    func jsonMembers(_ record: Record, excluding excluded: Set<String> = []) -> [(String, OrderedJSON)] {
        var members: [(String, OrderedJSON)] = []
        members.reserveCapacity(fields.count)
        for field in fields where !excluded.contains(field.spec.column) {
            members.append((field.spec.jsonKey, field.get(record).orderedJSON(field.spec.unit)))
        }
        return members
    }

    /// The members of the record's JSON Lines object: its store row's columns in order, with the
    /// run's id as `run_id` where the store stamps one, and no row number for `chunk` and `dropped`.
    func jsonLinesMembers(_ record: Record, runID: Int64) -> [(String, OrderedJSON)] {
        var members = jsonMembers(record)
        let table = StoreSchema.table(kind)
        if table.stampsRunID { members.insert(("run_id", .id(runID)), at: table.keyIsRecordID ? 1 : 0) }
        return members
    }
}

extension FieldValue {
    /// The value as JSON, for a field of `unit`.
    func orderedJSON(_ unit: FieldUnit) -> OrderedJSON {
        switch self {
        case .null: .null
        case .integer(let value): unit == .identifier || unit == .wallClock ? .id(value) : .int(value)
        case .real(let value): .double(value)
        case .text(let value): .string(value)
        case .bool(let value): .bool(value)
        case .metadata(let metadata): metadata.orderedJSON
        case .sketch(let sketch): .string(StoreSchema.encodeSketch(sketch))
        }
    }
}
