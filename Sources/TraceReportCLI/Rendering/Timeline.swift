import LTTngReader
import LatencyGate
import SessionTrace
import TraceAnalysis
import TraceExport
import TraceModel

/// A Gantt chart of a trace for the terminal: one lane per session, requests drawn as waiting
/// for the first token (`░`) then generating (`█`), tool calls on a row beneath (`▪`), handoffs
/// marked (`▲`), failed requests ending in `✗`, and a time axis. Where the server reported its
/// timings, the end of the wait that is its prompt processing is drawn apart (`▒`, ``TTFTSplit``).
///
/// Each column covers an equal slice of time. Where a column holds parts of several requests,
/// their boundaries cannot be seen: the column shows the phase that covers most of it, and the
/// chart says how many requests were drawn that way. Labels and handoff values from the trace are
/// sanitized, so nothing in a store can send an escape sequence to the terminal.
public struct Timeline: Sendable {
    public struct Options: Sendable, Hashable {
        /// Total width in columns, labels included.
        public var width: Int = 100
        /// ANSI colours; off for pipes, `--no-color` and `NO_COLOR`.
        public var color: Bool = false
        /// Only sessions with this label or decimal id.
        public var session: String?
        /// Window start and end, nanoseconds after the run's start.
        public var from: Int64?
        public var to: Int64?
        /// Lanes drawn at most; further sessions share one lane.
        public var maxLanes: Int = 24

        public init(width: Int = 100, color: Bool = false, session: String? = nil, from: Int64? = nil,
                    to: Int64? = nil, maxLanes: Int = 24) {
            self.width = width
            self.color = color
            self.session = session
            self.from = from
            self.to = to
            self.maxLanes = maxLanes
        }
    }

    /// Why a timeline cannot be drawn; one sentence.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        case tooNarrow(width: Int)
        case noSuchSession(String)
        case emptyWindow(from: Int64, to: Int64)

        public var description: String {
            switch self {
            case .tooNarrow(let width): "--width \(width) is too narrow; a timeline needs at least 40 columns"
            case .noSuchSession(let session):
                "no session is labelled or numbered '\(TerminalText.sanitized(session))' in the store"
            case .emptyWindow(let from, let to):
                "--from \(Format.duration(from)) is not before --to \(Format.duration(to))"
            }
        }
    }

    public static let waiting: Character = "░"
    public static let prompt: Character = "▒"
    public static let generating: Character = "█"
    public static let tool: Character = "▪"
    public static let handoff: Character = "▲"
    public static let failed: Character = "✗"

    /// Draws `trace`, one chart per run that has something in the window.
    public static func render(_ trace: RecordedTrace, options: Options) throws(Failure) -> String {
        guard options.width >= 40 else { throw .tooNarrow(width: options.width) }
        if let from = options.from, let to = options.to, from >= to { throw .emptyWindow(from: from, to: to) }
        if let wanted = options.session {
            let exists = trace.runs.contains { run in run.sessions.contains { matches($0, wanted) } }
            guard exists else { throw .noSuchSession(wanted) }
        }
        let store = TerminalText.sanitized(trace.path)
        guard !trace.isEmpty else { return "\(store): no requests recorded\n" }
        var charts: [String] = []
        for run in trace.runs {
            if let chart = chart(run, options: options) { charts.append(chart) }
        }
        if charts.isEmpty { return "\(store): no requests in the chosen window\n" }
        return charts.joined(separator: "\n")
    }

    public static func matches(_ session: SessionRecord, _ wanted: String) -> Bool {
        session.label == wanted || ShortID.matchesRecord(session.sessionID, wanted)
    }

    // MARK: - Layout

    private struct Lane {
        var label: String
        var requests: [RequestRecord] = []
        var toolCalls: [ToolCallRecord] = []
        var handoffs: [HandoffRecord] = []
        var sessions = 1
    }

    private struct Scale {
        var start: Int64
        var end: Int64
        var columns: Int
        var span: Double { Double(end - start) / Double(columns) }

        /// Columns `[first, last]` that the interval `[from, to)` touches, clipped; nil if outside.
        func columns(from: Int64, to: Int64) -> ClosedRange<Int>? {
            let to = max(to, from + 1)
            guard to > start, from < end else { return nil }
            let first = Int((Double(max(from, start) - start) / span).rounded(.down))
            let last = Int((Double(min(to, end) - start) / span).rounded(.up)) - 1
            return min(first, columns - 1)...max(min(last, columns - 1), min(first, columns - 1))
        }

        func column(_ time: Int64) -> Int? {
            guard time >= start, time <= end else { return nil }
            return min(Int(Double(time - start) / span), columns - 1)
        }
    }

    private static func chart(_ run: RecordedRun, options: Options) -> String? {
        let origin = run.startTime
        var sessions = run.sessions
        var includeLoose = true
        if let wanted = options.session {
            sessions = sessions.filter { matches($0, wanted) }
            includeLoose = false
            if sessions.isEmpty { return nil }
        }
        let chosen = Set(sessions.map(\.sessionID))
        let requests = run.requests.filter { $0.sessionID.map(chosen.contains) ?? includeLoose }
        let toolCalls = run.toolCalls.filter { $0.sessionID.map(chosen.contains) ?? includeLoose }
        guard !requests.isEmpty || !toolCalls.isEmpty else { return nil }

        // The window, in absolute ts.
        var latest = Int64.min
        var earliest = Int64.max
        for request in requests {
            latest = max(latest, request.ts + request.dur)
            earliest = min(earliest, request.ts)
        }
        for call in toolCalls {
            latest = max(latest, call.ts + call.dur)
            earliest = min(earliest, call.ts)
        }
        let defaultStart = options.session == nil ? origin : earliest
        let start = options.from.map { origin + $0 } ?? defaultStart
        var end = options.to.map { origin + $0 } ?? latest
        if end <= start { end = start + 1_000_000 }

        // Lanes: one per session in order, the loose requests last, the overflow merged.
        var lanes: [Lane] = []
        var laneOfSession: [Int64: Int] = [:]
        for session in sessions {
            laneOfSession[session.sessionID] = lanes.count
            lanes.append(Lane(label: session.label))
        }
        var looseLane: Int?
        if includeLoose, requests.contains(where: { $0.sessionID == nil }) || toolCalls.contains(where: { $0.sessionID == nil }) {
            looseLane = lanes.count
            lanes.append(Lane(label: "(no session)"))
        }
        func lane(_ sessionID: Int64?) -> Int? { sessionID.map { laneOfSession[$0] } ?? looseLane }
        for request in requests { if let index = lane(request.sessionID) { lanes[index].requests.append(request) } }
        for call in toolCalls { if let index = lane(call.sessionID) { lanes[index].toolCalls.append(call) } }
        for handoff in run.handoffs {
            if let id = handoff.sessionID, let index = laneOfSession[id], handoff.ts >= start, handoff.ts <= end {
                lanes[index].handoffs.append(handoff)
            }
        }
        // Sessions with nothing in the window take no lane.
        lanes.removeAll { lane in
            !lane.requests.contains { $0.ts < end && $0.ts + max($0.dur, 1) > start }
                && !lane.toolCalls.contains { $0.ts < end && $0.ts + max($0.dur, 1) > start }
                && lane.handoffs.isEmpty
        }
        guard !lanes.isEmpty else { return nil }
        var mergedSessions = 0
        if lanes.count > options.maxLanes {
            let kept = Array(lanes.prefix(options.maxLanes - 1))
            var rest = Lane(label: "")
            for lane in lanes.dropFirst(options.maxLanes - 1) {
                rest.requests += lane.requests
                rest.toolCalls += lane.toolCalls
                rest.handoffs += lane.handoffs
                mergedSessions += 1
            }
            rest.label = "(+\(mergedSessions) sessions)"
            rest.sessions = mergedSessions
            lanes = kept + [rest]
        }

        let labelWidth = min(22, max(12, lanes.map { TerminalText.sanitized($0.label).count }.max()! + 2))
        let scale = Scale(start: start, end: end, columns: options.width - labelWidth)
        let paint = Painter(color: options.color)

        var out = ""
        let runName = "run " + ShortID.run(run.run.runID)
            + (run.run.label.map { " " + TerminalText.fitted($0, width: 30) } ?? "")
        let shownRequests = lanes.reduce(0) { total, lane in
            total + lane.requests.filter { $0.ts < end && $0.ts + max($0.dur, 1) > start }.count
        }
        out += "\(runName): \(Format.count(Int64(shownRequests))) requests in \(lanes.count) lane"
            + (lanes.count == 1 ? "" : "s") + ", \(Format.duration(start - origin)) to \(Format.duration(end - origin))"
            + ", \(Format.duration(Int64(scale.span))) per column\n"
        out += axis(scale: scale, origin: origin, labelWidth: labelWidth, paint: paint)

        var crowded = 0
        var handoffNotes: [String] = []
        for lane in lanes {
            let (row, sharing) = requestRow(lane.requests, scale: scale)
            crowded += sharing
            out += TerminalText.padded(TerminalText.fitted(lane.label, width: labelWidth - 1), labelWidth)
                + paint.row(row) + "\n"
            if !lane.toolCalls.isEmpty {
                var tools = [Character](repeating: " ", count: scale.columns)
                for call in lane.toolCalls {
                    if let range = scale.columns(from: call.ts, to: call.ts + call.dur) {
                        for column in range { tools[column] = tool }
                    }
                }
                if tools.contains(tool) {
                    out += TerminalText.padded("  tools", labelWidth) + paint.row(tools) + "\n"
                }
            }
            if !lane.handoffs.isEmpty {
                var marks = [Character](repeating: " ", count: scale.columns)
                for handoff in lane.handoffs {
                    if let column = scale.column(handoff.ts) { marks[column] = Timeline.handoff }
                    handoffNotes.append(
                        "\(Timeline.handoff) \(Format.duration(handoff.ts - origin)) "
                            + "\(TerminalText.fitted(lane.label, width: 24)): \(TerminalText.fitted(handoff.kind.rawValue, width: 16)) "
                            + "\(TerminalText.fitted(handoff.from, width: 24)) → \(TerminalText.fitted(handoff.to, width: 24))")
                }
                out += TerminalText.padded("  handoff", labelWidth) + paint.row(marks) + "\n"
            }
        }
        out += "\n" + paint.row(Array("\(waiting)")) + " waiting for first token  "
            + paint.row(Array("\(prompt)")) + " of it, server prompt processing  "
            + paint.row(Array("\(generating)")) + " generating  " + paint.row(Array("\(tool)")) + " tool call  "
            + paint.row(Array("\(Timeline.handoff)")) + " handoff  " + paint.row(Array("\(failed)")) + " failed\n"
        for note in handoffNotes.prefix(20) { out += note + "\n" }
        if handoffNotes.count > 20 { out += "… \(handoffNotes.count - 20) more handoffs\n" }
        if crowded > 0 {
            out += "note: \(Format.count(Int64(crowded))) of \(Format.count(Int64(shownRequests))) requests share a "
                + "column with another, so each column shows the phase that covers most of it; zoom with "
                + "--from/--to or --session to see them apart\n"
        }
        if mergedSessions > 0 {
            out += "note: \(mergedSessions) sessions beyond the first \(options.maxLanes - 1) share the last lane; "
                + "use --session to see one\n"
        }
        return out
    }

    /// The request row of a lane, and how many requests shared a column with another.
    private static func requestRow(_ requests: [RequestRecord], scale: Scale) -> ([Character], Int) {
        var waitingCover = [Double](repeating: 0, count: scale.columns)
        var promptCover = [Double](repeating: 0, count: scale.columns)
        var generatingCover = [Double](repeating: 0, count: scale.columns)
        var owners = [Int](repeating: 0, count: scale.columns)
        var failures: [Int] = []
        var drawn: [ClosedRange<Int>] = []
        func cover(_ cells: inout [Double], from: Int64, to: Int64) {
            guard to > from, let range = scale.columns(from: from, to: to) else { return }
            for column in range {
                let cellStart = Double(scale.start) + Double(column) * scale.span
                let overlap = min(Double(to), cellStart + scale.span) - max(Double(from), cellStart)
                cells[column] += max(overlap, 1)
            }
        }
        for request in requests {
            let end = request.ts + max(request.dur, 1)
            guard let range = scale.columns(from: request.ts, to: end) else { continue }
            drawn.append(range)
            for column in range { owners[column] += 1 }
            let firstToken = request.timeToFirstToken.map { request.ts + min($0, request.dur) } ?? end
            let promptStart = TTFTSplit(request).map { firstToken - $0.drawn(in: firstToken - request.ts).prompt }
                ?? firstToken
            cover(&waitingCover, from: request.ts, to: promptStart)
            cover(&promptCover, from: promptStart, to: firstToken)
            cover(&generatingCover, from: firstToken, to: end)
            if request.error != nil, let column = scale.column(min(end, scale.end)) { failures.append(column) }
        }
        var row = [Character](repeating: " ", count: scale.columns)
        for column in 0..<scale.columns {
            let covers = [(generatingCover[column], generating), (promptCover[column], prompt),
                          (waitingCover[column], waiting)]
            if let most = covers.max(by: { $0.0 < $1.0 }), most.0 > 0 { row[column] = most.1 }
        }
        for column in failures { row[column] = failed }
        let sharing = drawn.filter { range in range.contains { owners[$0] > 1 } }.count
        return (row, sharing)
    }

    private static func axis(scale: Scale, origin: Int64, labelWidth: Int, paint: Painter) -> String {
        let duration = Double(scale.end - scale.start)
        // A round step giving a tick about every 10 columns.
        let rough = duration / Double(max(1, scale.columns / 10))
        var step = 1.0
        while step * 10 <= rough { step *= 10 }
        for factor in [1.0, 2.0, 5.0, 10.0] where step * factor >= rough {
            step *= factor
            break
        }
        var labels = [Character](repeating: " ", count: scale.columns)
        var line = [Character](repeating: "─", count: scale.columns)
        let relativeStart = Double(scale.start - origin)
        var tick = (relativeStart / step).rounded(.up) * step
        var free = 0
        while tick <= relativeStart + duration {
            let column = Int((tick - relativeStart) / scale.span)
            if column < scale.columns {
                line[column] = "┼"
                let text = Array(tickLabel(tick, step: step))
                if column >= free, column + text.count <= scale.columns {
                    for (offset, character) in text.enumerated() { labels[column + offset] = character }
                    free = column + text.count + 1
                }
            }
            tick += step
        }
        let pad = String(repeating: " ", count: labelWidth)
        var out = pad + String(labels).replacingTrailingSpaces() + "\n"
        out += TerminalText.padded("time", labelWidth) + paint.dim(String(line)) + "\n"
        return out
    }

    /// `1.5s`, `250ms`, `40µs`: the unit chosen by the step so labels line up.
    static func tickLabel(_ nanoseconds: Double, step: Double) -> String {
        func trimmed(_ value: Double) -> String {
            let text = Format.fixed(value, 3)
            var result = text
            while result.contains("."), result.hasSuffix("0") { result.removeLast() }
            if result.hasSuffix(".") { result.removeLast() }
            return result
        }
        if step >= 1e8 { return trimmed(nanoseconds / 1e9) + "s" }
        if step >= 1e5 { return trimmed(nanoseconds / 1e6) + "ms" }
        return trimmed(nanoseconds / 1e3) + "µs"
    }

    /// Colours glyphs when asked; otherwise passes them through.
    private struct Painter {
        var color: Bool

        func code(_ character: Character) -> String? {
            switch character {
            case Timeline.waiting: "33"
            case Timeline.prompt: "34"
            case Timeline.generating: "32"
            case Timeline.tool: "36"
            case Timeline.handoff: "35"
            case Timeline.failed: "1;31"
            default: nil
            }
        }

        func row(_ characters: [Character]) -> String {
            guard color else { return String(characters).replacingTrailingSpaces() }
            var out = ""
            var current: String?
            for character in characters {
                let wanted = code(character)
                if wanted != current {
                    if current != nil { out += "\u{1B}[0m" }
                    if let wanted { out += "\u{1B}[\(wanted)m" }
                    current = wanted
                }
                out.append(character)
            }
            if current != nil { out += "\u{1B}[0m" }
            return out.replacingTrailingSpaces()
        }

        func dim(_ text: String) -> String { color ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    }
}

extension String {
    fileprivate func replacingTrailingSpaces() -> String {
        var text = self
        while text.hasSuffix(" ") { text.removeLast() }
        return text
    }
}
