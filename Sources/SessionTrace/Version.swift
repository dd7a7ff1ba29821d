/// The version of SessionTrace, recorded in every run and store.
public let sessionTraceVersion = "0.1.0"
