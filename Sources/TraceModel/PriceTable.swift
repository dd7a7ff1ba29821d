import Foundation
import SessionTrace

/// What tokens cost, per provider and model, read from a file the user gives (`--prices FILE`);
/// nothing is fetched. The format, in `docs/trace-report.md`:
///
/// ```json
/// {"models": [
///   {"provider": "anthropic", "model": "claude-sonnet-4*",
///    "input": 3.00, "cached_input": 0.30, "cache_write": 3.75, "output": 15.00}
/// ]}
/// ```
///
/// Prices are dollars per million tokens. `cached_input` and `cache_write` default to `input`.
/// A `model` ending in `*` matches every model that starts with the rest; an exact name wins over
/// a pattern, a longer pattern over a shorter one. `provider` is compared as recorded; `*` matches any.
public struct PriceTable: Sendable, Hashable {
    /// The prices of one model, in dollars per million tokens.
    public struct Price: Sendable, Hashable {
        public var provider: String
        public var model: String
        public var input: Double
        public var cachedInput: Double
        public var cacheWrite: Double
        public var output: Double
    }

    /// Why a price file could not be used; one sentence.
    public struct LoadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public var path: String
    public var prices: [Price]

    /// The price of `model` of `provider`; nil when the table has none.
    public func price(provider: String, model: String) -> Price? {
        prices.filter { $0.provider == "*" || $0.provider == provider }
            .compactMap { price -> (Int, Price)? in
                if price.model == model { return (Int.max, price) }
                guard price.model.hasSuffix("*"), model.hasPrefix(price.model.dropLast()) else { return nil }
                return (price.model.count, price)
            }
            .max { lhs, rhs in
                lhs.0 != rhs.0 ? lhs.0 < rhs.0 : lhs.1.provider == "*" && rhs.1.provider != "*"
            }?.1
    }

    /// The dollars `request` cost; nil when the table has no price for its model or it reported no
    /// tokens. Input tokens include cached and cache-written ones (as recorded); each part is
    /// charged at its own price.
    public func cost(of request: RequestRecord) -> Double? {
        cost(provider: request.provider, model: request.model, usage: request.usage)
    }

    /// The dollars of `usage` at the price of `model` from `provider`, as ``cost(of:)``.
    public func cost(provider: String, model: String, usage: RequestUsage) -> Double? {
        costParts(provider: provider, model: model, usage: usage).map { $0.prompt + $0.completion }
    }

    /// The dollars of `request`'s prompt (input, cached and cache-written tokens, each at its price)
    /// and of its completion, whose sum is ``cost(of:)``; nil as for ``cost(of:)``.
    public func costParts(of request: RequestRecord) -> (prompt: Double, completion: Double)? {
        costParts(provider: request.provider, model: request.model, usage: request.usage)
    }

    private func costParts(provider: String, model: String, usage: RequestUsage)
        -> (prompt: Double, completion: Double)?
    {
        guard let (price, parts) = priced(provider: provider, model: model, usage: usage) else { return nil }
        let prompt = (parts.input - parts.cached - parts.written) * price.input + parts.cached * price.cachedInput
            + parts.written * price.cacheWrite
        return (prompt / 1e6, Double(usage.outputTokens ?? 0) * price.output / 1e6)
    }

    /// What the server's cache changed in `request`'s cost, in dollars: what its cached tokens
    /// saved against the uncached price, and what writing the cache cost above it; nil as for
    /// ``cost(of:)``.
    public func cacheDollars(of request: RequestRecord) -> (saved: Double, writePremium: Double)? {
        guard let (price, parts) = priced(provider: request.provider, model: request.model, usage: request.usage)
        else { return nil }
        return (parts.cached * (price.input - price.cachedInput) / 1e6,
                parts.written * (price.cacheWrite - price.input) / 1e6)
    }

    /// The price of `model` and the input parts of `usage`, if it reported tokens: input, cached and
    /// cache-written tokens, input never below the other two.
    private func priced(provider: String, model: String, usage: RequestUsage)
        -> (Price, (input: Double, cached: Double, written: Double))?
    {
        guard usage.inputTokens != nil || usage.outputTokens != nil,
            let price = price(provider: provider, model: model)
        else { return nil }
        let cached = Double(usage.cachedInputTokens ?? 0)
        let written = Double(usage.cacheWriteTokens ?? 0)
        return (price, (max(Double(usage.inputTokens ?? 0), cached + written), cached, written))
    }

    /// Reads a price file.
    public static func load(path: String) throws(LoadError) -> PriceTable {
        let name = TerminalText.sanitized(path)
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadError(description: "cannot read the price file \(name)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let models = object["models"] as? [[String: Any]]
        else {
            throw LoadError(description: "\(name) is not a price file: it needs {\"models\": [...]}")
        }
        var prices: [Price] = []
        for (index, entry) in models.enumerated() {
            func number(_ key: String, default fallback: Double? = nil) throws(LoadError) -> Double {
                let value = entry[key].map { $0 as? NSNumber } ?? nil
                guard let value = value.map(\.doubleValue) ?? fallback, value.isFinite, value >= 0, value <= 1e6
                else {
                    throw LoadError(
                        description: "\(name): models[\(index)] needs \(key), dollars per million tokens "
                            + "from 0 to 1000000")
                }
                return value
            }
            guard let provider = entry["provider"] as? String, let model = entry["model"] as? String,
                  !provider.isEmpty, !model.isEmpty
            else {
                throw LoadError(description: "\(name): models[\(index)] needs a provider and a model")
            }
            let input = try number("input")
            prices.append(
                Price(
                    provider: provider, model: model, input: input,
                    cachedInput: try number("cached_input", default: input),
                    cacheWrite: try number("cache_write", default: input), output: try number("output")))
        }
        return PriceTable(path: path, prices: prices)
    }

    /// Dollars for people: `$1,234`, `$1.23`, `$0.0123`, and two significant digits below a cent
    /// (`$0.000047`), so a small amount never reads as zero.
    public static func dollars(_ value: Double?) -> String {
        guard let value, value.isFinite else { return "-" }
        let magnitude = abs(value)
        var digits = magnitude >= 100 ? 0 : magnitude >= 1 ? 2 : 4
        if magnitude > 0, magnitude < 0.01 { digits = min(12, Int((-log10(magnitude)).rounded(.down)) + 2) }
        let text = magnitude >= 1000 ? Format.count(Int64(magnitude.rounded())) : Format.fixed(magnitude, digits)
        return (value < 0 ? "-$" : "$") + text
    }
}
