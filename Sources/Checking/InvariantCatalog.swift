/// The named invariant monitors that run on every run, whatever drives it.
public enum InvariantCatalog {
    /// Fresh instances of every monitor, in a fixed order.
    public static func all() -> [any InvariantMonitor] {
        [
            JoinLeaveOrderMonitor(), StreamAccountingMonitor(), SubscribeAnswerMonitor(),
            PublishCapabilityMonitor(), SilentRefreshMonitor(), VisibilityMonitor(),
        ]
    }
}
