// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "StageSim",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "stagesim", targets: ["stagesim"]),
        .library(name: "StageCore", targets: ["StageCore"]),
        .library(name: "StageWorld", targets: ["StageWorld"]),
        .library(name: "StageSDK", targets: ["StageSDK"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/attaswift/BigInt", from: "6.0.1"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.29.0", traits: ["MallocInterposer"]),
    ],
    targets: [
        .systemLibrary(
            name: "CXXHash",
            pkgConfig: "libxxhash",
            providers: [.apt(["libxxhash-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(
            name: "StageCore",
            dependencies: ["Signaling", .product(name: "Crypto", package: "swift-crypto"), .product(name: "BigInt", package: "BigInt")],
            swiftSettings: [.define("MUTANTS", .when(configuration: .debug))]
        ),
        .target(name: "Simulation", dependencies: ["CXXHash"]),
        .target(
            name: "StageWorld",
            dependencies: [
                "StageCore", "Simulation", "Signaling", "SubscriberModel",
                .product(name: "Collections", package: "swift-collections"),
            ]
        ),
        .target(name: "Checking", dependencies: ["StageCore", "Simulation", "StageWorld", "SubscriberModel", "Signaling"]),
        .target(
            name: "Scenario",
            dependencies: ["StageCore", "Simulation", "StageWorld", "Checking", "SubscriberModel", "Signaling", "Yams"]
        ),
        .target(
            name: "Drivers",
            dependencies: ["StageCore", "Simulation", "StageWorld", "Checking", "Scenario", "SubscriberModel", "Signaling"]
        ),
        .target(
            name: "HostileInputs",
            dependencies: ["Drivers", "Scenario", "Checking", "StageWorld", "StageCore", "Signaling", "Simulation"]
        ),
        .target(name: "Pictures", dependencies: ["Checking", "Simulation", "StageCore", "StageWorld"]),
        .target(name: "Reporting", dependencies: ["Drivers", "StageCore", "Simulation", "StageWorld", "Checking", "Pictures"]),
        .target(name: "StageSDK", dependencies: ["Drivers", "StageCore", "StageWorld", "Simulation", "Checking", "Signaling"]),
        .target(name: "Signaling"),
        .target(name: "SubscriberModel", dependencies: ["StageCore"]),
        .target(name: "FailureStore", dependencies: ["CSQLite"]),
        .executableTarget(
            name: "stagesim",
            dependencies: [
                "Drivers", "Scenario", "Checking", "StageWorld", "StageCore", "Simulation", "Reporting", "FailureStore", "HostileInputs", "Pictures",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "ReconcilerBenchmarks",
            dependencies: ["StageCore", .product(name: "Benchmark", package: "benchmark")],
            path: "Benchmarks/ReconcilerBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "SimulatorBenchmarks",
            dependencies: [
                "Drivers", "Scenario", "StageWorld", .product(name: "HeapModule", package: "swift-collections"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/SimulatorBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .testTarget(name: "StageCoreTests", dependencies: ["StageCore", "Simulation", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(name: "SimulationTests", dependencies: ["Simulation"]),
        .testTarget(name: "StageWorldTests", dependencies: ["StageWorld", "Checking", "Drivers", "Scenario", "StageSDK"]),
        .testTarget(name: "CheckingTests", dependencies: ["Checking", "StageWorld", "StageCore", "Simulation", "SubscriberModel"]),
        .testTarget(name: "DriversTests", dependencies: ["Drivers", "Checking", "Scenario", "StageWorld", "StageCore", "Simulation"]),
        .testTarget(name: "ScenarioTests", dependencies: ["Scenario", "Drivers"]),
        .testTarget(name: "StageSimCLITests", dependencies: ["stagesim", "FailureStore", "StageCore", "Yams"]),
        .testTarget(name: "PicturesTests", dependencies: ["Pictures", "Drivers", "StageWorld", "Checking", "Simulation", "StageCore"]),
        .testTarget(name: "ReportingTests", dependencies: ["Reporting", "StageWorld"]),
        .testTarget(name: "StageSDKTests", dependencies: ["StageSDK", "StageCore", "StageWorld", "Simulation", "Signaling", "SubscriberModel"]),
        .testTarget(name: "SignalingTests", dependencies: ["Signaling", "Simulation"]),
        .testTarget(name: "SubscriberModelTests", dependencies: ["SubscriberModel", "StageCore", "Simulation"]),
        .testTarget(name: "FailureStoreTests", dependencies: ["FailureStore"]),
        .testTarget(name: "HostileInputsTests", dependencies: ["HostileInputs"]),
    ],
    swiftLanguageModes: [.v6]
)
