import StageWorld

extension World {
    /// What `action` does in this world, in words: the counterexample timeline's and the
    /// schedule file's comment for each step.
    public func describe(_ action: Action) -> String {
        switch action {
        case .fire(let sequence):
            guard let entry = pending.entry(sequence: sequence) else { return "fire \(sequence): nothing pending" }
            return describe(entry.payload)
        case .drop(let sequence):
            guard let entry = pending.entry(sequence: sequence) else { return "drop \(sequence): nothing pending" }
            return "lose " + describe(entry.payload)
        }
    }

    private func describe(_ event: PendingEvent) -> String {
        switch event {
        case .hostCall(let index, let call): "\(clients[index].name): \(call.summary)"
        case .timer(let index, let timer): "\(clients[index].name): timer \(timer.summary)"
        case .serverTimer(let timer): "server: timer \(timer.summary)"
        case .delivery(let envelope):
            "\(observerName(envelope.from)) -> \(observerName(envelope.to)): " + ((try? envelope.decoded().get())?.summary ?? "unreadable frame")
        }
    }
}
