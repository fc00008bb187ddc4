import ArgumentParser
import Drivers
import FailureStore
import Foundation
import Scenario
import Simulation
import StageWorld
import Synchronization

/// Saves each shrunk failure of a fuzz campaign the moment it is found, so that a killed
/// campaign loses at most the failures still being shrunk.
///
/// The regression file is written first (whole, through a renamed temporary file), then the
/// store row in a transaction of its own: a stored row always names a file that exists, and a
/// kill between the two leaves a complete file without a row, never a row without its file.
/// A store locked by another writer past the busy timeout is tried again for the next failure;
/// a store that turns out corrupt is dropped for the rest of the campaign. Either way the
/// regression file stays, and the summary says where each failure went.
final class FailureRecorder: Sendable {
    private let regressions: String
    private let storePath: String
    private let busyTimeoutMilliseconds: Int32
    private let runLabel: String
    private let generator: ScenarioGenerator
    private let state: Mutex<State>

    private struct State {
        var store: FailureStore?
        /// Why the store is not used any more (nil while it may still be used).
        var storeGone: FailureStoreError?
        var stored = 0
        var fileOnly: [String] = []
        var lost: [String] = []
    }

    /// Checks the places failures go before the first seed: the regressions directory must be
    /// writable, and the store must open and pass its checks. A store that stays locked by another
    /// writer is not an error: the campaign starts and tries it again for each failure.
    init(
        regressions: String, storePath: String, busyTimeoutMilliseconds: Int32, runLabel: String,
        generator: ScenarioGenerator
    ) throws {
        (self.regressions, self.storePath, self.runLabel) = (regressions, storePath, runLabel)
        (self.busyTimeoutMilliseconds, self.generator) = (busyTimeoutMilliseconds, generator)
        do {
            try FileOutput.prepareDirectory(regressions)
        } catch {
            throw ValidationError("--regressions: \(error)")
        }
        var initial = State()
        do {
            try FileOutput.makeDirectories((storePath as NSString).deletingLastPathComponent)
            initial.store = try FailureStore(path: storePath, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch let error as FailureStoreError where error.isBusy {
            print("warning: \(error); failures go to \(regressions) and the store is tried again for each")
        } catch {
            throw ValidationError("--db: \(error)")
        }
        state = Mutex(initial)
    }

    /// Writes `failure`'s regression file and store row; returns the lines saying what it is and
    /// where it went.
    func record(_ failure: FuzzFailure) -> [String] {
        let path = (regressions as NSString).appendingPathComponent("seed-\(failure.seed)-\(failure.violation.invariant).yaml")
        let draft = regressionDraft(failure, path: path)
        let text = regressionText(draft, schedule: failure.schedule)
        var lines = ["FAIL seed \(failure.seed): \(failure.violation)"]
        lines += generator.draft(seed: failure.seed).parameters.map { "  \($0)" }
        lines.append("  shrunk to \(draft.participants.count) participants, \(draft.steps.count) steps; trace hash \(XXH3.hex(failure.traceHash))")
        var written = false
        do {
            try FileOutput.writeWhole(text, to: path)
            lines += ["  wrote \(path)", "  replay: stagesim run \(path)"]
            written = true
        } catch {
            lines.append("  NOT WRITTEN: \(error)")
        }
        let record = FailureRecord(
            seed: failure.seed, invariant: failure.violation.invariant, rules: draft.covers, message: failure.violation.message,
            traceHashHex: XXH3.hex(failure.traceHash), scenarioYAML: text, originalStepCount: failure.original.steps.count,
            shrunkStepCount: draft.steps.count, createdAtRun: runLabel, regressionPath: written ? path : nil
        )
        lines.append(state.withLock { storeLine(record, state: &$0) })
        return lines
    }

    /// Saves the record and says where it went, keeping count for the summary.
    private func storeLine(_ record: FailureRecord, state: inout State) -> String {
        do {
            let id = try save(record, state: &state)
            return "  saved as failure \(id) in \(storePath)  (stagesim replay --id \(id) --db \(storePath))"
        } catch {
            guard let path = record.regressionPath else {
                state.lost.append(String(record.seed))
                return "  NOT SAVED anywhere (\(error)); rerun seed \(record.seed)"
            }
            state.fileOnly.append(path)
            return "  not in the store (\(error)); the regression file is its only copy"
        }
    }

    /// What the summary says about where the campaign's failures went.
    func summary() -> [String] {
        state.withLock { state in
            var lines: [String] = []
            if state.stored > 0 { lines.append("\(state.stored) failures saved in \(storePath) and \(regressions)") }
            if !state.fileOnly.isEmpty {
                lines.append("\(state.fileOnly.count) failures are NOT in \(storePath); their regression files are their only copy:")
                lines += state.fileOnly.map { "  \($0)" }
            }
            if !state.lost.isEmpty {
                lines.append("\(state.lost.count) failures were saved nowhere; rerun their seeds: \(state.lost.joined(separator: " "))")
            }
            return lines
        }
    }

    /// Saves one record in its own transaction, opening the store first if it was locked at
    /// the start. Any failure but a lock drops the store for the rest of the campaign.
    private func save(_ record: FailureRecord, state: inout State) throws(FailureStoreError) -> Int64 {
        if let gone = state.storeGone { throw gone }
        do throws(FailureStoreError) {
            let store: FailureStore
            if let open = state.store {
                store = open
            } else {
                store = try FailureStore(path: storePath, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                state.store = store
            }
            let id = try store.save(record)
            state.stored += 1
            return id
        } catch {
            if !error.isBusy { (state.storeGone, state.store) = (error, nil) }
            throw error
        }
    }

    /// The regression scenario: the shrunk draft with comments saying what it breaks and how to
    /// replay it.
    private func regressionDraft(_ failure: FuzzFailure, path: String) -> ScenarioDraft {
        var draft = failure.shrunk
        draft.covers = failure.violation.rules.isEmpty ? ["NET-1"] : failure.violation.rules
        draft.comments = [
            "Found by stagesim fuzz, seed \(failure.seed); shrunk from \(failure.original.steps.count) steps and "
                + "\(failure.original.participants.count) participants to \(draft.steps.count) and \(draft.participants.count).",
            "Violates \(failure.violation.invariant): \(failure.violation.message)",
            failure.schedule == nil
                ? "Replay: stagesim run \(path)   (a runaway run has no schedule: it is replayed by its seed)"
                : "Replay: stagesim run \(path)   (its schedule: the exact actions; by seed: stagesim replay \(failure.seed))",
            "After a model change: \(RegressionFile.regenerateCommand(path))",
        ]
        return draft
    }

    /// The draft's file, with the schedule of its run when it has one.
    private func regressionText(_ draft: ScenarioDraft, schedule: [Action]?) -> String {
        guard let schedule else { return draft.yaml }
        return RegressionFile.text(original: draft.yaml, world: draft.scenario().makeWorld(seed: draft.seed), actions: schedule)
    }
}
