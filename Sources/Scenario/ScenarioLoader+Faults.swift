import Simulation
import StageWorld

extension ScenarioLoader {
    /// `faults:` a list of `{partition: <participant>, direction: both|uplink|downlink, from: 5s,
    /// to: 20s}`, `{outage: service, from: 5s, to: 20s}` (NET-2) and `{keepalive: silent,
    /// participant: <participant>, from: 5s, to: 20s}` (SIG-6: the service sends it no pings).
    static func faultPlan(_ node: YAMLNode, names: Set<String>) throws -> FaultPlan {
        var plan = FaultPlan()
        for item in try node.sequence("faults") {
            var map = try item.mapping("a fault")
            if let keepalive = map.optional("keepalive") {
                guard try keepalive.string("keepalive") == "silent" else { throw keepalive.error("keepalive takes the value 'silent'") }
                let name = try participantName(try map.required("participant", in: "a keepalive fault"), names: names)
                let (start, end) = try faultWindow(&map)
                try map.finish("a keepalive fault")
                plan.keepaliveSilences.append(KeepaliveSilence(clientName: name, start: start, end: end))
                continue
            }
            let target: String?
            if let name = map.optional("partition") {
                target = try participantName(name, names: names)
            } else if let outage = map.optional("outage") {
                guard try outage.string("outage") == "service" else { throw outage.error("outage takes the value 'service'") }
                target = nil
            } else {
                throw item.error("a fault needs 'partition: <participant>', 'outage: service' or 'keepalive: silent'")
            }
            let direction = try map.optional("direction")?.oneOf("direction", PartitionDirection.self) ?? .both
            let (start, end) = try faultWindow(&map)
            try map.finish("a fault")
            plan.partitions.append(Partition(clientName: target, direction: direction, start: start, end: end))
        }
        return plan
    }

    /// A fault's `from:` and `to:`; it must end after it starts.
    private static func faultWindow(_ map: inout YAMLMapping) throws -> (VirtualTime, VirtualTime) {
        let fromNode = try map.required("from", in: "a fault")
        let start = VirtualTime.zero + (try duration(fromNode, "from"))
        let end = VirtualTime.zero + (try duration(try map.required("to", in: "a fault"), "to"))
        guard start < end else { throw fromNode.error("a fault must end after it starts") }
        return (start, end)
    }

    /// `inject: [{at: 3s, to: alice, frame: "<text>"}]`: raw frames delivered to a client (SIG-8).
    static func frameInjections(_ node: YAMLNode, names: Set<String>) throws -> [FrameInjection] {
        try node.sequence("inject").map { item in
            var map = try item.mapping("an injected frame")
            let at = try duration(try map.required("at", in: "an injected frame"), "at")
            let participant = try participantName(try map.required("to", in: "an injected frame"), names: names)
            let frame = try map.required("frame", in: "an injected frame").string("frame")
            try map.finish("an injected frame")
            return FrameInjection(at: at, participant: participant, frame: frame)
        }
    }

    /// `keepalive: {pingInterval: 5s, pongTimeout: 10s, reconnectGrace: 30s}` (SIG-6, SUB-4), or
    /// `keepalive: off`.
    static func keepalivePolicy(_ node: YAMLNode) throws -> KeepalivePolicy {
        if node.node.scalar != nil {
            guard try node.string("keepalive") == "off" else { throw node.error("keepalive takes a mapping {pingInterval, pongTimeout} or 'off'") }
            return .off
        }
        var map = try node.mapping("keepalive")
        var policy = KeepalivePolicy()
        if let value = map.optional("pingInterval") {
            policy.pingInterval = try repeatingDuration(value, "keepalive pingInterval", atLeast: RepeatingWorkMinimums.pingInterval)
        }
        if let value = map.optional("pongTimeout") {
            policy.pongTimeout = try repeatingDuration(value, "keepalive pongTimeout", atLeast: RepeatingWorkMinimums.pongTimeout)
        }
        if let value = map.optional("reconnectGrace") { policy.reconnectGrace = try duration(value, "reconnectGrace") }
        try map.finish("keepalive")
        return policy
    }

    /// `reconnect: {backoff: 1s, multiplier: 2, cap: 30s, attempts: 8}` (NET-3).
    static func reconnectPolicy(_ node: YAMLNode) throws -> ReconnectPolicy {
        var map = try node.mapping("reconnect")
        var policy = ReconnectPolicy()
        if let value = map.optional("backoff") {
            policy.backoffBase = try repeatingDuration(value, "reconnect backoff", atLeast: RepeatingWorkMinimums.reconnectBackoff)
        }
        if let value = map.optional("multiplier") { policy.backoffMultiplier = UInt64(try value.int("multiplier", range: 1...10)) }
        if let value = map.optional("cap") { policy.backoffCap = try repeatingDuration(value, "reconnect cap", atLeast: RepeatingWorkMinimums.reconnectBackoff) }
        if let value = map.optional("attempts") { policy.maxAttempts = try value.int("attempts", range: 1...100) }
        try map.finish("reconnect")
        return policy
    }
}
