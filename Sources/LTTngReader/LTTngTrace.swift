import CBabeltrace
import Foundation
import SessionTrace
import TraceModel
import TraceStore

/// Reads LTTng traces of the `session_trace` provider as SessionTrace records, so every analysis
/// reads them as it reads a store.
///
/// ```swift
/// let trace = try LTTngTrace.load(path: "/tmp/demo-trace")   // the folder `lttng create --output` named
/// print(SummaryReport.compute(trace: trace).requestCount)
/// ```
///
/// The input is the folder of a recording session or any folder below it; every CTF trace under
/// it (one per user, buffer type and host, as `lttng` and `lttng-relayd` lay them out) is read
/// through the babeltrace2 library, merged in time order. See `docs/lttng.md`.
public enum LTTngTrace {
    /// Whether `path` names what this reader takes rather than a store: a folder, or a live
    /// session's `net://` URL.
    public static func isTraceInput(_ path: String) -> Bool {
        if isLiveURL(path) { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Whether `path` is a live session's URL, `net://RELAY/host/HOST/SESSION`.
    public static func isLiveURL(_ path: String) -> Bool {
        path.hasPrefix("net://") || path.hasPrefix("net4://") || path.hasPrefix("net6://")
    }

    /// Reads every `session_trace` record under `path` into runs, as ``TraceLoader`` reads a store.
    ///
    /// - Parameter chunks: false to skip streamed-chunk records, which can outnumber requests by far.
    public static func load(path: String, chunks: Bool = true) throws(LTTngTraceError) -> RecordedTrace {
        let stream = try LTTngRecordStream(path: path)
        var builder = RecordedTraceBuilder(keepsChunks: chunks)
        while case .record(let event, let runID, let host) = try stream.next() {
            builder.add(event, runID: runID, host: host)
        }
        var trace = builder.trace(path: path)
        trace.anomalies = stream.anomalies
        return trace
    }

    /// The folders at or below `path` that hold a CTF trace, sorted: a `metadata` file that starts as
    /// CTF metadata does, no deeper than ``deepestTrace`` levels. A folder with another file named
    /// `metadata`, deep in an unrelated tree, is not a trace.
    static func traceDirectories(under path: String) throws(LTTngTraceError) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound(path: path)
        }
        guard isDirectory.boolValue else { throw .noTrace(path: path) }
        var found: [String] = []
        var pending = [(path, 0)]
        while let (directory, depth) = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { continue }
            if names.contains("metadata"), isCTFMetadata(directory + "/metadata") {
                found.append(directory)
                continue
            }
            guard depth < deepestTrace else { continue }
            for name in names where !name.hasPrefix(".") {
                let child = directory + "/" + name
                if FileManager.default.fileExists(atPath: child, isDirectory: &isDirectory), isDirectory.boolValue {
                    pending.append((child, depth + 1))
                }
            }
        }
        guard !found.isEmpty else { throw .noTrace(path: path) }
        return found.sorted()
    }

    /// How far below the folder given a trace is looked for: LTTng's deepest layout, a relay
    /// daemon's `HOST/SESSION-DATE/ust/uid/UID/64-bit`, is six levels.
    static let deepestTrace = 8

    /// Whether the file starts as CTF metadata does: a packet's magic number (`0x75D11D57`, either
    /// byte order), CTF 1.8's text header (`/* CTF`), or CTF 2's JSON text sequence (a record
    /// separator, 0x1E).
    static func isCTFMetadata(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        let head = [UInt8]((try? file.read(upToCount: 6)) ?? Data())
        if head.first == 0x1E { return true }
        if head.starts(with: [0x75, 0xD1, 0x1D, 0x57]) || head.starts(with: [0x57, 0x1D, 0xD1, 0x75]) { return true }
        return head.starts(with: Array("/* CTF".utf8))
    }
}

/// The `session_trace` records of an LTTng trace, each with its run, in the order the trace holds
/// them (by the time each was written): the tokenizer, parser and tracker of the importer in one
/// pass.
///
/// Records whose run can be told only once the whole trace is read (see ``RunTracker``) come last.
public final class LTTngRecordStream {
    public enum Item {
        /// A record, its run, and the host of the trace it came from.
        case record(TraceEvent, runID: Int64, host: String)
        /// Live only: nothing new yet.
        case again
        case end
    }

    /// The folder or URL, for messages.
    public let path: String
    private let reader: CTFReader
    private let isLive: Bool
    private var decoder: SessionTraceDecoder
    private var tracker = RunTracker()
    private var hosts: [String] = []
    private var late: [(event: TraceEvent, id: Int64?, host: String)] = []
    private var lateIndex = 0
    private var readerEnded = false
    /// `session_trace` records read so far.
    private(set) var recordCount = 0

    /// Opens every CTF trace at or below the folder `path`, to read every field.
    public convenience init(path: String) throws(LTTngTraceError) {
        try self.init(path: path, selection: nil)
    }

    /// Opens every CTF trace at or below the folder `path`.
    ///
    /// - Parameter selection: the fields to read (see ``SessionTraceDecoder/Selection``); nil for
    ///   every field.
    package init(path: String, selection: SessionTraceDecoder.Selection?) throws(LTTngTraceError) {
        self.path = path
        isLive = false
        decoder = SessionTraceDecoder(selection: selection)
        let directories = try LTTngTrace.traceDirectories(under: path)
        do { reader = try CTFReader(directories: directories) } catch {
            throw .damaged(path: path, reason: Self.reason(error.message))
        }
    }

    /// Attaches to a live session through lttng-relayd: `url` is `net://RELAY/host/HOST/SESSION`.
    public init(liveURL url: String) throws(LTTngTraceError) {
        path = url
        isLive = true
        decoder = SessionTraceDecoder()
        do { reader = try CTFReader(liveURL: url) } catch {
            throw .liveUnavailable(url: url, reason: Self.reason(error.message))
        }
    }

    public func next() throws(LTTngTraceError) -> Item {
        while !readerEnded {
            let next: CTFReader.Next
            do { next = try reader.next() } catch {
                throw isLive
                    ? .liveUnavailable(url: path, reason: Self.reason(error.message))
                    : .damaged(path: path, reason: Self.reason(error.message))
            }
            switch next {
            case .event:
                let decoded: SessionTraceDecoder.Decoded?
                do { decoded = try decoder.decode(reader) } catch {
                    switch error {
                    case .newerVersion(let version):
                        throw .newerTracepoints(
                            path: path, found: version, supported: SessionTraceDecoder.supportedVersion)
                    case .missingField(let event, let field):
                        throw .missingField(path: path, event: event, field: field)
                    }
                }
                guard let decoded else { continue }
                recordCount += 1
                let record = reader.record
                let host = host(record.trace_index, record.hostname)
                let vpid = record.vpid >= 0 ? record.vpid : nil
                if let runID = tracker.place(decoded, trace: record.trace_index, vpid: vpid) {
                    return .record(decoded.event, runID: runID, host: host)
                }
                // A live viewer sees only what is recorded after it attached, so it waits for
                // nothing: the record goes to the run its id names.
                if isLive { return .record(decoded.event, runID: tracker.placeLate(id: decoded.id), host: host) }
                late.append((decoded.event, decoded.id, host))
            case .discarded(let count, let traceIndex, let clockValue):
                guard count > 0 else { continue }
                let dropped = DroppedRecord(
                    ts: clockValue ?? 0, sinkName: "lttng", reason: .discarded, count: Int64(clamping: count))
                let decoded = SessionTraceDecoder.Decoded(event: .dropped(dropped), id: nil)
                let host = host(traceIndex, nil)
                if let runID = tracker.place(decoded, trace: traceIndex, vpid: nil) {
                    return .record(decoded.event, runID: runID, host: host)
                }
                if isLive { return .record(decoded.event, runID: tracker.placeLate(id: nil), host: host) }
                late.append((decoded.event, nil, host))
            case .again:
                return .again
            case .end:
                readerEnded = true
                if recordCount == 0 && !isLive {
                    throw .noSessionTraceEvents(path: path, otherEvents: decoder.foreignRecords)
                }
            }
        }
        guard lateIndex < late.count else { return .end }
        let (event, id, host) = late[lateIndex]
        lateIndex += 1
        return .record(event, runID: tracker.placeLate(id: id), host: host)
    }

    /// Fields this version writes that the trace's event classes lack, as `event.field`.
    var absentFields: Set<String> { decoder.absentFields }

    /// The fields that held numbers no recording writes, read as the nearest plausible value.
    public var anomalies: [StoreAnomaly] { decoder.implausibleFields.anomalies(path: path) }

    private func host(_ traceIndex: UInt64, _ name: UnsafePointer<CChar>?) -> String {
        let index = Int(traceIndex)
        while hosts.count <= index { hosts.append("") }
        if hosts[index].isEmpty, let name { hosts[index] = String(cString: name) }
        return hosts[index]
    }

    /// The root cause babeltrace2 gave, which says what is wrong with the file; the causes above it
    /// only say which component passed it on.
    private static func reason(_ message: String) -> String {
        let causes = message.components(separatedBy: " | ")
        let root = causes.count > 1 ? causes[1] : causes[0]
        let line = root.split(separator: "\n").first.map(String.init) ?? root
        return line.trimmingCharacters(in: .whitespaces)
    }
}
