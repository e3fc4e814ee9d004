/// The candidate closest to a mistyped `word`, when it is close enough to be a likely typo: at
/// most two edits (``editDistance(_:_:)``), and fewer than half the word's characters. The one
/// rule behind every "Did you mean ...?": commands, options, record kinds and record options.
func closestName(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { (name: $0, distance: editDistance($0, word)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2,
        best.distance * 2 < max(word.count, 2)
    else { return nil }
    return best.name
}
