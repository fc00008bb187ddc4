import Simulation
import StageCore
import StageWorld

extension VisibilityExperiment {
    /// The stage for this run: the subject (mobile 1.37.0), one observer of every kind, link
    /// conditions drawn from the seed, observer reconnects before the exchange, and the
    /// history's host calls.
    func makeWorld() -> World {
        var random = SplitMix64.stream(seed: seed, name: "visibility-experiment")
        let link = LinkConditions(
            latencyMean: .milliseconds(10 + random.upTo(60)), jitterMax: .milliseconds(random.upTo(30)),
            lossProbability: Double(random.upTo(20)) / 100, retransmissionTimeout: .milliseconds(200)
        )
        let observers = ObserverKind.allCases.map { kind in
            ClientConfig(name: kind.clientName, sdk: kind.sdk, token: .raw(token(kind.clientName, userId: kind.clientName)), strategy: StrategySpec(publish: false))
        }
        let subjectStrategy = StrategySpec(publish: history != .notPublishingThenPublishes)
        let subject = ClientConfig(name: Self.subject, sdk: .mobile(SemanticVersion(1, 37, 0)), token: .raw(token(Self.subject, userId: Self.oldUserId)), strategy: subjectStrategy)
        var world = World(stageId: "stage-vis", clients: observers + [subject], links: [:], defaultLink: link, seed: seed)
        for observer in observers {
            schedule(&world, observer.name, .join, at: 0)
            if random.chance(0.5) {
                let leaveAt = 500 + random.upTo(1_000)
                schedule(&world, observer.name, .leave, at: leaveAt)
                schedule(&world, observer.name, .join, at: leaveAt + 200)
            }
        }
        schedule(&world, Self.subject, .join, at: 0)
        let exchanged = token(Self.subject, userId: Self.newUserId, attributes: ["role": "host"], issuedAt: Self.exchangeAt / 1_000)
        schedule(&world, Self.subject, .exchangeToken(exchanged), at: Self.exchangeAt)
        for (time, publish) in publishChanges() {
            schedule(&world, Self.subject, .setStrategy(StrategySpec(publish: publish)), at: time)
            schedule(&world, Self.subject, .refreshStrategy, at: time)
        }
        return world
    }

    /// When the subject's publish answer changes, per history.
    private func publishChanges() -> [(UInt64, Bool)] {
        switch history {
        case .notPublishingThenPublishes: [(Self.firstPublishAt, true)]
        case .publishedNoRepublish: []
        case .publishedThenRepublishes: [(Self.unpublishAt, false), (Self.republishAt, true)]
        }
    }

    private func token(_ name: String, userId: String, attributes: Attributes = ["role": "guest"], issuedAt: UInt64 = 0) -> String {
        let claims = StageKeys.claims(participantId: name, stageId: "stage-vis", userId: userId, attributes: attributes, issuedAtSeconds: issuedAt)
        return StageKeys.standard.token(.signed(claims, by: .app))
    }

    private func schedule(_ world: inout World, _ name: String, _ call: HostCall, at milliseconds: UInt64) {
        guard let index = world.clientIndex(named: name) else { return }
        world.scheduleHostCall(call, clientIndex: index, at: .milliseconds(milliseconds))
    }

    /// The first renderer event at the observer that shows the subject's new userId.
    func firstSight(of kind: ObserverKind, in trace: Trace) -> FirstSight {
        let accepted = trace.events.first { event in
            if case .service(.metadataUpdated(let info)) = event.kind { return info.participantId == Self.subject }
            return false
        }
        guard let acceptedAt = accepted?.time else { return .never }
        let sight = trace.events.first { event in
            guard event.observer == kind.clientName, let info = event.rendererEvent?.participant else { return false }
            return info.participantId == Self.subject && info.userId == Self.newUserId
        }
        guard let sight, let renderer = sight.rendererEvent else { return .never }
        let after = (sight.time - acceptedAt).milliseconds
        switch renderer {
        case .participantMetadataDidUpdate: return .metadataEvent(afterMilliseconds: after)
        case .participantDidJoin where history == .publishedThenRepublishes && sight.time >= .milliseconds(Self.republishAt):
            return .joinAtRepublish(afterMilliseconds: after)
        case .participantDidJoin where history == .notPublishingThenPublishes && sight.time >= .milliseconds(Self.firstPublishAt):
            return .joinAtFirstPublish(afterMilliseconds: after)
        default: return .otherEvent(renderer.name)
        }
    }
}
