/// The Media Router's quality-fallback state for one subscription (SUB-5 `qualityChanged`,
/// SUB-6): good → warned → disabled, with hysteresis back, driven by classified link samples
/// and `QualityPolicy`. It only decides; `SubscriberState` decides whether it runs at all
/// (routed mode, publisher `audioFallbackEnabled`).
public struct QualityFallback: Sendable, Hashable {
    public enum Stage: Sendable, Hashable {
        /// Video flows and no warning is outstanding.
        case good
        /// `subscriberVideoDisableWarning` was sent at `since`.
        case warned(since: UInt64)
        /// Video is disabled for quality; `recoveringSince` is the start of the current run
        /// of recovered samples, if any.
        case disabled(recoveringSince: UInt64?)
    }

    public private(set) var stage: Stage = .good

    public init() {}

    public var isDisabled: Bool {
        if case .disabled = stage { return true }
        return false
    }

    public var isWarned: Bool {
        if case .warned = stage { return true }
        return false
    }

    /// Feeds one classified sample taken at `at`; returns the events it causes, in order.
    public mutating func sample(_ verdict: QualityPolicy.Verdict, at: UInt64, policy: QualityPolicy) -> [SubscriberEvent] {
        switch (stage, verdict) {
        case (.good, .degraded):
            stage = .warned(since: at)
            return [.subscriberVideoDisableWarning]
        case (.good, _):
            return []
        case (.warned(let since), .degraded):
            guard at >= since, at - since >= policy.disableAfterNanoseconds else { return [] }
            stage = .disabled(recoveringSince: nil)
            return [.subscriberVideoDisabled(reason: .qualityChanged)]
        case (.warned, .recovered):
            stage = .good
            return [.subscriberVideoDisableWarningLifted]
        case (.warned, .between):
            return []
        case (.disabled, .degraded), (.disabled, .between):
            stage = .disabled(recoveringSince: nil)
            return []
        case (.disabled(let recoveringSince), .recovered):
            let start = recoveringSince ?? at
            if at >= start, at - start >= policy.enableAfterNanoseconds {
                stage = .good
                return [.subscriberVideoEnabled(reason: .qualityChanged)]
            }
            stage = .disabled(recoveringSince: start)
            return []
        }
    }
}
