import Benchmark
import StageCore

// refreshStrategy over 100, 1,000 and 10,000 subscribed remotes with 0%, 1% and 100% of the
// subscribe answers changed, beside a baseline that only asks the strategy the questions a
// refresh asks. Targets: at 1% changed at most 1.3x the baseline's time; at 0% changed no
// allocation. `Benchmarks/run-reconciler-benchmarks` prints the ratios.
//
// How it is measured:
// - One benchmark iteration is one refresh (or one baseline pass), timed alone between
//   `startMeasurement()` and `stopMeasurement()`; picking the strategy happens before the
//   window. The plan a refresh returns is used and dropped inside the window, so freeing it
//   counts. wallClock and mallocCountTotal are per refresh; throughput is refreshes per second.
// - Iterations ask two strategies, A and B, in turn: B answers `.none` instead of A's
//   `.audioVideo` for the chosen fraction of remotes (none at 0%), so every measured refresh
//   applies that difference and leaves the view matching the strategy it asked. Nothing is
//   reset between iterations. The baseline alternates between the pair of the 1% case; which
//   answers a table holds does not change what asking costs.
// - A changed remote goes unsubscribe (command + notSubscribed event) and back to subscribe
//   (command + attemptingSubscribe event). Subscriptions are not confirmed again in between,
//   so only the first unsubscribe of a remote also removes its two streams (one
//   didRemoveStreams event); every later change is one command and one renderer event.
// - Both benchmarks hold the strategy as `any StrategyAnswers` and hand it to a function taking
//   `some StrategyAnswers`, which opens it once: every question is then a witness-table call
//   in both, as it is for the reconciler compiled in StageCore.

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        warmupIterations: 10,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )
    for remoteCount in [100, 1_000, 10_000] {
        Benchmark("baseline-query n=\(remoteCount)", configuration: configuration) { benchmark, fixture in
            let strategy = fixture.nextStrategy()
            benchmark.startMeasurement()
            blackHole(StrategyQueries.askAll(fixture.view, strategy: strategy))
            benchmark.stopMeasurement()
        } setup: {
            RefreshFixture(remoteCount: remoteCount, changedPercent: 1)
        }
        for changedPercent in [0, 1, 100] {
            Benchmark("refresh n=\(remoteCount) changed=\(changedPercent)%", configuration: configuration) { benchmark, fixture in
                let strategy = fixture.nextStrategy()
                benchmark.startMeasurement()
                blackHole(Reconciler.refresh(&fixture.view, strategy: strategy).commands.count)
                benchmark.stopMeasurement()
            } setup: {
                RefreshFixture(remoteCount: remoteCount, changedPercent: changedPercent)
            }
        }
    }
}

/// The baseline: the strategy questions one refresh asks and nothing else.
enum StrategyQueries {
    /// Asks shouldSubscribe for every remote, then shouldPublish and, when that says yes,
    /// streamsToPublish (as refresh does for a connected local participant that may publish).
    /// Returns how many answers were `.audioVideo` and streams were returned, so the answers
    /// are used.
    static func askAll(_ view: StageView, strategy: some StrategyAnswers) -> Int {
        var audioVideoAnswerCount = 0
        for remote in view.remotes where strategy.shouldSubscribe(to: remote.info) == .audioVideo {
            audioVideoAnswerCount += 1
        }
        guard strategy.shouldPublish(view.local.info) else { return audioVideoAnswerCount }
        return audioVideoAnswerCount + strategy.streamsToPublish(for: view.local.info).count
    }
}

/// A strategy answering from a table indexed by the remote's position, which its participant
/// id spells in decimal (`remote-00042` is index 42): an O(1) look-up that hashes nothing.
/// It always publishes the same stored audio and video streams, so answering allocates nothing.
struct TableStrategy: StrategyAnswers {
    /// The subscribe answer for each remote index.
    let subscribeAnswers: [SubscribeType]
    /// What streamsToPublish returns: the same array, not a new one, on every call.
    let streams: [LocalStream]

    func shouldSubscribe(to participant: ParticipantInfo) -> SubscribeType {
        subscribeAnswers[Self.remoteIndex(of: participant.participantId)]
    }

    func shouldPublish(_ participant: ParticipantInfo) -> Bool { true }

    func streamsToPublish(for participant: ParticipantInfo) -> [LocalStream] { streams }

    /// The id of the remote at `index`: "remote-" and five digits, 12 characters like the
    /// service's ids, which Swift keeps inline (no heap storage) and which sort in index order.
    static func participantId(ofRemote index: Int) -> String {
        let digits = String(index)
        return idPrefix + String(repeating: "0", count: digitCount - digits.count) + digits
    }

    /// The index `participantId(ofRemote:)` encoded, read from the id's last five bytes.
    static func remoteIndex(of participantId: String) -> Int {
        var id = participantId
        return id.withUTF8 { bytes in
            bytes.suffix(digitCount).reduce(0) { $0 &* 10 &+ Int($1 &- UInt8(ascii: "0")) }
        }
    }

    private static let idPrefix = "remote-"
    private static let digitCount = 5
}

/// What one benchmark measures against: a connected, publishing local participant whose view
/// holds `remoteCount` remotes, each publishing audio and video and subscribed to both, plus
/// strategies A and B that the iterations ask in turn (see the notes at the top of the file).
final class RefreshFixture {
    /// The view every iteration refreshes (or asks about), in place.
    var view: StageView
    /// A and B, both as `any StrategyAnswers`.
    private let strategies: [any StrategyAnswers]
    /// Which of `strategies` the next iteration asks: B first, as setup left the view at A.
    private var nextStrategyIndex = 1

    /// Builds the view through the reconciler's public API, as a client does when remotes join,
    /// publish and get their subscriptions confirmed, and when its own publish is accepted.
    /// `changedPercent` of the remotes (spread evenly) get a different answer from B.
    init(remoteCount: Int, changedPercent: Int) {
        let streams = [LocalStream(kind: .audio), LocalStream(kind: .video)]
        let answersA = [SubscribeType](repeating: .audioVideo, count: remoteCount)
        var answersB = answersA
        // Remote i changes when (i * changedPercent) mod 100 < changedPercent: that picks
        // changedPercent of every 100 consecutive remotes (the 1st of every 100 at 1%).
        for index in answersB.indices where index * changedPercent % 100 < changedPercent {
            answersB[index] = .none
        }
        let changedCount = zip(answersA, answersB).filter { $0 != $1 }.count
        let strategyA = TableStrategy(subscribeAnswers: answersA, streams: streams)
        let strategyB = TableStrategy(subscribeAnswers: answersB, streams: streams)
        strategies = [strategyA, strategyB]

        view = StageView(local: ParticipantInfo(participantId: "local-000000", isLocal: true))
        view.local.connectionState = .connected
        let canSubscribe = view.local.info.capabilities.canSubscribe
        for remoteIndex in 0..<remoteCount {
            let id = TableStrategy.participantId(ofRemote: remoteIndex)
            let info = ParticipantInfo(participantId: id, userId: "user-\(remoteIndex)")
            let index = view.upsert(RemoteParticipant(info: info, answer: strategyA.shouldSubscribe(to: info)))
            view[index: index].publishedStreams = [
                StageStream(participantId: id, kind: .audio), StageStream(participantId: id, kind: .video),
            ]
            view[index: index].announced = true
            var plan = ReconcilePlan()
            Reconciler.reconcileRemote(&view, at: index, canSubscribe: canSubscribe, into: &plan)
            _ = Reconciler.subscriptionConfirmed(&view, participantId: id)
        }
        // The local participant asks to publish; then the stage accepts it.
        _ = Reconciler.refresh(&view, strategy: strategyA)
        view.local.publishState = .published

        precondition(
            view.remotes.count == remoteCount
                && view.remotes.allSatisfy { $0.subscribeState == .subscribed && $0.addedStreams.count == 2 }
                && view.local.publishState == .published,
            "the fixture must start connected, published and subscribed to every remote"
        )
        // On a copy: A again is a silent refresh (STR-5); B sends one command per changed remote.
        var probe = view
        precondition(Reconciler.refresh(&probe, strategy: strategyA).isEmpty, "refresh with A must change nothing")
        precondition(
            Reconciler.refresh(&probe, strategy: strategyB).commands.count == changedCount,
            "refresh with B must unsubscribe exactly the changed remotes"
        )
    }

    /// The strategy the next iteration asks: B, A, B, A, ...
    func nextStrategy() -> any StrategyAnswers {
        defer { nextStrategyIndex ^= 1 }
        return strategies[nextStrategyIndex]
    }
}
