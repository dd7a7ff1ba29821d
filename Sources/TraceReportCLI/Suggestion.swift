/// The known word a mistyped one most likely meant, for "did you mean" in usage errors.
enum Suggestion {
    /// The candidate nearest to `word` by edit distance, when it is near enough to be a typo: at
    /// most a third of the word's length (at least 1, at most 3) edits away, or `word` a prefix of
    /// it; nil otherwise, or when two candidates are equally near.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let typed = Array(word.lowercased().utf8.prefix(64))
        guard !typed.isEmpty else { return nil }
        let limit = min(3, max(1, typed.count / 3))
        var best: (candidate: String, distance: Int)?
        var tied = false
        for candidate in candidates {
            let known = Array(candidate.lowercased().utf8)
            let distance = known.starts(with: typed) && typed.count >= 3 ? 0 : editDistance(typed, known)
            guard distance <= limit else { continue }
            if let current = best, current.distance == distance {
                tied = tied || current.candidate != candidate
            } else if best == nil || distance < best!.distance {
                best = (candidate, distance)
                tied = false
            }
        }
        return tied ? nil : best?.candidate
    }

    /// `; did you mean 'summary'?`, or nothing.
    static func clause(for word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit (`sumamry`).
    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
