import Simulation

/// Structure-blind damage to a text, as a flaky transport, a bad editor or an attacker would
/// do it: characters flipped, inserted, deleted or repeated, the text cut short, a piece of
/// another syntax spliced in, or a number swapped for a boundary value. Every draw comes from
/// the caller's seeded generator, so an input is reproducible from its seed.
struct TextMutator {
    /// Characters that break parsers: delimiters, quotes, escapes, control and format
    /// characters, a BOM, a surrogate-range look-alike, combining marks, wide characters.
    static let hostileCharacters: [Character] = [
        "{", "}", "[", "]", ":", ",", "\"", "'", "\\", "#", "&", "*", "!", "|", ">", "-", "?", "%", "@", "`",
        "\t", "\n", "\r", "\u{0}", "\u{1}", "\u{1B}", "\u{7F}", "\u{85}", "\u{A0}", "\u{2028}", "\u{FEFF}", "\u{FFFD}",
        "\u{301}", "\u{1F600}", "日", "=", ".", "e", "E", "+", "0", "9",
    ]

    /// Numbers at and past the edges of every integer width and of doubles.
    static let boundaryNumbers: [String] = [
        "0", "-0", "-1", "1e309", "-1e309", "1e-400", "0.5", "-0.5", "NaN", "nan", "inf", "-inf", ".inf",
        "127", "128", "255", "256", "32767", "65535", "65536", "2147483647", "2147483648", "-2147483649",
        "4294967295", "4294967296", "9007199254740993", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "99999999999999999999999999999999", "0x10", "1_000", "1.0e+9999",
    ]

    /// Applies one to three mutations to `text`.
    static func mutate(_ text: String, splices: [String], random: inout SplitMix64) -> String {
        var characters = Array(text)
        for _ in 0...random.below(3) {
            mutateOnce(&characters, splices: splices, random: &random)
        }
        return String(characters)
    }

    private static func mutateOnce(_ characters: inout [Character], splices: [String], random: inout SplitMix64) {
        let position = random.below(characters.count + 1)
        switch random.below(8) {
        case 0 where position < characters.count: characters[position] = random.pick(hostileCharacters) ?? "?"
        case 1: characters.insert(random.pick(hostileCharacters) ?? "?", at: position)
        case 2 where position < characters.count: characters.removeSubrange(position..<min(characters.count, position + 1 + random.below(8)))
        case 3: characters.removeSubrange(position...)
        case 4: characters.insert(contentsOf: random.pick(splices) ?? "", at: position)
        case 5: replaceNumber(&characters, near: position, random: &random)
        case 6 where position < characters.count:
            let end = min(characters.count, position + 1 + random.below(40))
            let piece = characters[position..<end]
            characters.insert(contentsOf: Array(repeating: piece, count: 1 + random.below(3)).joined(), at: end)
        default: characters.insert(contentsOf: String(repeating: random.pick(["[", "{", "- ", "  ", "{\"a\":"]) ?? "[", count: 1 + random.below(80)), at: position)
        }
    }

    /// Replaces the run of digits at or after `position` with a boundary number.
    private static func replaceNumber(_ characters: inout [Character], near position: Int, random: inout SplitMix64) {
        guard let start = characters[min(position, characters.count)...].firstIndex(where: \.isNumber) ?? characters.firstIndex(where: \.isNumber) else {
            characters.insert(contentsOf: random.pick(boundaryNumbers) ?? "0", at: position)
            return
        }
        let end = characters[start...].firstIndex { !$0.isNumber && $0 != "." && $0 != "-" } ?? characters.endIndex
        characters.replaceSubrange(start..<end, with: random.pick(boundaryNumbers) ?? "0")
    }
}
