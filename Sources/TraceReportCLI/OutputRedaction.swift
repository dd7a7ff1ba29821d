import LatencyGate
import Redaction
import Reproducible
import TraceAnalysis

/// The options that choose the run's redaction policy; every subcommand takes them.
extension CommonOptions {
    /// `--rules FILE`: custom rules on top of the built-in ones.
    static let rules = OptionSpec.value(
        "--rules", "FILE", "more redaction rules, one per line (see docs/trace-report.md)")
    /// `--no-redact`: no redaction at all.
    static let noRedact = OptionSpec.flag(
        "--no-redact", "redact nothing, for your own terminal only; says so on standard error")
    /// The redaction options, in the order `--help` lists them.
    static let redaction = [rules, noRedact]
}

extension Redactor {
    /// The note `--no-redact` prints on standard error.
    static let unredactedNote =
        "trace-report: --no-redact: nothing is redacted; this output may hold secrets and personal data, "
        + "so keep it to your own terminal\n"

    /// The run's policy from the command line: the built-in rules and those of `--rules FILE`, or,
    /// with `--no-redact`, a redactor without rules, which replaces nothing.
    static func policy(_ arguments: ParsedArguments) throws(CommandFailure) -> Redactor {
        guard arguments.flag(CommonOptions.noRedact) else {
            return try withRules(from: arguments.value(CommonOptions.rules))
        }
        guard arguments.value(CommonOptions.rules) == nil else {
            throw .usage(UsageError("give --rules or --no-redact, not both"))
        }
        return Redactor(rules: [])
    }
}

extension OrderedJSON {
    /// The value with every key and string passed through `redactor`, a string judged by the key
    /// it is under (`"password": "..."` goes whole). Numbers, booleans and the structure are kept,
    /// so the result is valid JSON with the same ids and figures. A store id (``OrderedJSON/id(_:)``)
    /// is a string only so that readers keep it exact: under a key ending in `_id` or `_ids`, the
    /// decimal form of a 64-bit integer is kept as a number would be, never taken for a card number.
    func redacted(by redactor: Redactor) -> OrderedJSON {
        var memo: [String: String] = [:]
        return redacted(by: redactor, field: "", memo: &memo)
    }

    /// Short strings (labels, models, keys) repeat across thousands of objects; their results are
    /// remembered for the one walk.
    private func redacted(by redactor: Redactor, field: String, memo: inout [String: String]) -> OrderedJSON {
        func text(_ value: String, field: String) -> String {
            guard !value.isEmpty else { return value }
            guard value.utf8.count <= 256 else { return redactor.redact(value, field: field).text }
            let key = field + "\u{0}" + value
            if let known = memo[key] { return known }
            let result = redactor.redact(value, field: field).text
            memo[key] = result
            return result
        }
        switch self {
        case .null, .bool, .int, .double: return self
        case .string(let value):
            if field.hasSuffix("_id") || field.hasSuffix("_ids"), let id = Int64(value), String(id) == value {
                return self
            }
            return .string(text(value, field: field))
        case .raw(let json): return .string(text(json, field: field))
        case .array(let values):
            return .array(values.map { $0.redacted(by: redactor, field: field, memo: &memo) })
        case .object(let members):
            return .object(
                members.map { key, value in
                    (text(key, field: ""), value.redacted(by: redactor, field: key, memo: &memo))
                })
        }
    }
}

extension SummaryReport {
    /// The report with its store path and every group's label, profile and model redacted.
    func redacted(by redactor: Redactor) -> SummaryReport {
        func text(_ value: String?, _ field: String) -> String? {
            value.map { redactor.redact($0, field: field).text }
        }
        func groups(_ groups: [Group]) -> [Group] {
            groups.map { group in
                var group = group
                group.label = text(group.label, "label")
                group.profile = text(group.profile, "profile")
                group.model = text(group.model, "model")
                group.unclosed = group.unclosed.map { $0.redacted(by: redactor) }
                return group
            }
        }
        var copy = self
        copy.path = redactor.redact(path, field: "path").text
        copy.runs = groups(runs)
        copy.sessions = groups(sessions)
        copy.profiles = groups(profiles)
        return copy
    }
}

extension LatencyBaseline {
    /// The baseline with its sources, scenario keys, providers and repeated calls redacted; groups whose keys
    /// become equal are merged, as if the runs had been recorded with the redacted names.
    func redacted(by redactor: Redactor) -> LatencyBaseline {
        func text(_ value: String, _ field: String) -> String { redactor.redact(value, field: field).text }
        let redactedGroups = groups.map { group in
            var group = group
            group.key = ScenarioKey(
                scenario: text(group.key.scenario, "scenario"), profile: text(group.key.profile, "profile"),
                model: text(group.key.model, "model"))
            group.repeatedCalls = Set(
                group.repeatedCalls.map { call in
                    RepeatedCall(
                        kind: call.kind, session: text(call.session, "label"), tool: text(call.tool, "name"))
                }
            ).sorted()
            group.runs = group.runs.map { run in
                var run = run
                run.requests = run.requests.map { request in
                    var request = request
                    request.provider = request.provider.map { text($0, "provider") }
                    return request
                }
                return run
            }
            return group
        }
        // One merge, which sorts once: merging group by group sorted the whole list each time.
        return LatencyBaseline(grouping: grouping, sources: sources.map { text($0, "path") }, groups: [])
            .merged(with: LatencyBaseline(grouping: grouping, sources: [], groups: redactedGroups))
    }
}
