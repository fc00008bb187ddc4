extension Reconciler {
    /// The stage service accepted an exchanged token (TOK-5..8): the local participant's info
    /// becomes `newInfo` with no reconnect, and only capability changes cause work.
    /// - publish gained: shouldPublish/streamsToPublish are asked at once (TOK-6);
    /// - publish lost: the participant unpublishes at once, the strategy is not asked (TOK-7);
    /// - subscribe lost: every subscription ends, the strategy is not asked (TOK-8, assumed);
    /// - subscribe gained: shouldSubscribe is asked for every known remote (TOK-8, assumed).
    public static func tokenExchanged(
        _ view: inout StageView, newInfo: ParticipantInfo, strategy: some StrategyAnswers
    ) -> ReconcilePlan {
        let old = view.local.info.capabilities
        let new = newInfo.capabilities
        view.local.info = newInfo
        var plan = ReconcilePlan()
        var report = StrategyQueryReport(canPublish: new.canPublish)
        if new.canSubscribe && !old.canSubscribe {
            for index in view.remotes.indices {
                let answer = strategy.shouldSubscribe(to: view[index: index].info)
                if answer != view[index: index].answer {
                    view[index: index].answer = answer
                    report.changedSubscribeAnswers.append(view[index: index].info.participantId)
                }
            }
        }
        if new.canSubscribe != old.canSubscribe {
            for index in view.remotes.indices {
                reconcileRemote(&view, at: index, canSubscribe: new.canSubscribe, into: &plan)
            }
        }
        if new.canPublish && !old.canPublish && !Mutants.isOn(.skipStrategyOnCapabilityGain) {
            refreshPublishAnswers(&view, strategy: strategy, report: &report)
        }
        if !(Mutants.isOn(.keepPublishingAfterCapabilityLoss) && old.canPublish && !new.canPublish) {
            reconcileLocal(&view, into: &plan)
        }
        if report.askedShouldPublish || (new.canSubscribe && !old.canSubscribe) { plan.report = report }
        return plan
    }
}
