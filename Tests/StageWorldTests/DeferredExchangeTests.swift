import Simulation
import StageCore
import Testing
@testable import StageWorld

/// TOK-5: exchangeToken called while a join or a reconnect is in progress (the seed's own
/// `stage.join()` then `stage.exchangeToken(newToken)`) waits for it to end instead of being
/// refused; an immutable-field change is still refused at once (TOK-4). Driven call by call on
/// one client, with the service's answers handed to it directly.
@Suite("Exchange deferred while joining (TOK-4, TOK-5)")
struct DeferredExchangeTests {
    private let strategy = StrategySpec()

    private func newToken(userId: String = "u-2", topic: String = "stage-1") -> String {
        var claims = StageKeys.claims(participantId: "solo", stageId: "stage-1", userId: userId)
        claims.topic = topic
        return StageKeys.standard.token(.signed(claims, by: .app))
    }

    private func joiningClient() -> Client {
        var client = Client(config: ClientConfig(name: "solo", token: .raw(signedToken("solo"))))
        _ = client.handle(.join, strategy: strategy, now: .zero)
        return client
    }

    private func exchangeMessages(_ output: Client.Output) -> [String] {
        output.messages.compactMap { message in
            if case .exchangeToken(let token) = message { return token }
            return nil
        }
    }

    @Test("an exchange during the join is neither refused nor sent; the accepted join sends it")
    func deferredUntilJoinAccepted() {
        var client = joiningClient()
        let token = newToken()
        let call = client.handle(.exchangeToken(token), strategy: strategy, now: .milliseconds(1))
        #expect(call.errors.isEmpty)
        #expect(call.messages.isEmpty)
        #expect(client.deferredExchanges == [token])
        let joined = client.handle(.joinAccepted([], connectionId: "solo"), strategy: strategy)
        #expect(exchangeMessages(joined) == [token])
        #expect(client.pendingExchanges == [token])
        #expect(client.deferredExchanges.isEmpty)
    }

    @Test("an immutable-field change right after join is still refused at once")
    func immutableRefusedAtOnce() {
        var client = joiningClient()
        let call = client.handle(.exchangeToken(newToken(topic: "stage-2")), strategy: strategy, now: .milliseconds(1))
        #expect(call.errors.map(\.error.code) == [.tokenNotAllowed])
        #expect(client.deferredExchanges.isEmpty)
    }

    @Test("a join that fails leaves the stage disconnected, and the waiting exchange replaces the token there")
    func failedJoinAdoptsToken() {
        var client = joiningClient()
        let token = newToken(userId: "u-3")
        _ = client.handle(.exchangeToken(token), strategy: strategy, now: .milliseconds(1))
        let refused = client.handle(.joinRejected(StageError(code: .tokenExpired, category: .join, isFatal: true), reason: "expired"), strategy: strategy)
        #expect(refused.errors.isEmpty)
        #expect(exchangeMessages(refused).isEmpty)
        #expect(client.token == token)
        #expect(client.view.local.info.userId == "u-3")
        #expect(client.deferredExchanges.isEmpty)
    }

    @Test("an exchange during a reconnect is sent once the reconnect has joined again")
    func deferredUntilReconnected() {
        var client = joiningClient()
        _ = client.handle(.joinAccepted([], connectionId: "solo"), strategy: strategy)
        _ = client.handle(.pingWatchdog(connection: client.epoch, pingsHeard: client.pingsHeard), now: .seconds(1))
        #expect(client.reconnectAttempt != nil)
        let token = newToken()
        let call = client.handle(.exchangeToken(token), strategy: strategy, now: .seconds(1))
        #expect(call.errors.isEmpty && call.messages.isEmpty)
        _ = client.handle(.reconnectAttempt(1), now: .seconds(2))
        let back = client.handle(.joinAccepted([], connectionId: "solo"), strategy: strategy)
        #expect(exchangeMessages(back) == [token])
        #expect(client.pendingExchanges == [token])
    }
}
