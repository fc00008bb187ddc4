import Simulation

/// The named invariant monitors that run on every run, whatever drives it.
public enum InvariantCatalog {
    /// Fresh instances of every monitor, in a fixed order; `settle` is how long the network
    /// must be quiet before views must have converged.
    public static func all(settle: VirtualDuration = .seconds(5)) -> [any InvariantMonitor] {
        MonitorSet(settle: settle).monitors
    }
}

/// The catalog's monitors as concrete stored values, one field per monitor type; `visit`
/// walks them in the catalog's order.
struct CatalogMonitors: Sendable {
    var joinLeave = JoinLeaveOrderMonitor()
    var streamAccounting = StreamAccountingMonitor()
    var rendererPicture = RendererPictureMonitor()
    var subscribeAnswer = SubscribeAnswerMonitor()
    var publishCapability = PublishCapabilityMonitor()
    var silentRefresh = SilentRefreshMonitor()
    var visibility = VisibilityMonitor()
    var subscriberLifecycle = SubscriberLifecycleMonitor()
    var subscriberVideo = SubscriberVideoMonitor()
    var capabilityChange = CapabilityChangeMonitor()
    var exchangeImmutability = ExchangeImmutabilityMonitor()
    var tokenAdmission = TokenAdmissionMonitor()
    var convergence: ConvergenceMonitor
    var idleLinkAgreement = IdleLinkAgreementMonitor()
    var liveConnection = LiveConnectionMonitor()
    var publisherDrop = PublisherDropMonitor()
    var subscribeEnforcement = SubscribeEnforcementMonitor()
    var secret = SecretMonitor()
    var keepaliveVerdict = KeepaliveVerdictMonitor()
    var joinRetryWindow = JoinRetryWindowMonitor()
    var reconnectSchedule = ReconnectScheduleMonitor()
    var publisherCapacity = PublisherCapacityMonitor()
    var publisherVideo = PublisherVideoMonitor()
    var tokenRefusalCode = TokenRefusalCodeMonitor()
    var cutLink = CutLinkMonitor()
    var notifyMetadata = NotifyMetadataMonitor()
    var exchangeOrigin = ExchangeOriginMonitor()
    var disconnectError = DisconnectErrorMonitor()
    var overlappingJoin = OverlappingJoinMonitor()
    var tokenReuse = TokenReuseMonitor()
    var publishedMute = PublishedMuteMonitor()
    var qualityFallback = QualityFallbackMonitor()
    var leave = LeaveMonitor()

    init(settle: VirtualDuration) { convergence = ConvergenceMonitor(settle: settle) }

    mutating func visit<Visitor: MonitorVisitor>(_ visitor: inout Visitor) {
        visitor.visit(&joinLeave)
        visitor.visit(&streamAccounting)
        visitor.visit(&rendererPicture)
        visitor.visit(&subscribeAnswer)
        visitor.visit(&publishCapability)
        visitor.visit(&silentRefresh)
        visitor.visit(&visibility)
        visitor.visit(&subscriberLifecycle)
        visitor.visit(&subscriberVideo)
        visitor.visit(&capabilityChange)
        visitor.visit(&exchangeImmutability)
        visitor.visit(&tokenAdmission)
        visitor.visit(&convergence)
        visitor.visit(&idleLinkAgreement)
        visitor.visit(&liveConnection)
        visitor.visit(&publisherDrop)
        visitor.visit(&subscribeEnforcement)
        visitor.visit(&secret)
        visitor.visit(&keepaliveVerdict)
        visitor.visit(&joinRetryWindow)
        visitor.visit(&reconnectSchedule)
        visitor.visit(&publisherCapacity)
        visitor.visit(&publisherVideo)
        visitor.visit(&tokenRefusalCode)
        visitor.visit(&cutLink)
        visitor.visit(&notifyMetadata)
        visitor.visit(&exchangeOrigin)
        visitor.visit(&disconnectError)
        visitor.visit(&overlappingJoin)
        visitor.visit(&tokenReuse)
        visitor.visit(&publishedMute)
        visitor.visit(&qualityFallback)
        visitor.visit(&leave)
    }

    /// `visit` for readers: every monitor in the same order, none copied.
    func read<Reader: MonitorReader>(_ reader: inout Reader) {
        reader.read(joinLeave)
        reader.read(streamAccounting)
        reader.read(rendererPicture)
        reader.read(subscribeAnswer)
        reader.read(publishCapability)
        reader.read(silentRefresh)
        reader.read(visibility)
        reader.read(subscriberLifecycle)
        reader.read(subscriberVideo)
        reader.read(capabilityChange)
        reader.read(exchangeImmutability)
        reader.read(tokenAdmission)
        reader.read(convergence)
        reader.read(idleLinkAgreement)
        reader.read(liveConnection)
        reader.read(publisherDrop)
        reader.read(subscribeEnforcement)
        reader.read(secret)
        reader.read(keepaliveVerdict)
        reader.read(joinRetryWindow)
        reader.read(reconnectSchedule)
        reader.read(publisherCapacity)
        reader.read(publisherVideo)
        reader.read(tokenRefusalCode)
        reader.read(cutLink)
        reader.read(notifyMetadata)
        reader.read(exchangeOrigin)
        reader.read(disconnectError)
        reader.read(overlappingJoin)
        reader.read(tokenReuse)
        reader.read(publishedMute)
        reader.read(qualityFallback)
        reader.read(leave)
    }
}
