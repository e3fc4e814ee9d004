/// The candidate closest to a mistyped `word`, when it is close enough to be a likely typo: at
/// most two edits (``editDistance(_:_:)``), and fewer than half the word's characters. The one
/// rule behind every "Did you mean ...?": commands, options, record kinds and record options.
package func closestName(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { (name: $0, distance: editDistance($0, word)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2,
        best.distance * 2 < max(word.count, 2)
    else { return nil }
    return best.name
}

/// The Damerau-Levenshtein distance between two strings, by characters, in its optimal string
/// alignment form: insertions, deletions, substitutions and transpositions of neighbours each
/// count one (`wrtie` is one edit from `write`).
package func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let left = Array(lhs)
    let right = Array(rhs)
    guard !left.isEmpty else { return right.count }
    guard !right.isEmpty else { return left.count }
    var older = Array(repeating: 0, count: right.count + 1)
    var previous = Array(0...right.count)
    var current = previous
    for i in 1...left.count {
        current[0] = i
        for j in 1...right.count {
            let substitution = previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1)
            current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            if i > 1, j > 1, left[i - 1] == right[j - 2], left[i - 2] == right[j - 1] {
                current[j] = min(current[j], older[j - 2] + 1)
            }
        }
        (older, previous, current) = (previous, current, older)
    }
    return previous[right.count]
}
