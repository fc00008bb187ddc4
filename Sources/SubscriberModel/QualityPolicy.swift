/// The thresholds of the Media Router's quality fallback (SUB-5 `qualityChanged`, SUB-6).
/// The SDKs document none of these numbers: every field is *(assumed)* and configurable.
///
/// A link sample is *degraded* when its bandwidth cannot carry the stream's lowest video layer
/// (`bandwidth < lowest × degradeBandwidthFactor`) or its loss exceeds `degradeLossRatio`.
/// It is *recovered* only above the stricter hysteresis thresholds
/// (`bandwidth ≥ lowest × recoverBandwidthFactor` and `loss ≤ recoverLossRatio`); a sample in
/// between changes nothing.
/// - A degraded sample in the good state sends `subscriberVideoDisableWarning`.
/// - A degraded sample at least `disableAfterNanoseconds` after the warning began sends
///   `subscriberVideoDisabled(qualityChanged)`.
/// - A recovered sample while only warned lifts the warning at once.
/// - While disabled, recovered samples for `enableAfterNanoseconds` (every sample in that
///   window recovered) send `subscriberVideoEnabled(qualityChanged)`.
public struct QualityPolicy: Sendable, Hashable {
    /// Loss ratio above which a sample is degraded. Default 0.10 *(assumed)*.
    public var degradeLossRatio: Double
    /// Loss ratio at or below which a sample may count as recovered. Default 0.03 *(assumed)*.
    public var recoverLossRatio: Double
    /// Degraded when bandwidth < lowest layer bitrate × this. Default 1.0 *(assumed)*.
    public var degradeBandwidthFactor: Double
    /// Recovered needs bandwidth ≥ lowest layer bitrate × this. Default 1.5 *(assumed)*.
    public var recoverBandwidthFactor: Double
    /// How long degradation must persist after the warning before video is disabled.
    /// Default 3 s *(assumed)*.
    public var disableAfterNanoseconds: UInt64
    /// How long recovery must hold before quality-disabled video resumes. Default 2 s *(assumed)*.
    public var enableAfterNanoseconds: UInt64
    /// Bitrate of the lowest video layer for a stream that declares no layers.
    /// Default 150 kbit/s *(assumed)*.
    public var minimumVideoBitsPerSecond: UInt64

    public init(
        degradeLossRatio: Double = 0.10,
        recoverLossRatio: Double = 0.03,
        degradeBandwidthFactor: Double = 1.0,
        recoverBandwidthFactor: Double = 1.5,
        disableAfterNanoseconds: UInt64 = 3_000_000_000,
        enableAfterNanoseconds: UInt64 = 2_000_000_000,
        minimumVideoBitsPerSecond: UInt64 = 150_000
    ) {
        self.degradeLossRatio = degradeLossRatio
        self.recoverLossRatio = recoverLossRatio
        self.degradeBandwidthFactor = degradeBandwidthFactor
        self.recoverBandwidthFactor = recoverBandwidthFactor
        self.disableAfterNanoseconds = disableAfterNanoseconds
        self.enableAfterNanoseconds = enableAfterNanoseconds
        self.minimumVideoBitsPerSecond = minimumVideoBitsPerSecond
    }

    /// The assumed defaults listed above.
    public static let `default` = QualityPolicy()

    /// How a link sample is classified against this policy.
    public enum Verdict: Sendable, Hashable { case degraded, between, recovered }

    /// Classifies one link sample for a stream whose lowest layer needs `lowestBitsPerSecond`.
    /// NaN loss never counts as recovered or degraded by loss.
    public func classify(bandwidthBitsPerSecond: UInt64, lossRatio: Double, lowestBitsPerSecond: UInt64) -> Verdict {
        let bandwidth = Double(bandwidthBitsPerSecond)
        let lowest = Double(lowestBitsPerSecond)
        if bandwidth < lowest * degradeBandwidthFactor || lossRatio > degradeLossRatio {
            return .degraded
        }
        if bandwidth >= lowest * recoverBandwidthFactor && lossRatio <= recoverLossRatio {
            return .recovered
        }
        return .between
    }
}
