/// The formats `trace-report export` writes. Adding one is a case here, a file under `Export/`
/// and a line in ``ExportCommand``'s switch.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// Chrome trace-event JSON, which ui.perfetto.dev and chrome://tracing open.
    case perfetto
    /// OTLP/JSON `ExportTraceServiceRequest` with OpenTelemetry `gen_ai.*` attributes.
    case otlp
    /// One JSON object per record, `type` first, keys as in the store's schema.
    case jsonl
    /// The web viewer as one self-contained page with the trace embedded (docs/viewer-data.md).
    case html
}
