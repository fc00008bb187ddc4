extension ScenarioLoader {
    /// `exhaustive: [observer, ...]`: participants whose every renderer event and error must be
    /// accounted for, in order, by the expectations (`ExhaustiveCheck`). An unknown or repeated
    /// name is an error at its line and column.
    static func exhaustiveObservers(_ node: YAMLNode, names: Set<String>) throws -> [ExhaustiveObserver] {
        var observers: [ExhaustiveObserver] = []
        for item in try node.sequence("exhaustive") {
            let name = try participantName(item, names: names)
            guard !observers.contains(where: { $0.name == name }) else {
                throw item.error("observer '\(name)' is listed twice in exhaustive")
            }
            observers.append(ExhaustiveObserver(name: name, line: item.line))
        }
        return observers
    }
}
