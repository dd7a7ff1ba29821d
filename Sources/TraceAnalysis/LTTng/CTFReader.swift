import CBabeltrace

#if canImport(Glibc)
import Glibc
#endif

/// Reads CTF event records one at a time through the babeltrace2 library: the tokenizer of the
/// LTTng importer. It knows CTF, not the SessionTrace vocabulary (``SessionTraceDecoder`` does).
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
    /// The record ``next()`` returned last.
    private(set) var record = st_ctf_event()

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
    }

    /// Attaches to a live session: `url` is `net://RELAY/host/HOST/SESSION`.
    init(liveURL url: String) throws(Failure) {
        var error = [CChar](repeating: 0, count: 4096)
        guard let opened = st_ctf_open_live(url, &error, error.count) else {
            throw Failure(message: Self.text(error))
        }
        handle = opened
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
    }

    deinit {
        st_ctf_close(handle)
    }

    /// Reads the next record.
    func next() throws(Failure) -> Next {
        switch st_ctf_next(handle, &record) {
        case Int32(ST_CTF_EVENT.rawValue): return .event
        case Int32(ST_CTF_DISCARDED.rawValue):
            return .discarded(
                count: record.discarded, traceIndex: record.trace_index,
                clockValue: record.clock_value >= 0 ? record.clock_value : nil)
        case Int32(ST_CTF_AGAIN.rawValue): return .again
        case Int32(ST_CTF_END.rawValue): return .end
        default: throw Failure(message: String(cString: st_ctf_error(handle)))
        }
    }

    /// The class of the current record: the same pointer for every record of it.
    var eventClass: UnsafePointer<st_ctf_class> { record.event_class }

    /// The current record's field at `index` as an integer, nil when it holds no integer.
    @inline(__always)
    func integer(_ index: Int) -> Int64? {
        let value = record.fields[index]
        return value.type == Int32(ST_CTF_SIGNED.rawValue) || value.type == Int32(ST_CTF_UNSIGNED.rawValue)
            ? value.integer : nil
    }

    @inline(__always)
    func real(_ index: Int) -> Double? {
        let value = record.fields[index]
        if value.type == Int32(ST_CTF_REAL.rawValue) { return value.real }
        return integer(index).map(Double.init)
    }

    @inline(__always)
    func string(_ index: Int) -> String? {
        let value = record.fields[index]
        guard value.type == Int32(ST_CTF_STRING.rawValue), let text = value.string else { return nil }
        return text.withMemoryRebound(to: UInt8.self, capacity: Int(value.length)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(value.length)), as: UTF8.self)
        }
    }

    func integers(_ index: Int) -> [Int64]? {
        let value = record.fields[index]
        guard value.type == Int32(ST_CTF_ARRAY.rawValue) else { return nil }
        guard let array = value.array else { return [] }
        return Array(UnsafeBufferPointer(start: array, count: Int(value.length)))
    }
}

private func strdupOrEmpty(_ text: String) -> UnsafeMutablePointer<CChar> {
    strdup(text) ?? strdup("")!
}
