import SessionTrace

/// OTLP's protobuf encoding of ``OTLPResourceSpans``: an `ExportTraceServiceRequest` as
/// opentelemetry-proto's `collector/trace/v1/trace_service.proto` and `trace/v1/trace.proto`
/// define it, the body of an OTLP/HTTP `application/x-protobuf` request.
enum OTLPProtobuf {
    /// `ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }`
    static func request(_ resources: [OTLPResourceSpans]) -> [UInt8] {
        var writer = ProtobufWriter()
        for resource in resources {
            writer.message(1) { resourceSpans(&$0, resource) }
        }
        return writer.bytes
    }

    /// `ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }`
    private static func resourceSpans(_ writer: inout ProtobufWriter, _ resource: OTLPResourceSpans) {
        writer.message(1) { resourceWriter in
            for attribute in resource.attributes { resourceWriter.message(1) { keyValue(&$0, attribute) } }
        }
        writer.message(2) { scopeSpans in
            scopeSpans.message(1) { scope in
                scope.string(1, OTLPExport.scopeName)
                scope.string(2, sessionTraceVersion)
            }
            for span in resource.spans { scopeSpans.message(2) { self.span(&$0, span) } }
        }
    }

    private static func span(_ writer: inout ProtobufWriter, _ span: OTLPSpan) {
        writer.bytes(1, bytes(span.traceID))
        writer.bytes(2, bytes(span.spanID))
        if let parent = span.parentSpanID { writer.bytes(4, bytes(parent)) }
        writer.string(5, span.name)
        writer.varint(6, span.kind.rawValue)
        writer.fixed64(7, span.start)
        writer.fixed64(8, span.end)
        for attribute in span.attributes { writer.message(9) { keyValue(&$0, attribute) } }
        for event in span.events {
            writer.message(11) { eventWriter in
                eventWriter.fixed64(1, event.time)
                eventWriter.string(2, event.name)
                for attribute in event.attributes { eventWriter.message(3) { keyValue(&$0, attribute) } }
            }
        }
        for link in span.links {
            writer.message(13) { linkWriter in
                linkWriter.bytes(1, bytes(link.traceID))
                linkWriter.bytes(2, bytes(link.spanID))
                for attribute in link.attributes { linkWriter.message(4) { keyValue(&$0, attribute) } }
            }
        }
        // Status { string message = 2; StatusCode code = 3; }: STATUS_CODE_ERROR = 2 with the
        // message, else STATUS_CODE_OK = 1: every span the store holds ended, failed or not.
        writer.message(15) { status in
            if let error = span.error {
                status.string(2, error)
                status.varint(3, 2)
            } else {
                status.varint(3, 1)
            }
        }
    }

    /// `KeyValue { string key = 1; AnyValue value = 2; }`
    private static func keyValue(_ writer: inout ProtobufWriter, _ attribute: OTLPAttribute) {
        writer.string(1, attribute.key)
        writer.message(2) { anyValue(&$0, attribute.value) }
    }

    /// `AnyValue`'s oneof: string 1, bool 2, int 3, double 4, `ArrayValue { repeated AnyValue values = 1; }` 5.
    private static func anyValue(_ writer: inout ProtobufWriter, _ value: OTLPAttribute.Value) {
        switch value {
        case .string(let string): writer.string(1, string)
        case .bool(let bool): writer.bool(2, bool)
        case .int(let int): writer.varint(3, int)
        case .double(let double): writer.double(4, double)
        case .strings(let strings):
            writer.message(5) { array in
                for string in strings { array.message(1) { $0.string(1, string) } }
            }
        }
    }

    /// Ids are big-endian bytes, as their hex form reads.
    private static func bytes(_ id: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: id >> UInt64(56 - 8 * $0)) }
    }

    private static func bytes(_ id: OTLPTraceID) -> [UInt8] { bytes(id.high) + bytes(id.low) }
}
