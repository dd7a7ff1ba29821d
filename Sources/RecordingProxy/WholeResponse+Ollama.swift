import Foundation
import ModelSession

extension WholeResponse {
    /// An Ollama answer that was not streamed (`"stream": false`): one object, as the stream's
    /// `"done": true` line, holding the whole message. Read by the stream's own assembler, so that
    /// its counts, durations and call ids are the stream's; nil when that finds it malformed.
    static func ollama(_ body: String, url: URL, callsBefore: Int) -> WholeResponse? {
        var assembler = OllamaStreamAssembler(url: url, firstCallOrdinal: callsBefore)
        guard let events = try? assembler.consume(ServerSentEvent(data: body)) + assembler.finish() else {
            return nil
        }
        var response = WholeResponse(id: nil, model: assembler.responseModel)
        for event in events {
            switch event {
            case .contentDelta(let text): response.text += text
            case .reasoningDelta(let text): response.reasoning += text
            case .toolCall(let call): response.toolCalls.append(call)
            case .usage(let usage): response.usage = usage
            case .serverTimings(let timings): response.timings = timings
            case .finished(let reason): response.finishReason = reason
            default: break
            }
        }
        return response
    }
}
