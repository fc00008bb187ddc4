/// The one pseudo-random generator of StageSim: SplitMix64 (Steele, Lea, Flood 2014).
///
/// State is a single UInt64 advanced by the golden-ratio gamma `0x9E3779B97F4A7C15`; output is
/// the state passed through the `mix64` finaliser. Streams are split by name: the stream for
/// component `name` starts at `mix64(seed ^ fnv1a64(name))`, so adding a component never shifts
/// another component's draws (ARCHITECTURE: determinism rules, NET-1).
public struct SplitMix64: RandomNumberGenerator, Hashable, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { self.state = seed }

    /// The independent stream for one component, derived from the run's seed and its name.
    public static func stream(seed: UInt64, name: String) -> SplitMix64 {
        SplitMix64(seed: mix64(seed ^ fnv1a64(name)))
    }

    /// A child stream derived from this one's current state and a name; does not advance self.
    public func split(_ name: String) -> SplitMix64 {
        SplitMix64(seed: SplitMix64.mix64(state ^ SplitMix64.fnv1a64(name)))
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return SplitMix64.mix64(state)
    }

    /// A uniform draw in [0, 1) with 53 bits of precision.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// True with the given probability (0 never draws true, 1 always does; both still advance).
    public mutating func chance(_ probability: Double) -> Bool {
        nextUnit() < probability
    }

    /// A uniform integer in `0..<count`; 0 when `count` is 0.
    public mutating func below(_ count: Int) -> Int {
        count <= 0 ? 0 : Int(upTo(UInt64(count - 1)))
    }

    /// A uniform integer in `0..<count`; 0 when `count` is 0.
    public mutating func below(_ count: UInt64) -> UInt64 {
        count == 0 ? 0 : upTo(count - 1)
    }

    /// True `percent` times in a hundred.
    public mutating func percentChance<Percent: BinaryInteger>(_ percent: Percent) -> Bool {
        below(100) < Int(percent)
    }

    /// A uniformly chosen element, or nil for an empty array.
    public mutating func pick<Element>(_ items: [Element]) -> Element? {
        items.isEmpty ? nil : items[below(items.count)]
    }

    /// A uniform integer in `0...upperBound`, by Lemire's multiply-shift (bias below 2^-64 * bound).
    public mutating func upTo(_ upperBound: UInt64) -> UInt64 {
        if upperBound == .max { return next() }
        return next().multipliedFullWidth(by: upperBound + 1).high
    }

    public static func mix64(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
