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
    }

    /// `read` beside `earlier`, the catalog this one was copied from: each monitor with its
    /// earlier copy, in the same order.
    func readPairs<Reader: MonitorPairReader>(_ earlier: CatalogMonitors, _ reader: inout Reader) {
        reader.read(joinLeave, earlier: earlier.joinLeave)
        reader.read(streamAccounting, earlier: earlier.streamAccounting)
        reader.read(rendererPicture, earlier: earlier.rendererPicture)
        reader.read(subscribeAnswer, earlier: earlier.subscribeAnswer)
        reader.read(publishCapability, earlier: earlier.publishCapability)
        reader.read(silentRefresh, earlier: earlier.silentRefresh)
        reader.read(visibility, earlier: earlier.visibility)
        reader.read(subscriberLifecycle, earlier: earlier.subscriberLifecycle)
        reader.read(subscriberVideo, earlier: earlier.subscriberVideo)
        reader.read(capabilityChange, earlier: earlier.capabilityChange)
        reader.read(exchangeImmutability, earlier: earlier.exchangeImmutability)
        reader.read(tokenAdmission, earlier: earlier.tokenAdmission)
        reader.read(convergence, earlier: earlier.convergence)
        reader.read(idleLinkAgreement, earlier: earlier.idleLinkAgreement)
        reader.read(liveConnection, earlier: earlier.liveConnection)
        reader.read(publisherDrop, earlier: earlier.publisherDrop)
        reader.read(subscribeEnforcement, earlier: earlier.subscribeEnforcement)
        reader.read(secret, earlier: earlier.secret)
        reader.read(keepaliveVerdict, earlier: earlier.keepaliveVerdict)
        reader.read(joinRetryWindow, earlier: earlier.joinRetryWindow)
        reader.read(reconnectSchedule, earlier: earlier.reconnectSchedule)
        reader.read(publisherCapacity, earlier: earlier.publisherCapacity)
        reader.read(publisherVideo, earlier: earlier.publisherVideo)
        reader.read(tokenRefusalCode, earlier: earlier.tokenRefusalCode)
        reader.read(cutLink, earlier: earlier.cutLink)
        reader.read(notifyMetadata, earlier: earlier.notifyMetadata)
        reader.read(exchangeOrigin, earlier: earlier.exchangeOrigin)
        reader.read(disconnectError, earlier: earlier.disconnectError)
        reader.read(overlappingJoin, earlier: earlier.overlappingJoin)
    }
}
