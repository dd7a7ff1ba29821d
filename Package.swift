// swift-tools-version: 6.0
import PackageDescription

// Layers (arrows point at what a target uses):
//   trace-report -> TraceAnalysis -> TraceStore -> SessionTrace
//   TraceAnalysis -> WebViewer (viewer/: the web viewer's files, embedded in the binary)
//   planner-demo -> SessionInstrumentation -> ModelSession, SessionTrace
//   sinks that need a system library (SessionTraceLTTng, TraceStore's StoreSink) live apart
//   from the tracer API, which knows nothing of LTTng, SQLite or models.
// Linux only: the sources call Glibc and link LTTng-UST, SQLite, babeltrace2 and libcurl, so no Apple
// platform is claimed.
let package = Package(
    name: "SessionTrace",
    products: [
        .library(name: "SessionTrace", targets: ["SessionTrace"]),
        .library(name: "SessionTraceLTTng", targets: ["SessionTraceLTTng"]),
        .library(name: "TraceStore", targets: ["TraceStore"]),
        .library(name: "ModelSession", targets: ["ModelSession"]),
        .library(name: "SessionInstrumentation", targets: ["SessionInstrumentation"]),
        .library(name: "TraceAnalysis", targets: ["TraceAnalysis"]),
        .library(name: "Redaction", targets: ["Redaction"]),
        .executable(name: "trace-report", targets: ["trace-report"]),
        .executable(name: "planner-demo", targets: ["planner-demo"]),
        .executable(name: "trace-bench", targets: ["trace-bench"]),
    ],
    targets: [
        // C shims: tiny, plain functions, no macros visible to Swift.
        .target(name: "CLTTngUST", linkerSettings: [.linkedLibrary("lttng-ust"), .linkedLibrary("dl")]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("curl")]),
        .target(name: "CBabeltrace", linkerSettings: [.linkedLibrary("babeltrace2")]),

        .target(name: "SessionTrace"),
        .target(name: "SessionTraceLTTng", dependencies: ["SessionTrace", "CLTTngUST"]),
        .target(name: "TraceStore", dependencies: ["SessionTrace", "CSQLite"]),
        .target(name: "Redaction"),
        .target(name: "ModelSession", dependencies: ["CCurl"]),
        // Starts and stops a real llama.cpp server on a loopback port, for tests, demo and bench.
        .target(name: "LlamaServer", dependencies: ["CCurl"]),
        .target(name: "SessionInstrumentation", dependencies: ["ModelSession", "SessionTrace"]),
        // Drives lttng, lttng-sessiond and lttng-relayd: for trace-report record, tests and bench.
        .target(name: "LTTngRecording"),
        // viewer/ is the web viewer's one copy; its files are compiled in as bytes.
        .target(
            name: "WebViewer", path: "viewer",
            resources: [.embedInCode("index.html"), .embedInCode("viewer.css"), .embedInCode("viewer.js")]),
        .target(
            name: "TraceAnalysis",
            dependencies: [
                "TraceStore", "SessionTrace", "Redaction", "CBabeltrace", "LTTngRecording", "CCurl", "WebViewer",
            ]),

        .executableTarget(name: "trace-report", dependencies: ["TraceAnalysis"]),
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
                "SessionInstrumentation", "LlamaServer", "Redaction", "LTTngRecording", "TraceAnalysis",
            ]),

        .testTarget(name: "SessionTraceTests", dependencies: ["SessionTrace"]),
        .testTarget(name: "TraceStoreTests", dependencies: ["TraceStore", "SessionTrace"]),
        // Test-only (in no product): a process that records and then exits, is signalled, or
        // writes beside others, for TraceStoreTests to read what reached its store.
        .executableTarget(
            name: "store-sink-helper", dependencies: ["TraceStore", "SessionTrace"], path: "Tests/StoreSinkHelper"),
        .testTarget(
            name: "LTTngTests",
            dependencies: [
                "SessionTraceLTTng", "SessionTrace", "LTTngRecording", "TraceAnalysis", "TraceStore", "TestSupport",
            ]),
        .testTarget(name: "RedactionTests", dependencies: ["Redaction"]),
        // The real model server around a test suite, shared by the suites that need one.
        .target(name: "TestSupport", dependencies: ["LlamaServer"], path: "Tests/TestSupport"),
        .testTarget(name: "ModelSessionTests", dependencies: ["ModelSession", "LlamaServer", "TestSupport"]),
        .testTarget(
            name: "InstrumentationTests",
            dependencies: [
                "SessionInstrumentation", "ModelSession", "SessionTrace", "TraceStore", "LlamaServer", "TestSupport",
            ]),
        // The scenario stores of tracefiles/scenarios: recorded through the real session and middleware
        // with a scripted model server, and the findings each must give. `swift run make-scenarios DIR`.
        .target(
            name: "TraceScenarios",
            dependencies: [
                "ModelSession", "SessionInstrumentation", "SessionTrace", "TraceStore", "TraceAnalysis", "Redaction",
            ],
            path: "Tests/ScenarioSupport"),
        .executableTarget(name: "make-scenarios", dependencies: ["TraceScenarios"], path: "Tests/ScenarioGenerator"),
        .testTarget(
            name: "TraceAnalysisTests",
            dependencies: ["TraceAnalysis", "TraceStore", "SessionTrace", "TraceScenarios"]),
        // Opens trace-report's HTML exports in real headless Chromium (scripts/install-deps.sh installs it).
        .testTarget(
            name: "ViewerTests", dependencies: ["TraceAnalysis", "TraceStore", "SessionTrace", "TraceScenarios"]),
        .testTarget(name: "GateTests", dependencies: ["TraceAnalysis", "TraceStore", "SessionTrace"]),
        // Builds the README's Swift examples as written, in a package that depends on this one by path.
        .testTarget(name: "ReadmeTests"),
    ],
    swiftLanguageModes: [.v6]
)
