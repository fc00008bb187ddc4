import StageWorld

extension Action {
    /// The schedule-file spelling: `fire 12`, `drop 7`.
    public var scheduleText: String {
        switch self {
        case .fire(let sequence): "fire \(sequence)"
        case .drop(let sequence): "drop \(sequence)"
        }
    }

    /// Reads the schedule-file spelling; nil when it is not one.
    public init?(scheduleText text: String) {
        let words = text.split(separator: " ")
        guard words.count == 2, let sequence = UInt64(words[1]) else { return nil }
        switch words[0] {
        case "fire": self = .fire(sequence: sequence)
        case "drop": self = .drop(sequence: sequence)
        default: return nil
        }
    }
}
