// swift-tools-version: 6.0
import PackageDescription

// Layers: each target and every module of this package it imports (arrows point at what it uses).
//   trace-report -> TraceReportCLI
//   TraceReportCLI -> TraceExport, LatencyGate, TraceAnalysis, LTTngReader, TraceModel, TraceStore,
//                     SessionTrace, Redaction, LTTngRecording, Reproducible
//   TraceExport -> TraceAnalysis, TraceModel, TraceStore, SessionTrace, Redaction, CCurl, Reproducible,
//                  WebViewer
//   LatencyGate -> TraceAnalysis, LTTngReader, TraceModel, TraceStore, SessionTrace, Reproducible
//   TraceAnalysis -> TraceModel, TraceStore, SessionTrace, Reproducible
//   LTTngReader -> TraceModel, TraceStore, SessionTrace, CBabeltrace
//   TraceModel -> TraceStore, SessionTrace
//   TraceStore -> SessionTrace, CSQLite
//   SessionTraceLTTng -> SessionTrace, CLTTngUST
//   SessionInstrumentation -> ModelSession, SessionTrace, Reproducible
//   ModelSession -> CCurl, Reproducible
//   LlamaServer -> CCurl, ProcessSpawn
//   LTTngRecording -> ProcessSpawn
//   trace-proxy -> RecordingProxy, SessionTrace, SessionTraceLTTng, TraceStore, Redaction
//   RecordingProxy -> CMicroHTTPD, CCurl, ModelSession, SessionInstrumentation, SessionTrace
//   SessionTrace -> Reproducible
//   SessionTraceTesting (MemorySink, TestClock, for tests) -> SessionTrace
//   Redaction, Reproducible (ordered JSON, FNV-1a, SplitMix64), ProcessSpawn -> nothing of ours
//   WebViewer (viewer/: the web viewer's one copy, its files compiled in as bytes) -> nothing
//   planner-demo -> SessionInstrumentation, ModelSession, SessionTrace, SessionTraceLTTng, TraceStore,
//                   Redaction, LlamaServer, LTTngRecording
//   trace-bench -> SessionTrace, SessionTraceLTTng, TraceStore, ModelSession, SessionInstrumentation,
//                  Redaction, TraceModel, LTTngReader, TraceAnalysis, TraceExport, TraceReportCLI,
//                  LlamaServer, LTTngRecording, Reproducible, CLTTngUST, CSQLite
// The tracer API (SessionTrace) knows nothing of LTTng, SQLite or models; sinks that need a system
// library (SessionTraceLTTng, TraceStore's StoreSink) live apart from it. Reading a recording is cut
// by job: the model (TraceModel), the LTTng reader, the analyses (no babeltrace2, libcurl or viewer),
// the gate and the exports; no module imports one above it. TraceReportCLI,
// LTTngRecording, LlamaServer, ProcessSpawn, WebViewer and the C shims are internal: in no product.
// Linux only: the sources call Glibc and link LTTng-UST, SQLite, babeltrace2 and libcurl, so no Apple
// platform is claimed.
let package = Package(
    name: "SessionTrace",
    products: [
        .library(name: "SessionTrace", targets: ["SessionTrace"]),
        .library(name: "SessionTraceTesting", targets: ["SessionTraceTesting"]),
        .library(name: "SessionTraceLTTng", targets: ["SessionTraceLTTng"]),
        .library(name: "TraceStore", targets: ["TraceStore"]),
        .library(name: "ModelSession", targets: ["ModelSession"]),
        .library(name: "SessionInstrumentation", targets: ["SessionInstrumentation"]),
        .library(name: "TraceModel", targets: ["TraceModel"]),
        .library(name: "LTTngReader", targets: ["LTTngReader"]),
        .library(name: "TraceAnalysis", targets: ["TraceAnalysis"]),
        .library(name: "LatencyGate", targets: ["LatencyGate"]),
        .library(name: "TraceExport", targets: ["TraceExport"]),
        .library(name: "Redaction", targets: ["Redaction"]),
        .library(name: "Reproducible", targets: ["Reproducible"]),
        .executable(name: "trace-report", targets: ["trace-report"]),
        .executable(name: "planner-demo", targets: ["planner-demo"]),
        .executable(name: "trace-bench", targets: ["trace-bench"]),
        .executable(name: "trace-proxy", targets: ["trace-proxy"]),
    ],
    targets: [
        // C shims: tiny, plain functions, no macros visible to Swift.
        .target(name: "CLTTngUST", linkerSettings: [.linkedLibrary("lttng-ust"), .linkedLibrary("dl")]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CBabeltrace", linkerSettings: [.linkedLibrary("babeltrace2")]),
        .target(name: "CMicroHTTPD", linkerSettings: [.linkedLibrary("microhttpd")]),

        // Bytes and numbers that are the same in every process and run: the one JSON writer,
        // the one fingerprint hash, the one seeded generator.
        .target(name: "Reproducible"),
        // The one posix_spawn set-up, for the targets that start daemons and servers.
        .target(name: "ProcessSpawn"),
        .target(name: "SessionTrace", dependencies: ["Reproducible"]),
        // What tests of traced code use (an in-memory sink), kept out of production builds.
        .target(name: "SessionTraceTesting", dependencies: ["SessionTrace"]),
        .target(name: "SessionTraceLTTng", dependencies: ["SessionTrace", "CLTTngUST"]),
        .target(name: "TraceStore", dependencies: ["SessionTrace", "CSQLite"]),
        .target(name: "Redaction"),
        .target(name: "ModelSession", dependencies: ["CCurl", "Reproducible"]),
        // Starts and stops a real llama.cpp server on a loopback port, for tests, demo and bench.
        .target(name: "LlamaServer", dependencies: ["CCurl", "ProcessSpawn"]),
        // How alike two texts are, without keeping them: output and argument sketches, the rules
        // that read tool arguments, and the shapes of volatile values. For recorders and analyses.
        .target(name: "Similarity", dependencies: ["Reproducible"]),
        .target(
            name: "SessionInstrumentation", dependencies: ["ModelSession", "SessionTrace", "Similarity", "Reproducible"]),
        // Drives lttng, lttng-sessiond and lttng-relayd: for trace-report record, planner-demo, tests
        // and bench; in no product.
        .target(name: "LTTngRecording", dependencies: ["ProcessSpawn"]),
        // viewer/ is the web viewer's one copy; its files are compiled in as bytes.
        .target(
            name: "WebViewer", path: "viewer",
            // The node tests of the pure modules, the package.json that makes node read the
            // modules as ES modules, and the browser tests' driver selftest.js are read from the
            // checkout by the tests; none of them is compiled into the binary.
            exclude: ["tests", "package.json", "selftest.js"],
            resources: [
                .embedInCode("index.html"), .embedInCode("viewer.css"),
                // The ES modules; ViewerAssets.modules gives the order an export inlines them in.
                .embedInCode("format.js"), .embedInCode("style.js"), .embedInCode("geometry.js"),
                .embedInCode("view.js"), .embedInCode("instructions.js"), .embedInCode("money.js"),
                .embedInCode("model.js"),
                .embedInCode("hit-test.js"),
                .embedInCode("labels.js"), .embedInCode("canvas.js"), .embedInCode("bars.js"),
                .embedInCode("badges.js"),
                .embedInCode("overview.js"), .embedInCode("timeline.js"), .embedInCode("dom.js"),
                .embedInCode("panels.js"), .embedInCode("details.js"), .embedInCode("table.js"),
                .embedInCode("diff.js"),
                .embedInCode("input.js"), .embedInCode("main.js"),
            ]),
        // What a recording holds once read: runs, sessions, turns, prices, and how ids and numbers read.
        .target(name: "TraceModel", dependencies: ["TraceStore", "SessionTrace"]),
        // Reading LTTng traces through babeltrace2, live or on disk, and importing them into a store.
        .target(name: "LTTngReader", dependencies: ["TraceModel", "TraceStore", "SessionTrace", "CBabeltrace"]),
        // The analyses: pure functions of a recorded trace (or a store's rows), no I/O beyond reading.
        .target(
            name: "TraceAnalysis", dependencies: ["TraceModel", "TraceStore", "SessionTrace", "Similarity", "Reproducible"]),
        // The latency regression gate: baselines, budgets, the workload comparison, verdicts.
        .target(
            name: "LatencyGate",
            dependencies: ["TraceAnalysis", "TraceModel", "LTTngReader", "TraceStore", "SessionTrace", "Reproducible"]),
        // The exports (JSON Lines, OTLP and its push, Perfetto, the HTML viewer), redacted first.
        .target(
            name: "TraceExport",
            dependencies: [
                "TraceAnalysis", "TraceModel", "TraceStore", "SessionTrace", "Redaction", "CCurl", "Reproducible",
                "WebViewer",
            ]),
        // trace-report's parser, subcommands, help, rendering and output redaction, apart so tests reach them.
        .target(
            name: "TraceReportCLI",
            dependencies: [
                "TraceAnalysis", "TraceModel", "LTTngReader", "LatencyGate", "TraceExport", "TraceStore",
                "SessionTrace", "Redaction", "LTTngRecording", "Reproducible",
            ]),

        // The recording proxy: libmicrohttpd serves the client, libcurl (CCurl) talks to the upstream,
        // and requests are recorded through the middleware's SessionRecorder. In no product.
        .target(
            name: "RecordingProxy",
            dependencies: ["CMicroHTTPD", "CCurl", "ModelSession", "SessionInstrumentation", "SessionTrace", "Similarity"]),

        .executableTarget(name: "trace-report", dependencies: ["TraceReportCLI"]),
        .executableTarget(
            name: "trace-proxy",
            dependencies: ["RecordingProxy", "SessionTrace", "SessionTraceLTTng", "TraceStore", "Redaction"]),
        .executableTarget(
            name: "planner-demo",
            dependencies: [
                "ModelSession", "SessionInstrumentation", "SessionTrace", "SessionTraceLTTng", "TraceStore",
                "Redaction", "LlamaServer", "LTTngRecording",
            ]),
        .executableTarget(
            name: "trace-bench",
            dependencies: [
                "SessionTrace", "SessionTraceLTTng", "TraceStore", "CLTTngUST", "CSQLite", "ModelSession",
                "SessionInstrumentation", "LlamaServer", "Redaction", "LTTngRecording", "TraceModel", "LTTngReader",
                "TraceAnalysis", "TraceExport", "TraceReportCLI", "Reproducible",
            ]),

        .testTarget(
            name: "SessionTraceTests", dependencies: ["SessionTrace", "SessionTraceTesting", "Reproducible", "TestSupport"]),
        .testTarget(
            name: "TraceStoreTests",
            dependencies: ["TraceStore", "SessionTrace", "SessionTraceTesting", "TestSupport", "AllocationCounter"]),
        // Test-only (in no product): a process that records and then exits, is signalled, or
        // writes beside others, for TraceStoreTests to read what reached its store.
        .executableTarget(
            name: "store-sink-helper", dependencies: ["TraceStore", "SessionTrace"], path: "Tests/StoreSinkHelper"),
        // Test-only: counts the heap allocations of a thread, for the sinks' emit paths.
        .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
        .testTarget(
            name: "LTTngTests",
            dependencies: [
                "SessionTraceLTTng", "SessionTrace", "SessionTraceTesting", "LTTngRecording", "TraceModel", "LTTngReader",
                "TraceAnalysis", "TraceReportCLI", "TraceStore", "TestSupport", "AllocationCounter",
            ]),
        .testTarget(name: "RedactionTests", dependencies: ["Redaction", "Reproducible"]),
        // The real model server around a test suite, shared by the suites that need one; a test clock.
        .target(
            name: "TestSupport", dependencies: ["LlamaServer", "SessionTrace", "SessionTraceTesting"],
            path: "Tests/TestSupport"),
        .testTarget(name: "ModelSessionTests", dependencies: ["ModelSession", "LlamaServer", "TestSupport"]),
        .testTarget(
            name: "InstrumentationTests",
            dependencies: [
                "SessionInstrumentation", "ModelSession", "SessionTrace", "SessionTraceTesting", "TraceStore",
                "LlamaServer", "TestSupport", "TraceAnalysis",
            ]),
        // The scenario stores of tracefiles/scenarios: recorded through the real session and middleware
        // with a scripted model server, and the findings each must give. `swift run make-scenarios DIR`.
        .target(
            name: "TraceScenarios",
            dependencies: [
                "ModelSession", "SessionInstrumentation", "SessionTrace", "SessionTraceTesting", "TraceStore", "TraceModel",
                "TraceAnalysis", "Redaction",
            ],
            path: "Tests/ScenarioSupport"),
        .executableTarget(name: "make-scenarios", dependencies: ["TraceScenarios"], path: "Tests/ScenarioGenerator"),
        .testTarget(
            name: "TraceAnalysisTests",
            dependencies: [
                "TraceModel", "LTTngReader", "TraceAnalysis", "TraceExport", "TraceReportCLI", "TraceStore", "SessionTrace",
                "SessionTraceTesting", "TraceScenarios", "TestSupport", "Reproducible", "Similarity",
            ]),
        // Opens trace-report's HTML exports in real headless Chromium (scripts/install-deps.sh installs it).
        .testTarget(
            name: "ViewerTests",
            dependencies: [
                "TraceModel", "TraceAnalysis", "TraceExport", "TraceReportCLI", "TraceStore", "SessionTrace",
                "SessionTraceTesting", "TraceScenarios", "TestSupport", "Reproducible",
            ]),
        .testTarget(
            name: "GateTests",
            dependencies: [
                "TraceModel", "TraceAnalysis", "LatencyGate", "TraceReportCLI", "TraceStore", "SessionTrace",
                "TestSupport", "Reproducible",
            ]),
        // The recording proxy, run as users run it (the built trace-proxy) with curl and the official
        // openai, anthropic and ollama Python SDKs (scripts/proxy-clients.sh), in front of the real llama.cpp
        // server and of a scripted upstream (Tests/ProxyClients) for tool calls and faults.
        .testTarget(
            name: "ProxyTests",
            dependencies: ["TestSupport", "RecordingProxy", "SessionTrace", "SessionInstrumentation", "TraceStore"]),
        // Builds the README's Swift examples as written, in a package that depends on this one by path.
        .testTarget(name: "ReadmeTests"),
    ],
    swiftLanguageModes: [.v6]
)
