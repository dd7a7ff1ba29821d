import Synchronization

/// A 32-bit word in memory that is nonzero while a sink records one kind of event: how a
/// ``Tracer`` asks whether to build an event with one load, not a call into the sink
/// (``TraceSink/enabledWord(_:)``). An LTTng tracepoint's state word is one; a sink whose answer
/// never changes gives ``always`` or ``never``.
public struct EnabledWord: @unchecked Sendable {
    @usableFromInline let address: UnsafePointer<Int32>

    /// The word at `address`, which must stay valid and readable for the life of the process,
    /// and which other threads may write at any time (it is read with a relaxed atomic load).
    public init(address: UnsafePointer<Int32>) {
        self.address = address
    }

    /// A word that is always set.
    public static let always = EnabledWord(address: constantWord(1))
    /// A word that is never set.
    public static let never = EnabledWord(address: constantWord(0))

    /// ``always`` when `enabled`, else ``never``: the word of a sink whose answer is fixed.
    public static func constant(_ enabled: Bool) -> EnabledWord { enabled ? always : never }

    /// Whether the word is set now.
    @inlinable @inline(__always)
    public var isSet: Bool {
        UnsafeRawPointer(address).assumingMemoryBound(to: Atomic<Int32>.self).pointee.load(ordering: .relaxed) != 0
    }

    /// Whether this is ``never``, or ``always``: words a multiplex can leave out, or stop at.
    var isNever: Bool { address == Self.never.address }
    var isAlways: Bool { address == Self.always.address }

    private static func constantWord(_ value: Int32) -> UnsafePointer<Int32> {
        let word = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        word.initialize(to: value)
        return UnsafePointer(word)
    }
}
