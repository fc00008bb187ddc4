import ArgumentParser
import StageCore

/// `--mutant NAME`: switches a deliberate bug on for the whole process (debug builds only).
enum MutantOption {
    static func activate(_ name: String?) throws {
        guard let name else { return }
        guard let mutant = Mutant(rawValue: name) else {
            throw ValidationError("unknown mutant '\(name)'; expected one of: \(Mutant.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard Mutants.activate(mutant) else { throw ValidationError("this is a release build: mutants exist in debug builds only") }
        print("mutant: \(name) is switched on")
    }
}
