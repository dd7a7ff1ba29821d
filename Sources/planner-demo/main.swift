import Foundation
import LTTngRecording
import LlamaServer
import ModelSession
import Redaction
import SessionInstrumentation
import SessionTrace
import SessionTraceLTTng
import TraceStore

/// Prints one sentence to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("planner-demo: \(message)\n".utf8))
    exit(status)
}

let arguments: DemoArguments
do {
    guard let parsed = try DemoArguments.parse(Array(CommandLine.arguments.dropFirst())) else {
        print(DemoArguments.usage)
        exit(0)
    }
    arguments = parsed
} catch {
    fail("\(error); see planner-demo --help", status: 2)
}

var lttngDaemon: LTTngControl.SessionDaemon?
var lttng: LTTngControl.Session?
if let directory = arguments.lttngDirectory {
    do {
        lttngDaemon = try LTTngControl.ensureSessionDaemon()
        let session = try LTTngControl.Session.create(
            name: "planner_demo_\(getpid())", outputDirectory: URL(fileURLWithPath: directory).path)
        try session.start(until: { LTTngSink().isEnabled(.request) })
        lttng = session
    } catch {
        lttngDaemon?.stop()
        fail("could not start an LTTng session: \(error)", status: 2)
    }
}

let store: StoreSink
do {
    store = try StoreSink(path: arguments.storePath)
} catch {
    fail("\(error)", status: 2)
}

let redactor = Redactor.standard
let tracer = Tracer(
    sink: MultiplexSink([LTTngSink(), store]), label: arguments.label,
    gitRevision: ProcessInfo.processInfo.environment["SESSIONTRACE_GIT_REVISION"],
    payloadRedaction: { redactor.redact($0).text })

var server: LlamaServer?
let baseURL: URL
if let url = arguments.serverURL {
    guard let parsed = URL(string: url) else { fail("--server takes a URL, not '\(url)'", status: 2) }
    baseURL = parsed
} else {
    do {
        server = try await LlamaServer.start(configuration: .init(extraArguments: arguments.serverArguments))
        baseURL = server!.baseURL
    } catch {
        fail("could not start the model server: \(error)", status: 2)
    }
}

let model = OpenAICompatibleModel(
    baseURL: baseURL, modelName: "SmolLM2-135M-Instruct", provider: "openai", toolCalling: .structuredOutput)
let planner = DayPlanner(
    model: model, tracer: tracer, index: .sample, searchBudget: arguments.searchBudget,
    economyAfterTurns: arguments.economyAfterTurns, bloatNotes: arguments.bloatNotes,
    maximumResponseTokens: arguments.maximumResponseTokens,
    tracingOptions: TracingOptions(capturePayloads: arguments.capturePayloads))

var status: Int32 = 0
do {
    try await planner.run()
} catch {
    FileHandle.standardError.write(Data("planner-demo: the planner failed: \(error)\n".utf8))
    status = 1
}
tracer.flush()
store.close()
server?.stop()
if let session = lttng {
    do {
        try session.stop()
        try session.destroy()
        print("lttng: \(session.outputDirectory ?? "") (read it with trace-report summary DIR)")
    } catch {
        FileHandle.standardError.write(Data("planner-demo: could not stop the LTTng session: \(error)\n".utf8))
    }
}
lttngDaemon?.stop()
do {
    try DemoReport(storePath: arguments.storePath, runID: tracer.runID).print()
} catch {
    fail("\(error)", status: 2)
}
exit(status)
