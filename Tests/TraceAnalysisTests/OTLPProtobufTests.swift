import Foundation
import LTTngReader
import Redaction
import TestSupport
import Testing
import TraceModel
import TraceScenarios

@testable import TraceAnalysis
@testable import TraceExport

/// The protobuf OTLP push sends, read with the official definitions (opentelemetry-proto from
/// PyPI): it parses as an `ExportTraceServiceRequest` with no unknown field, and holds exactly
/// what the OTLP/JSON export holds.
@Suite("OTLP protobuf")
struct OTLPProtobufTests {
    @Test func varintsFollowTheWireFormat() {
        // The examples of protobuf.dev/programming-guides/encoding: 150 in field 1 is 08 96 01.
        var writer = ProtobufWriter()
        writer.varint(1, 150)
        #expect(writer.bytes == [0x08, 0x96, 0x01])
        var negative = ProtobufWriter()
        negative.varint(3, -1)
        #expect(negative.bytes == [0x18] + Array(repeating: 0xFF, count: 9) + [0x01])
        var text = ProtobufWriter()
        text.string(2, "testing")
        #expect(text.bytes == [0x12, 0x07] + Array("testing".utf8))
    }

    /// Parses both encodings with the official classes and prints what differs, or `same N`.
    private static let compare = #"""
        import base64, json, sys
        from google.protobuf import json_format
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
        binary = ExportTraceServiceRequest()
        binary.ParseFromString(open(sys.argv[1], "rb").read())
        known = ExportTraceServiceRequest()
        known.CopyFrom(binary)
        known.DiscardUnknownFields()
        data = json.load(open(sys.argv[2]))
        for resource in data["resourceSpans"]:
            for scope in resource["scopeSpans"]:
                for span in scope["spans"]:
                    for key in ("traceId", "spanId", "parentSpanId"):
                        if key in span: span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
                    for link in span.get("links", []):
                        for key in ("traceId", "spanId"): link[key] = base64.b64encode(bytes.fromhex(link[key])).decode()
        from_json = json_format.Parse(json.dumps(data), ExportTraceServiceRequest())
        spans = sum(len(s.spans) for r in binary.resource_spans for s in r.scope_spans)
        problems = ["unknown fields"] if known.ByteSize() != binary.ByteSize() else []
        if binary != from_json: problems.append("differs from the JSON export")
        print("; ".join(problems) if problems else f"same {spans}")
        """#

    @Test(arguments: ["tracefiles/planner/run-1.sqlite", "tracefiles/scenarios/tool-loop.sqlite"])
    func protobufIsTheJSONExportUnderTheOfficialDefinitions(store: String) throws {
        let path = packageRoot.appendingPathComponent(store).path
        let trace = try RedactedTrace.redact(TraceLoader.load(path: path), with: .standard)
        let directory = try TemporaryDirectory()
        let binary = directory.path("request.pb")
        let json = directory.path("request.json")
        try Data(OTLPProtobuf.request(OTLPExport.resourceSpans(trace))).write(to: URL(fileURLWithPath: binary))
        try OTLPExport.render(trace).write(toFile: json, atomically: true, encoding: .utf8)
        let spans = trace.trace.runs.reduce(0) { $0 + OTLPTraceBuilder(run: $1).spans().count }
        let verdict = try OTLPBackEnd.runPython(Self.compare, [binary, json])
        #expect(verdict.trimmingCharacters(in: .whitespacesAndNewlines) == "same \(spans)")
    }

    @Test func batchesHoldEverySpanOnceInOrder() throws {
        let path = packageRoot.appendingPathComponent("tracefiles/planner/run-1.sqlite").path
        let resources = OTLPExport.resourceSpans(try RedactedTrace.redact(TraceLoader.load(path: path), with: .standard))
        var push = OTLPPush(endpoint: "http://127.0.0.1:1", headers: [])
        push.spansPerBatch = 5
        let batches = push.batches(resources)
        let sent = batches.flatMap { $0.flatMap(\.spans) }.map(\.spanID)
        #expect(sent == resources.flatMap(\.spans).map(\.spanID))
        #expect(batches.allSatisfy { $0.reduce(0) { $0 + $1.spans.count } <= 5 })
        #expect(batches.count == (sent.count + 4) / 5)
    }

    @Test func endpointsWithoutAPathGetTheTracesPath() {
        #expect(OTLPPush.tracesURL("http://127.0.0.1:6006") == "http://127.0.0.1:6006/v1/traces")
        #expect(OTLPPush.tracesURL("http://127.0.0.1:6006/") == "http://127.0.0.1:6006/v1/traces")
        #expect(OTLPPush.tracesURL("https://collector/otlp/v1/traces") == "https://collector/otlp/v1/traces")
    }
}
