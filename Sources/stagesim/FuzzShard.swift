/// `--shard K/N`: shard K (1-based, 1...N) of N processes that split one fuzz seed range.
///
/// Seeds are dealt round-robin: the seed at offset `j` of the range (`j = seed - from`) goes to
/// shard `j mod N + 1`. The N slices are disjoint, their union is the range, and their sizes
/// differ by at most one. Seeds' costs are drawn independently, so contiguous blocks would
/// balance as well on average; round-robin is chosen because a `--time` or `--max-failures`
/// limit then stops every shard at the same depth into the range instead of leaving the end of
/// each block unrun.
struct FuzzShard: Sendable, Equatable, CustomStringConvertible {
    /// This shard, 1...count.
    let index: Int
    /// How many shards split the range.
    let count: Int

    static let maxCount = 1_000_000
    /// The whole range as one shard.
    static let whole = FuzzShard(index: 1, count: 1)

    var description: String { "\(index)/\(count)" }

    /// The transform of `--shard`: `K/N` with 1 <= K <= N <= 1,000,000.
    @Sendable static func parse(_ text: String) throws -> FuzzShard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
            (1...maxCount).contains(count), (1...count).contains(index)
        else {
            throw OutOfRange(description: "expected K/N, shard K of N, with 1 <= K <= N <= \(maxCount) (shards count from 1)")
        }
        return FuzzShard(index: index, count: count)
    }

    /// This shard's seeds of the `seeds` seeds from `first` (none when `seeds` < K; the range
    /// must end at `UInt64.max` or before, as `fuzz` checks).
    func slice(first: UInt64, seeds: Int) -> SeedSlice {
        let skipped = index - 1
        guard seeds > skipped else { return SeedSlice(first: first, stride: UInt64(count), count: 0) }
        return SeedSlice(first: first + UInt64(skipped), stride: UInt64(count), count: (seeds - skipped + count - 1) / count)
    }
}

/// Seeds `first`, `first + stride`, ... (`count` of them): what one fuzz campaign runs.
struct SeedSlice: Sendable, Equatable {
    let first: UInt64
    let stride: UInt64
    let count: Int

    /// The `position`-th seed (0-based, below `count`).
    func seed(at position: Int) -> UInt64 { first + stride * UInt64(position) }

    /// Every seed, in order (for tests and small slices).
    var all: [UInt64] { (0..<count).map(seed(at:)) }
}
