/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, well-mixed random number generator, so
/// that a randomised test with a fixed seed replays exactly.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in `range`.
    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }

    /// A whole number in `range`, as a `Double`.
    public mutating func double(_ range: ClosedRange<Int>) -> Double { Double(int(range)) }
}
