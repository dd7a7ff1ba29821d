import Reproducible

/// A sketch of a tool call's arguments, recorded without their text, from which the near-duplicate
/// rule (`docs/trace-report.md#near-duplicate-arguments`) can still judge two calls of one tool.
///
/// The arguments are read as ``ArgumentText`` reads them and turned into **terms**, each a 32-bit
/// hash (FNV-1a, mixed); the sketch is the least 32 distinct terms, ascending (a bottom-k MinHash). Most arguments
/// have fewer than 32 terms, and then the sketch holds every one and the rule is applied exactly.
/// The terms:
///
/// - an **entity field** (a field whose name names an entity, a value shaped like an identifier, a
///   number, a redacted value): one term of 13 bits of its path's hash and 16 bits of its value's
///   hash, with a bit saying whether a side that lacks the field asks something else (a number, or
///   a pagination field such as `page` or `cursor`);
/// - an **entity word** of free text (with a digit, or capitalized past the first word): 30 bits
///   of its hash;
/// - a **content word** of free text (lowercased, a plural `s` dropped, stop words left out): 31
///   bits of its hash.
///
/// Booleans and nulls give no term. Entity fields have the least values, so a long text's words
/// are what a full sketch leaves out.
///
/// **What a sketch reveals.** No text is kept, but a term is a short hash of a word or value:
/// whoever can guess a word (from a dictionary) can test whether an argument held it, and a
/// field's 16-bit value hash confirms a guessed low-entropy value such as a city. A value that
/// cannot be guessed, such as a secret or a random id, cannot be read back from 16 bits.
package enum ArgumentSketch {
    /// The most terms a sketch keeps.
    package static let size = 32

    /// The sketch of an argument text (JSON, or any text as one field).
    package static func of(_ arguments: String) -> [UInt32] {
        let fields = ArgumentText.Fields(arguments)
        var terms = Set<UInt32>()
        for path in fields.paths {
            switch fields.values[path]! {
            case .text(let text)
            where ArgumentText.isEntityField(path) || text.looksLikeIdentifier || text.isRedacted:
                terms.insert(
                    Term.field(
                        path, value: text.isRedacted ? nil : text.normalized,
                        absenceDiffers: ArgumentText.isPaginationField(path)))
            case .text(let text):
                for word in text.words {
                    terms.insert(word.isEntity ? Term.entityWord(word.content) : Term.contentWord(word.content))
                }
            case .number(let number):
                terms.insert(Term.field(path, value: number, absenceDiffers: true))
            case .flag, .null:
                continue
            }
        }
        return Array(terms.sorted().prefix(size))
    }

    /// How alike two calls' arguments are by the near-duplicate rule, from their sketches: 1 when
    /// they agree in every term, the share of content words (`|A ∩ B| / min(|A|, |B|)`) when that
    /// reaches `threshold` and no entity differs, and nil when they ask different things.
    ///
    /// A full sketch holds only its least terms, so both are compared below the smaller of their
    /// largest terms: there each sketch holds every term of its arguments.
    package static func similarity(_ first: [UInt32], _ second: [UInt32], threshold: Double) -> Double? {
        var cutoff = UInt32.max
        for sketch in [first, second] where sketch.count >= size { cutoff = min(cutoff, sketch.last!) }
        let (left, right) = (Terms(first, below: cutoff), Terms(second, below: cutoff))
        for key in Set(left.fields.keys).union(right.fields.keys) {
            switch (left.fields[key], right.fields[key]) {
            case let (a?, b?):
                if a != b || a == Term.redacted { return nil }
            default:
                // A field one side lacks: an added filter, unless its absence is another page or number.
                if key & Term.absenceDiffers != 0 { return nil }
            }
        }
        guard left.entityWords == right.entityWords else { return nil }
        if left.contentWords == right.contentWords { return 1 }
        guard !left.contentWords.isEmpty, !right.contentWords.isEmpty else { return nil }
        let shared = left.contentWords.intersection(right.contentWords).count
        let share = Double(shared) / Double(min(left.contentWords.count, right.contentWords.count))
        return share >= threshold ? share : nil
    }

    /// The layout of a term's 32 bits.
    enum Term {
        /// Entity fields: top two bits `00`, then this bit, 13 bits of the path, 16 of the value.
        static let absenceDiffers: UInt32 = 1 << 29
        /// Entity words: top two bits `01`.
        static let entityWordTag: UInt32 = 1 << 30
        /// Content words: top bit `1`.
        static let contentWordTag: UInt32 = 1 << 31
        /// The value bits of a redacted value, which is never equal to another.
        static let redacted: UInt32 = 0

        static func field(_ path: String, value: String?, absenceDiffers: Bool) -> UInt32 {
            let pathBits = UInt32(truncatingIfNeeded: hash(path) >> 51) << 16
            let valueBits = value.map { max(1, UInt32(truncatingIfNeeded: hash($0) >> 48)) } ?? redacted
            return (absenceDiffers ? Term.absenceDiffers : 0) | pathBits | valueBits
        }

        static func entityWord(_ word: String) -> UInt32 {
            entityWordTag | UInt32(truncatingIfNeeded: hash(word) >> 34)
        }

        static func contentWord(_ word: String) -> UInt32 {
            contentWordTag | UInt32(truncatingIfNeeded: hash(word) >> 33)
        }

        /// FNV-1a with MurmurHash3's finalizer, so every bit of the few taken depends on every
        /// byte: FNV-1a's high bits barely change between short texts such as `1` and `2`.
        static func hash(_ text: String) -> UInt64 {
            var bits = FNV1a.hash(text)
            bits ^= bits >> 33
            bits &*= 0xff51_afd7_ed55_8ccd
            bits ^= bits >> 33
            bits &*= 0xc4ce_b9fe_1a85_ec53
            return bits ^ (bits >> 33)
        }
    }

    /// A sketch's terms below a cutoff, by kind: entity fields as their key bits and value bits.
    private struct Terms {
        var fields: [UInt32: UInt32] = [:]
        var entityWords: Set<UInt32> = []
        var contentWords: Set<UInt32> = []

        init(_ sketch: [UInt32], below cutoff: UInt32) {
            for term in sketch where term <= cutoff {
                if term & Term.contentWordTag != 0 {
                    contentWords.insert(term)
                } else if term & Term.entityWordTag != 0 {
                    entityWords.insert(term)
                } else {
                    fields[term & 0xFFFF_0000] = term & 0xFFFF
                }
            }
        }
    }
}
