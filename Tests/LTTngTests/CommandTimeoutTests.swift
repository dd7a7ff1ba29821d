import Foundation
import Testing

@testable import LTTngRecording

/// A control command that does not finish is killed and reported, never waited on for ever (as
/// `lttng destroy` once hung CI).
@Suite("LTTng control commands")
struct CommandTimeoutTests {
    @Test("a command still running after its timeout is killed and named")
    func aStuckCommandIsKilledAndReported() throws {
        let start = ContinuousClock.now
        #expect {
            try LTTngControl.run("sleep", ["30"], timeout: .milliseconds(300))
        } throws: { error in
            guard case LTTngControl.Error.commandTimedOut(let command, _)? = error as? LTTngControl.Error else {
                return false
            }
            return command == "sleep 30"
        }
        #expect(ContinuousClock.now - start < .seconds(10))
    }

    @Test("a command that finishes in time gives its status and output")
    func aQuickCommandRuns() throws {
        let result = try LTTngControl.run("echo", ["ready"], timeout: .seconds(30))
        #expect(result.status == 0 && result.stdout == "ready\n")
    }
}
