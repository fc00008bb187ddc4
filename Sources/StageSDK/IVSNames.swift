import StageCore

// The Swift names of the IVS real-time SDK (ivs-publish-subscribe.en.txt and
// ivs-token-exchange.it.txt write `IVSStage`, `IVSStageStrategy`, `IVSStageRenderer`, ...),
// so code written from those pages compiles against the simulation as it is written. Each
// names the type that models it. Where the page's code needs an object (`let` and setters, a
// delegate), the IVS name is a class of its own: `IVSLocalStageStreamVideoConfiguration`,
// `IVSStageStream`, `IVSCamera`, `IVSMicrophone`.

/// The SDK's `IVSStage` (STG-1): `Stage`.
public typealias IVSStage = Stage
/// The SDK's `IVSStageStrategy` (STR-1, STR-3, STR-4): `StageStrategy`.
public typealias IVSStageStrategy = StageStrategy
/// The SDK's `IVSStageRenderer` (RND-1): `StageRenderer`.
public typealias IVSStageRenderer = StageRenderer
/// The SDK's `IVSErrorDelegate` (STG-1): `StageErrorDelegate`.
public typealias IVSErrorDelegate = StageErrorDelegate
/// The SDK's `IVSParticipantInfo`: `ParticipantInfo`.
public typealias IVSParticipantInfo = ParticipantInfo
/// The SDK's `IVSStageSubscribeType` (STR-1): `SubscribeType`.
public typealias IVSStageSubscribeType = SubscribeType
/// The SDK's `IVSLocalStageStream` (STR-4, LST-1): `LocalStageStream`.
public typealias IVSLocalStageStream = LocalStageStream
/// The SDK's `IVSParticipantPublishState` (RND-1): `PublishState`.
public typealias IVSParticipantPublishState = PublishState
/// The SDK's `IVSParticipantSubscribeState` (RND-1): `SubscribeState`.
public typealias IVSParticipantSubscribeState = SubscribeState
/// The SDK's `IVSStageConnectionState` (STG-2): `ConnectionState`.
public typealias IVSStageConnectionState = ConnectionState
/// The SDK's `IVSDevice` (STR-4): `LocalDevice`.
public typealias IVSDevice = LocalDevice
