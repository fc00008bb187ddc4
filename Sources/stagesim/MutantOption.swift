import ArgumentParser
import StageCore

/// `--mutant NAME`: runs a command with a deliberate bug switched on (debug builds only).
enum MutantOption {
    /// Runs `body` with the named mutant switched on; without a name, as it is.
    static func withMutant<Result>(_ name: String?, _ body: () throws -> Result) throws -> Result {
        guard let name else { return try body() }
        guard let mutant = Mutant(rawValue: name) else {
            throw ValidationError("unknown mutant '\(name)'; expected one of: \(Mutant.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard Mutants.areAvailable else { throw ValidationError("this is a release build: mutants exist in debug builds only") }
        print("mutant: \(name) is switched on")
        return try Mutants.withMutant(mutant, body)
    }
}
