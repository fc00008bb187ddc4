import ArgumentParser

@main
struct StageSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stagesim",
        abstract: "A deterministic simulator and model checker for real-time video stage SDKs.",
        subcommands: [RunCommand.self, CheckCommand.self, ReportCommand.self, InvariantsCommand.self, FuzzCommand.self, ReplayCommand.self, StoreCommand.self, SelftestCommand.self]
    )
}
