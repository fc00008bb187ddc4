import Simulation

extension VisibilityMatrix {
    /// Simulates every history on every seed with every observer kind watching and folds the
    /// first sightings into cells; `progress` hears each finished history.
    public static func simulate(seeds: [UInt64], progress: (ParticipantHistory, Int) -> Void = { _, _ in }) -> VisibilityMatrix {
        var cells: [VisibilityCell] = []
        var violations: [String] = []
        var hashes: [String: String] = [:]
        for history in ParticipantHistory.allCases {
            var sightings: [ObserverKind: [(UInt64, FirstSight)]] = [:]
            for seed in seeds {
                let result = VisibilityExperiment(history: history, seed: seed).run()
                hashes["\(history.rawValue)/\(seed)"] = XXH3.hex(result.traceHash)
                violations += result.violations.map { "\(history.rawValue) seed \(seed): \($0)" }
                for (kind, sight) in result.sightings { sightings[kind, default: []].append((seed, sight)) }
            }
            for observer in ObserverKind.allCases {
                cells.append(cell(history, observer, sightings[observer] ?? [], seedCount: seeds.count))
            }
            progress(history, seeds.count)
        }
        return VisibilityMatrix(seeds: seeds, cells: cells, violations: violations, traceHashes: hashes)
    }

    private static func cell(_ history: ParticipantHistory, _ observer: ObserverKind, _ runs: [(UInt64, FirstSight)], seedCount: Int) -> VisibilityCell {
        let (expected, via) = SeedVisibilityTable.expected(history, observer)
        var outcomes: [VisibilityCell.OutcomeCount] = []
        for (seed, sight) in runs {
            if let index = outcomes.firstIndex(where: { $0.outcome == sight.outcome }) {
                outcomes[index].seeds.append(seed)
            } else {
                outcomes.append(VisibilityCell.OutcomeCount(outcome: sight.outcome, seeds: [seed]))
            }
        }
        let verdicts = Set(runs.map { Visibility($0.1) })
        let delays = runs.compactMap { $0.1.delayMilliseconds }
        return VisibilityCell(
            history: history, observer: observer, expected: expected, expectedVia: via,
            observed: verdicts.count == 1 ? verdicts.first : nil, outcomes: outcomes,
            delayMillisecondsMin: delays.min(), delayMillisecondsMax: delays.max(), seeds: seedCount
        )
    }
}

extension FirstSight {
    var delayMilliseconds: Double? {
        switch self {
        case .metadataEvent(let delay), .joinAtFirstPublish(let delay), .joinAtRepublish(let delay): delay
        case .otherEvent, .never: nil
        }
    }
}
