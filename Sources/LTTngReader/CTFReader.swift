import CBabeltrace
import TraceModel

#if canImport(Glibc)
import Glibc
#endif

/// Reads CTF event records one at a time through the babeltrace2 library: the tokenizer of the
/// LTTng importer. It knows CTF, not the SessionTrace vocabulary (``SessionTraceDecoder`` does).
///
/// A trace on disk is decoded by babeltrace2 on a thread of the C reader's own, a few batches of
/// records ahead, so decoding and the work done on each record run at once on two cores.
///
/// Not thread-safe: one reader is read from one thread. `@unchecked Sendable` so that an importer
/// can hand it to a reading thread once.
final class CTFReader: @unchecked Sendable {
    /// What ``next()`` found.
    enum Next {
        /// An event record; read it with ``record``'s accessors before calling ``next()`` again.
        case event
        /// The tracer had to discard `count` records of one stream (its ring buffer was full).
        case discarded(count: UInt64, traceIndex: UInt64, clockValue: Int64?)
        /// Live only: nothing new yet.
        case again
        case end
    }

    /// Why babeltrace2 could not open or read a trace: its causes, the root cause first.
    struct Failure: Error {
        var message: String
    }

    private let handle: OpaquePointer
    /// The record ``next()`` returned last, and the strings made for its fields' recent values.
    /// Behind pointers, not in stored `var`s: the accessors run for every field of every record, and
    /// a class's `var` is checked for exclusive access at each of them.
    private let current = UnsafeMutablePointer<st_ctf_event>.allocate(capacity: 1)
    private let recentStrings = UnsafeMutablePointer<RecentStrings>.allocate(capacity: 1)

    /// The record ``next()`` returned last.
    var record: st_ctf_event { current.pointee }

    /// Opens the CTF traces in `directories` (each directly holding a `metadata` file), merged in
    /// time order.
    init(directories: [String]) throws(Failure) {
        var error = [CChar](repeating: 0, count: 4096)
        let pointers = directories.map { strdupOrEmpty($0) }
        defer { pointers.forEach { free($0) } }
        let opened = pointers.map { UnsafePointer($0) }.withUnsafeBufferPointer { buffer in
            st_ctf_open_directories(buffer.baseAddress, buffer.count, &error, error.count)
        }
        guard let opened else { throw Failure(message: Self.text(error)) }
        handle = opened
        initializeBuffers()
    }

    /// Attaches to a live session: `url` is `net://RELAY/host/HOST/SESSION`.
    init(liveURL url: String) throws(Failure) {
        var error = [CChar](repeating: 0, count: 4096)
        guard let opened = st_ctf_open_live(url, &error, error.count) else {
            throw Failure(message: Self.text(error))
        }
        handle = opened
        initializeBuffers()
    }

    private func initializeBuffers() {
        current.initialize(to: st_ctf_event())
        recentStrings.initialize(to: RecentStrings())
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }

    deinit {
        st_ctf_close(handle)
        current.deinitialize(count: 1).deallocate()
        recentStrings.deinitialize(count: 1).deallocate()
    }

    /// Reads the next record.
    func next() throws(Failure) -> Next {
        switch st_ctf_next(handle, current) {
        case Int32(ST_CTF_EVENT.rawValue): return .event
        case Int32(ST_CTF_DISCARDED.rawValue):
            return .discarded(
                count: current.pointee.discarded, traceIndex: current.pointee.trace_index,
                clockValue: current.pointee.clock_value >= 0 ? current.pointee.clock_value : nil)
        case Int32(ST_CTF_AGAIN.rawValue): return .again
        case Int32(ST_CTF_END.rawValue): return .end
        default: throw Failure(message: String(cString: st_ctf_error(handle)))
        }
    }

    /// Decodes only the fields of the class with index `classIndex` whose `wanted` entry is true,
    /// soon after the call: records decoded ahead of it still hold every field, so read only those
    /// asked for. Every field is decoded until this is called.
    func selectFields(classIndex: UInt64, wanted: [Bool]) {
        let flags = wanted.map { UInt8($0 ? 1 : 0) }
        let status = st_ctf_select_fields(handle, classIndex, flags, UInt64(flags.count))
        precondition(status == 0, "st_ctf_select_fields: the class has \(flags.count) fields")
    }

    /// The class of the current record: the same pointer for every record of it.
    var eventClass: UnsafePointer<st_ctf_class> { current.pointee.event_class }

    /// The current record's field at `index` as an integer, nil when it holds no integer.
    @inline(__always)
    func integer(_ index: Int) -> Int64? {
        let value = current.pointee.fields[index]
        return value.type == Int32(ST_CTF_SIGNED.rawValue) || value.type == Int32(ST_CTF_UNSIGNED.rawValue)
            ? value.integer : nil
    }

    @inline(__always)
    func real(_ index: Int) -> Double? {
        let value = current.pointee.fields[index]
        if value.type == Int32(ST_CTF_REAL.rawValue) { return value.real }
        return integer(index).map(Double.init)
    }

    /// The current record's string field at `index`, nil when it holds no string.
    ///
    /// A value this field held in one of the last few records of its class is the `String` made
    /// then, not a new one: profile, provider and model names, fingerprints and finish reasons repeat
    /// from record to record, and a new `String` of more than 15 bytes is an allocation.
    @inline(__always)
    func string(_ index: Int) -> String? {
        let value = current.pointee.fields[index]
        guard value.type == Int32(ST_CTF_STRING.rawValue), let text = value.string else { return nil }
        let count = Int(value.length)
        if count == 0 { return "" }
        return text.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            let bytes = UnsafeBufferPointer(start: start, count: count)
            return recentStrings.pointee.string(
                classIndex: Int(current.pointee.event_class.pointee.index), field: index, bytes: bytes)
        }
    }

    func integers(_ index: Int) -> [Int64]? {
        let value = current.pointee.fields[index]
        guard value.type == Int32(ST_CTF_ARRAY.rawValue) else { return nil }
        guard let array = value.array else { return [] }
        return Array(UnsafeBufferPointer(start: array, count: Int(value.length)))
    }
}

private func strdupOrEmpty(_ text: String) -> UnsafeMutablePointer<CChar> {
    strdup(text) ?? strdup("")!
}

/// The last few values of each string field of each event class, to give a repeated value the
/// `String` already made for it.
private struct RecentStrings {
    /// Values kept per field: enough for a few profiles or models taking turns.
    static let depth = 4

    private struct Slots {
        var values: [String] = []
        var next = 0
    }

    /// By class index, then field position.
    private var slots: [[Slots]] = []

    mutating func string(classIndex: Int, field: Int, bytes: UnsafeBufferPointer<UInt8>) -> String {
        if classIndex >= slots.count { slots.append(contentsOf: repeatElement([], count: classIndex + 1 - slots.count)) }
        if field >= slots[classIndex].count {
            slots[classIndex].append(contentsOf: repeatElement(Slots(), count: field + 1 - slots[classIndex].count))
        }
        for value in slots[classIndex][field].values where Self.holds(value, bytes) { return value }
        let made = String(decoding: bytes, as: UTF8.self)
        Self.remember(made, in: &slots[classIndex][field])
        return made
    }

    private static func remember(_ value: String, in slots: inout Slots) {
        if slots.values.count < depth {
            slots.values.append(value)
        } else {
            slots.values[slots.next] = value
            slots.next = (slots.next + 1) % depth
        }
    }

    /// Whether `value` is exactly `bytes`: a valid UTF-8 text reads back as the same bytes.
    @inline(__always)
    private static func holds(_ value: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard value.utf8.count == bytes.count else { return false }
        return value.utf8.withContiguousStorageIfAvailable {
            memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0
        } ?? false
    }
}
