import Foundation
import SessionTrace
import TraceStore

/// A baseline file as `trace-report baseline` writes it (``LatencyBaseline/json``), decoded: one
/// `Decodable` type per level, each value checked against the range of what it measures as it is
/// read, so a file that decodes is one the gate can judge with.
///
/// Only reading goes through `Decodable`: writing goes through ``LatencyBaseline/json``, as every
/// JSON output does, so that it passes the same redaction and keeps its keys in a fixed order.
struct BaselineFile: Decodable {
    var kind: String?
    var version: Int64?
    var groupBy: String?
    var groups: [Group]?

    enum CodingKeys: String, CodingKey { case kind, version, groupBy = "group_by", groups }

    /// One scenario, profile and model: its runs' samples, aligned per request. The `summary` a
    /// file carries is for people reading it and is recomputed, never read.
    struct Group: Decodable {
        var scenario: String
        var profile: String
        var model: String
        var runs: [Run]
        var repeatedCalls: [RepeatedCall]?

        enum CodingKeys: String, CodingKey {
            case scenario, profile, model, runs, repeatedCalls = "repeated_tool_calls"
        }

        /// The group's samples, thinned to ``LatencyBaseline/sampleCap`` as `baseline` writes
        /// them: a hand-made file of longer runs costs its reading, not a bootstrap over all of it.
        var samples: ScenarioSamples {
            ScenarioSamples(
                key: ScenarioKey(scenario: scenario, profile: profile, model: model),
                runs: LatencyBaseline.capped(runs.map(\.samples)), repeatedCalls: (repeatedCalls ?? []).sorted())
        }
    }

    /// One run: a column per figure, one value per request. Columns added after version 1 was
    /// first written may be absent, and read as unknown.
    struct Run: Decodable {
        var samples: ScenarioSamples.Run

        init(from decoder: any Decoder) throws {
            let columns = try decoder.container(keyedBy: AnyKey.self)
            guard let latencies = try columns.decodeIfPresent([Sample<Int64>].self, forKey: AnyKey("latency_ns"))
            else { throw BaselineFile.refusal(decoder.codingPath, "has no latency_ns") }
            func column<Value: BaselineNumber>(_ name: String, _ range: ClosedRange<Value>) throws -> [Value?] {
                let key = AnyKey(name)
                guard let values = try columns.decodeIfPresent([Sample<Value>].self, forKey: key) else {
                    return Array(repeating: nil, count: latencies.count)
                }
                guard values.count == latencies.count else {
                    throw BaselineFile.refusal(decoder.codingPath + [key], "is not aligned with latency_ns")
                }
                for (index, value) in values.enumerated() {
                    if let number = value.value, !range.contains(number) {
                        throw BaselineFile.refusal(
                            decoder.codingPath + [key, AnyKey(index: index)], "holds \(number), outside \(Value.describe(range))")
                    }
                }
                return values.map(\.value)
            }
            let latency = try column("latency_ns", PlausibleRange.duration)
            let ttft = try column("ttft_ns", PlausibleRange.duration)
            let rate = try column("tokens_per_second", 0...Double.greatestFiniteMagnitude)
            let tools = try column("tool_calls", PlausibleRange.count)
            var usage = Array(repeating: RequestUsage(), count: latencies.count)
            for count in RequestUsage.counts {
                let path: WritableKeyPath<RequestUsage, Int64?> = count.path
                let values: [Int64?] = try column(count.column, PlausibleRange.count)
                for (row, value) in values.enumerated() { usage[row][keyPath: path] = value }
            }
            let caps = try column("max_tokens", PlausibleRange.count)
            let temperatures = try column("temperature", 0...Double.greatestFiniteMagnitude)
            let earlier = try column("earlier_output_tokens", PlausibleRange.count)
            // Times are scaled by these speeds: 0 would scale them to 0, and pass anything.
            let nearby = try column("nearby_server_ns_per_token", 1...PlausibleRange.duration.upperBound)
            let providers = try columns.decodeIfPresent([String?].self, forKey: AnyKey("provider"))
            guard providers == nil || providers?.count == latencies.count else {
                throw BaselineFile.refusal(decoder.codingPath + [AnyKey("provider")], "is not aligned with latency_ns")
            }
            var requests: [RequestSample] = []
            requests.reserveCapacity(latencies.count)
            for row in latency.indices {
                guard let latency = latency[row] else {
                    throw BaselineFile.refusal(decoder.codingPath + [AnyKey("latency_ns"), AnyKey(index: row)], "is null")
                }
                requests.append(RequestSample(
                    ttft: ttft[row], latency: latency, tokensPerSecond: rate[row], toolCalls: tools[row] ?? 0,
                    usage: usage[row], provider: providers?[row], maxTokens: caps[row], temperature: temperatures[row],
                    earlierOutputTokens: earlier[row], nearbyServerNanosPerToken: nearby[row].map(Double.init)))
            }
            let runID = try columns.decodeIfPresent(Identifier.self, forKey: AnyKey("run_id"))?.value
            let speed = try columns.decodeIfPresent(Sample<Double>.self, forKey: AnyKey("server_ns_per_token"))?.value
            // Every time is scaled by the baseline's speed: 0 would scale them all to 0, and pass anything.
            if let speed, !(speed > 0 && speed <= Double(PlausibleRange.duration.upperBound)) {
                throw BaselineFile.refusal(
                    decoder.codingPath + [AnyKey("server_ns_per_token")],
                    "holds \(speed), but a machine's speed is above 0 and at most "
                        + "\(PlausibleRange.duration.upperBound) ns a generated token")
            }
            samples = ScenarioSamples.Run(runID: runID ?? 0, requests: requests, serverNanosPerToken: speed)
        }
    }

    /// Why a file that is JSON is no baseline; `reason` is one clause, naming where.
    struct Refusal: Error { var reason: String }

    static func refusal(_ path: [any CodingKey], _ what: String) -> Refusal {
        Refusal(reason: "\(place(path)) \(what)")
    }

    /// Where in the file `path` points, as a reader finds it: `ttft_ns of group 1, run 2, value 3`.
    static func place(_ path: [any CodingKey]) -> String {
        var name = "the file"
        var positions: [String] = []
        var level = 0
        for key in path {
            if let index = key.intValue {
                positions.append("\(["group", "run", "value"][min(level, 2)]) \(index + 1)")
                level += 1
            } else if key.stringValue != "groups" && key.stringValue != "runs" {
                name = key.stringValue
            }
        }
        return positions.isEmpty ? name : "\(name) of \(positions.joined(separator: ", "))"
    }
}

/// A number of a baseline file, or null: a whole number for integer columns (a fraction, or one
/// past Int64, refuses the file), any finite number for real ones.
struct Sample<Value: BaselineNumber>: Decodable {
    var value: Value?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { return }
        guard let number = try? container.decode(Double.self) else {
            throw BaselineFile.refusal(decoder.codingPath, "holds a value that is not a number")
        }
        guard let value = (try? container.decode(Value.self)) ?? Value(exactly: number) else {
            throw BaselineFile.refusal(decoder.codingPath, "holds \(number), which is not a whole number in range")
        }
        self.value = value
    }
}

/// A 64-bit id, written as a string of digits (as every id of JSON output version 2 is), or as a
/// number by baselines written before.
struct Identifier: Decodable {
    var value: Int64?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            guard let value = Int64(text) else {
                throw BaselineFile.refusal(decoder.codingPath, "holds '\(text.prefix(40))', which is not an id")
            }
            self.value = value
        } else {
            value = try Sample<Int64>(from: decoder).value
        }
    }
}

/// The kinds of number a baseline holds.
protocol BaselineNumber: Decodable, Comparable {
    init?(exactly: Double)
    /// `range` in words, for a refusal.
    static func describe(_ range: ClosedRange<Self>) -> String
}

extension Int64: BaselineNumber {
    static func describe(_ range: ClosedRange<Int64>) -> String { PlausibleRange.describe(range) }
}

extension Double: BaselineNumber {
    static func describe(_ range: ClosedRange<Double>) -> String { "\(range.lowerBound) to \(range.upperBound)" }
}

/// A key read by name or by position.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(_ name: String) { stringValue = name }
    init(index: Int) {
        stringValue = "\(index)"
        intValue = index
    }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { self.init(index: intValue) }
}

extension RepeatedCall: Decodable {
    private enum CodingKeys: String, CodingKey { case kind, session, tool }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(String.self, forKey: .kind), session: try container.decode(String.self, forKey: .session),
            tool: try container.decode(String.self, forKey: .tool))
    }
}

extension LatencyBaseline {
    /// Reads a baseline file written by ``write(path:)``.
    public static func read(path: String) throws(LoadError) -> LatencyBaseline {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "it is not a readable file" : "it does not exist"
            throw .unreadable(path: path, reason: reason)
        }
        let file: BaselineFile
        do {
            file = try JSONDecoder().decode(BaselineFile.self, from: data)
        } catch let refusal as BaselineFile.Refusal {
            throw .notABaseline(path: path, reason: refusal.reason)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw .notABaseline(path: path, reason: BaselineFile.place(context.codingPath) + " holds a value of the wrong type")
        } catch DecodingError.keyNotFound(let key, let context) {
            throw .notABaseline(path: path, reason: BaselineFile.place(context.codingPath) + " lacks \(key.stringValue)")
        } catch {
            throw .notABaseline(path: path, reason: "it is not valid JSON")
        }
        guard file.kind == formatKind else { throw .notABaseline(path: path, reason: "no \"kind\": \"\(formatKind)\"") }
        guard let version = file.version else { throw .notABaseline(path: path, reason: "no version") }
        guard version <= formatVersion else { throw .newerVersion(path: path, version: version) }
        guard let grouping = file.groupBy.flatMap(ScenarioGrouping.init(rawValue:)) else {
            throw .notABaseline(path: path, reason: "group_by is not label or interval")
        }
        guard let groups = file.groups else { throw .notABaseline(path: path, reason: "no groups array") }
        return LatencyBaseline(
            grouping: grouping, sources: [path], groups: groups.map(\.samples).sorted { $0.key < $1.key })
    }
}
