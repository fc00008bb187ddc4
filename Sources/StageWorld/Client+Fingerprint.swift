import Simulation
import StageCore

// A client's state for the model checker's state encoding. Left out: its configuration
// (`ClientConfig`, constant during a run and hashed once in `WorldConfig.fingerprint`),
// `pingsHeard`, a counter that grows with every ping (the watchdog timers are written as
// current or stale instead), and the join attempt's start time, an absolute time.

extension JoinRetryPolicy: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(attemptTimeout)
        writer.write(window)
    }
}

extension KeepalivePolicy: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(pingInterval)
        writer.write(pongTimeout)
        writer.write(reconnectGrace)
        writer.write(isEnabled)
    }
}

extension ReconnectPolicy: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(backoffBase)
        writer.write(backoffMultiplier)
        writer.write(backoffCap)
        writer.write(maxAttempts)
    }
}

extension CompositionOptions: ExplorationEncodable {
    func encode(to writer: inout CanonicalWriter) {
        writer.write(featuredParticipantAttribute)
        writer.write(participantOrderAttribute)
        writer.write(liveLayoutUpdates)
    }
}

extension Client {
    /// Every stored property but the configuration and `pingsHeard`; tokens by their claims
    /// (`writeToken`), participant ids renamed, name-ordered collections as sets.
    func encode(to writer: inout CanonicalWriter, keyRing: TokenKeyRing) {
        writer.writeToken(of: self, keyRing: keyRing)
        writer.writeOptional(claims)
        writer.write(UInt32(pendingExchanges.count))
        for exchange in pendingExchanges { writer.writeToken(exchange, keyRing: keyRing) }
        writer.write(UInt32(deferredExchanges.count))
        for exchange in deferredExchanges { writer.writeToken(exchange, keyRing: keyRing) }
        strategy.encode(to: &writer)
        view.encode(to: &writer)
        encodeConnection(to: &writer)
        encodeSubscribers(to: &writer)
    }

    /// Joining and reconnecting: attempt numbers and the connection epoch.
    private func encodeConnection(to writer: inout CanonicalWriter) {
        writer.writeOptional(joinAttempt) { writer, attempt in writer.write(attempt.number) }
        writer.write(min(epoch, 2))
        writer.write(UInt32(publishRepliesOwed))
        writer.writeOptional(reconnectAttempt) { writer, attempt in writer.write(attempt) }
    }

    /// The OpenTok-style session and subscribers, the remote publishers' settings, and the
    /// video sizes this client published besides its configured one.
    private func encodeSubscribers(to writer: inout CanonicalWriter) {
        session.encode(to: &writer)
        writer.writeUnordered(subscribers)
        writer.writeUnordered(remoteProperties) { writer, entry in
            writer.writeName(entry.key)
            entry.value.encode(to: &writer)
        }
        writer.write(UInt32(videoSizesPublished.count))
        for size in videoSizesPublished {
            writer.write(size.width)
            writer.write(size.height)
        }
    }
}

extension ClientTimer {
    /// A timer of `client`: join attempt and reconnect numbers as they are; a ping watchdog
    /// only as current or stale (stale ones change nothing when they fire), since the ping
    /// count it carries grows forever.
    func encode(to writer: inout CanonicalWriter, client: Client) {
        switch self {
        case .joinAttemptTimeout(let attempt):
            writer.writeTag(0)
            writer.write(attempt)
        case .pingWatchdog(let connection, let pingsHeard):
            writer.writeTag(1)
            writer.write(connection == client.epoch && pingsHeard == client.pingsHeard)
        case .reconnectAttempt(let number):
            writer.writeTag(2)
            writer.write(number)
        }
    }
}
