extension SubscriberEventOrderCheck {
    /// What the verdicts on later events can depend on, per subscription id, as a few bytes:
    /// whether the stream is known and its `audioFallbackEnabled` (SUB-6), the session mode
    /// (SUB-5), the lifecycle flags (SUB-2..4) and the open video-disabled reasons (SUB-5).
    /// The event counter and the violations found so far only word reports and stay out. The
    /// model checker keys its states with these bytes.
    public var trackFacts: [String: [UInt8]] {
        tracks.mapValues { track in
            let stream: UInt8 = track.stream.map { $0.audioFallbackEnabled ? 2 : 1 } ?? 0
            let mode = track.mode.flatMap { OpenTokMediaMode.allCases.firstIndex(of: $0) }.map { UInt8($0 + 1) } ?? 0
            let flags = [track.connected, track.failed, track.disconnectOpen, track.destroyed, track.warned]
                .enumerated().reduce(UInt8(0)) { $0 | ($1.element ? 1 << $1.offset : 0) }
            let disabled = SubscriberVideoEventReason.allCases.enumerated()
                .reduce(UInt8(0)) { $0 | (track.disabled.contains($1.element) ? 1 << $1.offset : 0) }
            return [stream, mode, flags, disabled]
        }
    }
}
