import SessionTrace
import TraceAnalysis

/// The `trace-report(1)` man page in roff, made from the program's and each subcommand's help
/// parts (abstract, usage, discussion, options), so the page says what `--help` says.
enum ManualPage {
    /// The page for `commands`, in their order.
    static func render(_ commands: [any ReportCommand.Type]) -> String {
        var out = """
            .TH TRACE-REPORT 1 "" "SessionTrace \(escaped(sessionTraceVersion))" "User Commands"
            .nh
            .ad l
            .SH NAME
            trace-report \\- read SessionTrace stores recorded from language-model sessions
            .SH SYNOPSIS
            .B trace-report
            .I SUBCOMMAND
            [options]
            .I STORE
            .br
            .B trace-report
            .I SUBCOMMAND
            .B \\-\\-help
            .SH DESCRIPTION
            .B trace-report
            reads the SQLite stores and LTTng traces that SessionTrace records from language-model
            sessions: summaries, timelines, findings, exports, and a CI latency gate. Stores are opened
            read-only; everything it writes is redacted first.
            .SH SUBCOMMANDS

            """
        for command in commands {
            out += ".SS \(escaped(command.name))\n\(paragraph(command.abstract))\n"
            // One line, for man to wrap at the reader's width.
            let usage = command.usage.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            out += ".PP\n\(paragraph(usage))\n"
            if !command.discussion.isEmpty { out += ".PP\n\(paragraph(command.discussion))\n" }
            for option in command.helpOptions {
                out += ".TP\n\\fB\(escaped(option.name))\\fR"
                if let valueName = option.valueName { out += " \\fI\(escaped(valueName))\\fR" }
                out += "\n\(paragraph(option.help))\n"
            }
        }
        out += """
            .SH ENVIRONMENT
            .TP
            .B NO_COLOR
            when set and not empty, no ANSI colour, as with \\-\\-no\\-color
            .TP
            .B COLUMNS
            the width of
            .B timeline
            when
            \\-\\-width is not given
            .SH EXIT STATUS
            0 ok; 1 a finding where the subcommand gates (\\-\\-fail\\-on\\-findings, gate) or the recorded
            command failed (record); 2 bad usage or unreadable input, with one sentence on standard error.
            .SH SEE ALSO
            .BR sqlite3 (1),
            .BR lttng (1),
            docs/trace-report.md and docs/schema.md in the SessionTrace sources

            """
        return out
    }

    /// Lines of help text as roff input: escaped, none taken for a request.
    private static func paragraph(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                let text = escaped(String(line))
                return text.hasPrefix(".") || text.hasPrefix("'") ? "\\&" + text : text
            }
            .joined(separator: "\n")
    }

    /// `text` with roff's escape character and hyphens escaped, so that options print as typed.
    private static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\e"
            case "-": out += "\\-"
            default: out.append(character)
            }
        }
        return out
    }
}
