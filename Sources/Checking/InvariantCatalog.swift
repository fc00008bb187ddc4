import Simulation

/// The named invariant monitors that run on every run, whatever drives it.
public enum InvariantCatalog {
    /// Fresh instances of every monitor, in a fixed order; `settle` is how long the network
    /// must be quiet before views must have converged.
    public static func all(settle: VirtualDuration = .seconds(5)) -> [any InvariantMonitor] {
        [
            JoinLeaveOrderMonitor(), StreamAccountingMonitor(), SubscribeAnswerMonitor(),
            PublishCapabilityMonitor(), SilentRefreshMonitor(), VisibilityMonitor(), SubscriberLifecycleMonitor(), SubscriberVideoMonitor(),
            CapabilityChangeMonitor(), ExchangeImmutabilityMonitor(),
            ConvergenceMonitor(settle: settle), LiveConnectionMonitor(), PublisherDropMonitor(),
            SubscribeEnforcementMonitor(), SecretMonitor(), KeepaliveVerdictMonitor(), JoinRetryWindowMonitor(),
        ]
    }
}
