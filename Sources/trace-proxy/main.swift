import Foundation
import RecordingProxy
import Redaction
import SessionTrace
import SessionTraceLTTng
import TraceStore

#if canImport(Glibc)
import Glibc
#endif

// Thin on purpose: the proxy lives in the RecordingProxy library, where tests reach it.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("trace-proxy: \(message)\n".utf8))
    exit(status)
}

let arguments: ProxyArguments
do {
    arguments = try ProxyArguments(Array(CommandLine.arguments.dropFirst()))
} catch {
    fail("\(error.message)\n\n\(ProxyArguments.usage)", status: 2)
}

let store: StoreSink
do {
    store = try StoreSink(path: arguments.storePath)
} catch {
    fail("\(error)", status: 2)
}
let redactor = Redactor.standard
let sink: any TraceSink = arguments.lttng ? MultiplexSink([LTTngSink(), store]) : store
let redact: @Sendable (String) -> String = { redactor.redact($0).text }
let redaction = arguments.capturePayloads ? redact : nil
let tracer = Tracer(sink: sink, label: arguments.label, payloadRedaction: redaction)

// Blocked before the server's threads start, so they inherit the mask and the signals reach
// sigwait below alone.
var signals = sigset_t()
sigemptyset(&signals)
sigaddset(&signals, SIGTERM)
sigaddset(&signals, SIGINT)
pthread_sigmask(SIG_BLOCK, &signals, nil)

let proxy = RecordingProxy(
    configuration: .init(
        upstream: arguments.upstream, listenAddress: arguments.listenAddress, listenPort: arguments.listenPort,
        capturePayloads: arguments.capturePayloads, caFile: arguments.caFile,
        maximumRequestBodies: arguments.requestMemory << 20),
    tracer: tracer)
let port: UInt16
do {
    port = try proxy.start()
} catch {
    fail("\(error)", status: 1)
}
// Written unbuffered, so a script or test that started the proxy reads the port at once.
func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
let host = arguments.listenAddress.contains(":") ? "[\(arguments.listenAddress)]" : arguments.listenAddress
say("trace-proxy: listening on http://\(host):\(port), forwarding to "
    + "\(arguments.upstream.absoluteString), recording to \(arguments.storePath)")

var received: Int32 = 0
sigwait(&signals, &received)
// In-flight requests get --drain-timeout to finish; what is still open then is recorded as cut.
proxy.drain(timeout: .milliseconds(Int(arguments.drainTimeout * 1000)))
store.close()
say("trace-proxy: stopped; \(arguments.storePath) is complete")
exit(0)
