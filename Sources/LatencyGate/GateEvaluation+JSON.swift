import Reproducible

extension GateEvaluation {
    /// The verdict and every check as JSON, keys as `diff --json` names them; durations in ns.
    public var json: OrderedJSON {
        .object([
            ("passed", .bool(passed)),
            ("regressions", .int(Int64(regressions.count))),
            ("min_samples", .int(Int64(minSamples))),
            ("confidence", .double(confidence)),
            ("checks", .array(rows.map { row in
                let metric = row.key.metric
                return .object([
                    ("scenario", .string(row.group.scenario)), ("profile", .string(row.group.profile)),
                    ("model", .string(row.group.model)), ("metric", .string(row.key.description)),
                    ("baseline", metric.json(row.baselineValue)), ("current", metric.json(row.currentValue)),
                    ("delta", metric.json(row.delta)),
                    ("ci_lower", metric.json(row.interval?.lower)), ("ci_upper", metric.json(row.interval?.upper)),
                    ("budget", .string(row.budget.limitText)), ("verdict", .string(row.verdict.rawValue)),
                    ("baseline_samples", .int(Int64(row.baselineSamples))),
                    ("current_samples", .int(Int64(row.currentSamples))),
                    ("new_findings", .array(row.newFindings.map { .string($0.description) })),
                    ("restated", .bool(row.restated)),
                ])
            })),
            ("workloads", .array(workloads.map { workload in
                .object([
                    ("scenario", .string(workload.key.scenario)), ("profile", .string(workload.key.profile)),
                    ("model", .string(workload.key.model)), ("kind", .string(workload.kind.rawValue)),
                    ("baseline_output_tokens", workload.baselineOutputTokens.map(OrderedJSON.double) ?? .null),
                    ("current_output_tokens", workload.currentOutputTokens.map(OrderedJSON.double) ?? .null),
                    ("baseline_earlier_output_tokens", workload.baselineEarlierText.map(OrderedJSON.double) ?? .null),
                    ("current_earlier_output_tokens", workload.currentEarlierText.map(OrderedJSON.double) ?? .null),
                    ("baseline_prompt_tokens", workload.baselinePromptTokens.map(OrderedJSON.double) ?? .null),
                    ("current_prompt_tokens", workload.currentPromptTokens.map(OrderedJSON.double) ?? .null),
                    ("baseline_settings", .string(workload.baselineSettings)),
                    ("current_settings", .string(workload.currentSettings)),
                ])
            })),
            ("notes", .array(notes.map(OrderedJSON.string))),
        ])
    }
}
