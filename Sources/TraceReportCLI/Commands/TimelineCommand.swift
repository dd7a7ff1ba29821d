import Reproducible
import TraceAnalysis
import TraceModel

/// `trace-report timeline STORE`: a Gantt chart of the sessions in the terminal.
struct TimelineCommand: ReportCommand {
    static let name = "timeline"
    static let abstract = "A Gantt chart of sessions, requests, tool calls and handoffs in the terminal."
    static let operands = "STORE"
    static let discussion = """
        One lane per session. In each request, ░ is the wait for the first token and █ the generation;
        tool calls run on the row beneath (▪), handoffs are marked ▲, a failed request ends in ✗.
        Times are from the start of the run; T is a duration like 1.5s, 250ms or 40us.
        Where a column holds several requests the chart shows the phase covering most of it and says so;
        zoom in with --from/--to or --session. Colour is on for a terminal unless --no-color or NO_COLOR.
        """
    /// The options of this command alone, each declared once and read through its declaration.
    enum Option {
        static let width = OptionSpec.value(
            "--width", "N", "columns, labels included (default: $COLUMNS, else 100)")
        static let from = OptionSpec.value("--from", "T", "start of the window, after the run's start")
        static let to = OptionSpec.value("--to", "T", "end of the window, after the run's start")
        static let maxLanes = OptionSpec.value(
            "--max-lanes", "N", "lanes at most; later sessions share the last (default 24)")
        static let color = OptionSpec.flag("--color", "ANSI colour even when the output is not a terminal")
    }

    static let options: [OptionSpec] = [
        Option.width,
        SessionOption.runSpec,
        SessionOption.spec,
        Option.from,
        Option.to,
        Option.maxLanes,
        CommonOptions.noColor,
        Option.color,
        CommonOptions.json,
        Follow.option,
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws(CommandFailure)
        -> ReportExitStatus
    {
        var options = Timeline.Options()
        do {
            let columns = context.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 >= 40 ? $0 : nil }
            options.width = try arguments.int(Option.width, default: columns ?? 100, in: 1...10_000)
            options.maxLanes = try arguments.int(Option.maxLanes, default: 24, in: 2...10_000)
            options.from = try arguments.duration(Option.from)
            options.to = try arguments.duration(Option.to)
        } catch {
            throw .usage(error)
        }
        options.session = arguments.value(SessionOption.spec)
        let noColor = arguments.flag(CommonOptions.noColor) || !(context.environment["NO_COLOR"] ?? "").isEmpty
        options.color = !noColor && (arguments.flag(Option.color) || context.outputIsTerminal)
        let json = arguments.flag(CommonOptions.json)
        func render(_ trace: RecordedTrace) throws(CommandFailure) -> String {
            let trace = try SessionOption.narrowed(trace, arguments, session: false)
            do {
                return try Timeline.render(trace, options: options)
            } catch {
                switch error {
                case .noSuchSession: throw .message(error.description)
                default: throw .usage(UsageError(error.description))
                }
            }
        }
        func data(_ trace: RecordedTrace) throws(CommandFailure) -> OrderedJSON {
            TimelineData.json(try SessionOption.narrowed(trace, arguments, session: false), options: options)
        }
        if arguments.flag(Follow.option) {
            return try Follow.run(arguments, context: context, text: render, object: data)
        }
        let trace = try loadTrace(arguments, context: context)
        if json {
            context.writeRedacted(json: AnomalyNotes.adding(trace.anomalies, to: try data(trace)))
        } else {
            context.writeRedacted(try render(trace) + AnomalyNotes.text(trace.anomalies))
        }
        return .success
    }
}

/// The timeline's data as JSON: the spans a chart draws, in nanoseconds after the run's start.
enum TimelineData {
    static func json(_ trace: RecordedTrace, options: Timeline.Options) -> OrderedJSON {
        .object([
            ("store", .string(trace.path)),
            ("runs", .array(trace.runs.map { run in
                let origin = run.startTime
                let sessions = run.sessions.filter { session in
                    options.session.map { Timeline.matches(session, $0) } ?? true
                }
                let ids = Set(sessions.map(\.sessionID))
                func inWindow(_ ts: Int64, _ dur: Int64) -> Bool {
                    let from = options.from.map { origin + $0 } ?? .min
                    let to = options.to.map { origin + $0 } ?? .max
                    return ts < to && ts + dur >= from
                }
                let requests = run.requests.filter {
                    ($0.sessionID.map(ids.contains) ?? (options.session == nil)) && inWindow($0.ts, $0.dur)
                }
                return .object([
                    ("run_id", .id(run.run.runID)),
                    ("start_ts", .int(origin)),
                    ("sessions", .array(sessions.map { session in
                        .object([("session_id", .id(session.sessionID)), ("label", .string(session.label)),
                                 ("start_ns", .int(session.ts - origin)), ("dur_ns", .int(session.dur))])
                    })),
                    ("requests", .array(requests.map { request in
                        .object([
                            ("request_id", .id(request.requestID)), ("session_id", .id(request.sessionID)),
                            ("start_ns", .int(request.ts - origin)), ("dur_ns", .int(request.dur)),
                            ("ttft_ns", .int(request.timeToFirstToken)),
                            ("server_prompt_ns", .int(TTFTSplit(request)?.prompt)), ("error", .string(request.error)),
                            ("tool_calls", .array((run.toolCallsByRequest[request.requestID] ?? []).map { call in
                                .object([("tool_call_id", .id(call.toolCallID)), ("name", .string(call.name)),
                                         ("start_ns", .int(call.ts - origin)), ("dur_ns", .int(call.dur))])
                            })),
                        ])
                    })),
                    ("handoffs", .array(run.handoffs.filter { $0.sessionID.map(ids.contains) ?? false }.map { handoff in
                        .object([("session_id", .id(handoff.sessionID)), ("at_ns", .int(handoff.ts - origin)),
                                 ("kind", .string(handoff.kind.rawValue)), ("from", .string(handoff.from)),
                                 ("to", .string(handoff.to))])
                    })),
                ])
            })),
        ])
    }
}
