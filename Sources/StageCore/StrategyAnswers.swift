/// The three questions the SDK asks the host's strategy (STR-1, STR-3, STR-4).
///
/// Two real implementations: the declarative strategy of scenario files (`StrategySpec` in
/// StageWorld) and the adapter that asks a user's `StageStrategy` object.
public protocol StrategyAnswers {
    func shouldSubscribe(to participant: ParticipantInfo) -> SubscribeType
    func shouldPublish(_ participant: ParticipantInfo) -> Bool
    func streamsToPublish(for participant: ParticipantInfo) -> [LocalStream]
}
