import Checking
import Simulation
import StageCore
@testable import StageWorld
import Testing

/// ExchangeImmutabilityMonitor (TOK-4): the monitor judges an accepted exchange by its own
/// list of the five fields TOK-4 names, not by the model's (`TokenClaims.changedImmutableField`),
/// so a field the model forgets to guard is still found. The service's record of "pub" is
/// changed by hand to what a model that accepted such an exchange would hold.
@Suite("ExchangeImmutabilityMonitor (TOK-4)")
struct ExchangeImmutabilityMonitorTests {
    /// The claim each JWT field name TOK-4 lists is read from.
    static func claim(named name: String) -> WritableKeyPath<TokenClaims, String> {
        switch name {
        case "topic": \.topic
        case "resource": \.resource
        case "jti": \.participantId
        case "whip_url": \.whipURL
        default: \.eventsURL
        }
    }

    /// The monitor's violations after "pub" was admitted with its token and the service then
    /// announced a metadata update while holding claims with `change` applied.
    static func violations(changing change: (inout TokenClaims) -> Void) throws -> [Violation] {
        var world = try subscribedPairWorld()
        let pubClient = try #require(world.clientIndex(named: "pub"))
        let pubId = try #require(world.clients[pubClient].claims?.participantId)
        let pub = try #require(world.server.participants.firstIndex { $0.info.participantId == pubId })
        let info = world.server.participants[pub].info
        var monitors = MonitorSet([ExchangeImmutabilityMonitor()])
        monitors.observe([TraceEvent(time: .seconds(1), observer: "server", kind: .service(.admitted(info)))], world: world)
        change(&world.server.participants[pub].claims)
        monitors.observe([TraceEvent(time: .seconds(2), observer: "server", kind: .service(.metadataUpdated(info)))], world: world)
        return monitors.violations
    }

    @Test("an accepted exchange that changed any of the five fields is reported by that field's name",
          arguments: ["topic", "resource", "jti", "whip_url", "events_url"])
    func everyFieldIsGuarded(name: String) throws {
        let found = try Self.violations { $0[keyPath: Self.claim(named: name)] += "-changed" }
        #expect(found.map(\.invariant) == ["exchange-keeps-immutable-fields"])
        #expect(found.first?.message.hasSuffix("changed \(name)") == true, "\(found)")
    }

    @Test("an exchange that changes only mutable claims is accepted silently")
    func mutableChangeIsSilent() throws {
        #expect(try Self.violations { $0.userId += "-renamed" }.isEmpty)
    }
}
