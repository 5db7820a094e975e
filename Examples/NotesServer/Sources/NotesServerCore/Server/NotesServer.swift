//===----------------------------------------------------------------------===//
//
// This source file is part of the Injector open source project
//
// Copyright (c) 2026 the Injector project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import Foundation
import Hummingbird
import Injector
import Logging
import NIOCore
import ServiceLifecycle
import UnixSignals

extension ScopeTag {
    /// The tag of the scopes the request middleware opens, one per request.
    public static let request: ScopeTag = "request"
}

/// How to run the server.
public struct NotesServerOptions: Sendable {
    /// Where `notes.sqlite` lives.
    public var dataDirectory: String
    /// The loopback port; 0 for one the system picks.
    public var port: Int
    /// How often the maintenance job checkpoints the log and logs its counters.
    public var maintenanceInterval: Duration
    public var logLevel: Logger.Level
    /// How long a connection may send nothing, mid-request included, before it is closed: a client
    /// that stalls in the middle of a body would otherwise keep its request, and a graceful
    /// shutdown waiting for it, open for ever. `nil` for no limit.
    public var idleTimeout: Duration?
    /// How long a graceful shutdown waits for requests in flight before it cancels them.
    public var shutdownGracePeriod: Duration

    public init(
        dataDirectory: String,
        port: Int = 8080,
        maintenanceInterval: Duration = .seconds(30),
        logLevel: Logger.Level = .info,
        idleTimeout: Duration? = .seconds(30),
        shutdownGracePeriod: Duration = .seconds(10)
    ) {
        self.dataDirectory = dataDirectory
        self.port = port
        self.maintenanceInterval = maintenanceInterval
        self.logLevel = logLevel
        self.idleTimeout = idleTimeout
        self.shutdownGracePeriod = shutdownGracePeriod
    }

    /// A new temporary directory, the default data directory.
    public static func temporaryDirectory() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("notes-server-\(UUID().uuidString)").path
    }

    /// What `--help` prints.
    public static let usage = """
        usage: NotesServer [--data-dir PATH] [--port N] [--maintenance-interval SECONDS] \
        [--log-level trace|debug|info|notice|warning|error|critical]
          --data-dir PATH                   where notes.sqlite lives (default: a new temporary directory)
          --port N                          the port on 127.0.0.1 (default 8080; 0 for one the system picks)
          --maintenance-interval SECONDS    how often the WAL is checkpointed and stats logged (default 30)
          --log-level LEVEL                 default info
        """

    /// Parses `[--data-dir PATH] [--port N] [--maintenance-interval SECONDS] [--log-level LEVEL]`.
    ///
    /// - Throws: `UsageError`, whose `isHelp` is set for `--help` or `-h`.
    public static func parse(_ arguments: [String]) throws -> NotesServerOptions {
        var options = NotesServerOptions(dataDirectory: "")
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--help" || argument == "-h" { throw UsageError(message: "", isHelp: true) }
            guard let value = remaining.popFirst() else { throw UsageError(message: "\(argument) needs a value") }
            switch argument {
            case "--data-dir": options.dataDirectory = value
            case "--port":
                guard let port = Int(value), (0...65535).contains(port) else {
                    throw UsageError(message: "bad port \(value)")
                }
                options.port = port
            case "--maintenance-interval":
                guard let seconds = Double(value), (0.001...1_000_000).contains(seconds) else {
                    throw UsageError(message: "bad maintenance interval \(value)")
                }
                options.maintenanceInterval = .milliseconds(Int64(seconds * 1000))
            case "--log-level":
                guard let level = Logger.Level(rawValue: value) else {
                    throw UsageError(message: "bad log level \(value)")
                }
                options.logLevel = level
            default: throw UsageError(message: "unknown option \(argument)")
            }
        }
        if options.dataDirectory.isEmpty { options.dataDirectory = temporaryDirectory() }
        return options
    }

    /// Arguments that start no server: wrong ones, or a request for help.
    public struct UsageError: Error, CustomStringConvertible {
        public var message: String
        /// Whether `--help` was asked for: the usage goes to standard output, and the exit status is 0.
        public var isHelp = false
        public var description: String {
            isHelp ? NotesServerOptions.usage : "\(message)\n\(NotesServerOptions.usage)"
        }
    }
}

/// The notes server: its container, its services and its HTTP application.
public struct NotesServer: Sendable {
    public let container: Container
    public let audit: ScopeAudit
    public let options: NotesServerOptions
    public let logger: Logger

    /// Registers every dependency. Nothing is built until the application is made.
    public init(
        options: NotesServerOptions,
        audit: ScopeAudit = ScopeAudit(),
        clock: any NotesClock = SystemNotesClock()
    ) throws {
        var logger = Logger(label: "NotesServer")
        logger.logLevel = options.logLevel
        self.logger = logger
        self.options = options
        self.audit = audit
        self.container = Container()
        Self.register(into: container, options: options, audit: audit, clock: clock, logger: logger)
        try container.finishRegistration()
    }

    static func register(
        into container: Container,
        options: NotesServerOptions,
        audit: ScopeAudit,
        clock: any NotesClock,
        logger: Logger
    ) {
        // Singletons: the container builds them once and disposes them at shutdown, last built first.
        container.register(ScopeAudit.self, instance: audit, ownedBy: .caller)
        container.register((any NotesClock).self, scope: .singleton) { _ in clock }
        container.register(NotesDatabase.self, scope: .singleton) { r in
            try NotesDatabase(directory: options.dataDirectory, audit: r.resolve(ScopeAudit.self), logger: logger)
        }
        container.register(MaintenanceService.self, scope: .singleton) { r in
            try MaintenanceService(
                database: r.resolve(NotesDatabase.self),
                clock: r.resolve((any NotesClock).self),
                audit: r.resolve(ScopeAudit.self),
                interval: options.maintenanceInterval,
                logger: logger
            )
        }
        // Per request: the request's info is given to its scope; the unit of work is one per scope.
        // Declared: their initialisers' parameters are resolved by type, so validate() checks the
        // request path without a request, and without building it.
        container.register(RequestInfo.self, providedByScope: .request)
        container.register(UnitOfWork.self, scope: .scoped(to: .request), UnitOfWork.init)
        container.register(NotesService.self, NotesService.init)
    }

    /// The router: `/notes` resolves through request scopes; `/hand/notes` is the same API wired
    /// by hand, for the load test's comparison; `/scope-only/notes` the hand-wired API inside a
    /// request scope that resolves nothing, and `/calibrate/NANOSECONDS/notes` the hand-wired API
    /// spending that much more CPU time a request, for the load test's decomposition and calibration.
    public func makeRouter() throws -> Router<AppRequestContext> {
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        NotesRoutes.add(
            to: router.group("notes").add(middleware: RequestScopeMiddleware(container: container, audit: audit))
        )
        let database = try container.resolve(NotesDatabase.self)
        let clock = try container.resolve((any NotesClock).self)
        let handWired = HandWiredScopeMiddleware(database: database, clock: clock, audit: audit)
        NotesRoutes.add(to: router.group("hand/notes").add(middleware: handWired))
        NotesRoutes.add(
            to: router.group("scope-only/notes").add(
                middleware: ScopeOnlyMiddleware(container: container, handWired: handWired)
            )
        )
        for nanoseconds in Self.calibrationNanoseconds {
            let calibration = CalibrationMiddleware(handWired: handWired, extraWork: .nanoseconds(nanoseconds))
            NotesRoutes.add(to: router.group("calibrate/\(nanoseconds)/notes").add(middleware: calibration))
        }
        return router
    }

    /// The extra CPU time of the calibration routes, in nanoseconds a request.
    public static let calibrationNanoseconds = [250, 500, 1000, 2000]

    /// The HTTP application on 127.0.0.1, with the database and the maintenance job as services of
    /// its `ServiceGroup`: at graceful shutdown the server stops first (in-flight requests finish),
    /// then the maintenance job, then the database's final checkpoint.
    public func makeApplication(
        onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) throws -> some ApplicationProtocol {
        let database = try container.resolve(NotesDatabase.self)
        let maintenance = try container.resolve(MaintenanceService.self)
        let idleTimeout = options.idleTimeout.map { TimeAmount.nanoseconds(Self.nanoseconds(in: $0)) }
        return Application(
            router: try makeRouter(),
            server: .http1(configuration: .init(idleTimeout: idleTimeout)),
            configuration: .init(address: .hostname("127.0.0.1", port: options.port), serverName: "NotesServer"),
            services: [database, maintenance],
            onServerRunning: onServerRunning,
            logger: logger
        )
    }

    /// The service group that runs `application`: a graceful shutdown on `signals` (or on
    /// `triggerGracefulShutdown()`) lets requests in flight finish for `options.shutdownGracePeriod`
    /// at most, then cancels them, so that no client can keep the server from stopping. If it had
    /// to cancel them, its `run()` throws `CancellationError`; otherwise it returns.
    public func makeServiceGroup(
        running application: some ApplicationProtocol,
        gracefulShutdownSignals signals: [UnixSignal]
    ) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(
            services: [CancellationReportingService(application)],
            gracefulShutdownSignals: signals,
            logger: logger
        )
        configuration.maximumGracefulShutdownDuration = options.shutdownGracePeriod
        return ServiceGroup(configuration: configuration)
    }

    /// `duration` in whole nanoseconds, as NIO's `TimeAmount` takes it.
    static func nanoseconds(in duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// Runs until SIGTERM or SIGINT, then shuts the container down: singletons are disposed in
    /// reverse order of completion, the maintenance job before the database it uses.
    public func run() async throws {
        logger.info("data directory: \(options.dataDirectory)")
        let application = try makeApplication()
        do {
            try await makeServiceGroup(running: application, gracefulShutdownSignals: [.sigterm, .sigint]).run()
        } catch is CancellationError {
            // The graceful shutdown outlasted its grace period, and the group cancelled what still ran.
            logger.warning(
                "graceful shutdown took longer than \(options.shutdownGracePeriod): the requests still in flight were cancelled"
            )
        } catch {
            logger.error("server stopped: \(error)")
            try await container.shutdownAsync()
            throw error
        }
        try await container.shutdownAsync()
        let totals = audit.snapshot
        logger.info(
            "container shut down",
            metadata: ["scopes.opened": "\(totals.opened)", "scopes.open": "\(totals.open)"]
        )
    }
}

/// Runs a service, and throws `CancellationError` if it returns after it was cancelled.
///
/// When a graceful shutdown outlasts its grace period, the `ServiceGroup` cancels the application,
/// and its `run()` then ends as the application's `run()` did: it throws what that threw, and
/// returns if that returned. Which one it is, is not determined. The application runs its services
/// (the server, the date cache, the maintenance job, the database) in a `ServiceGroup` of its own,
/// which, cancelled in the middle of its graceful shutdown, moves on to the next service each time
/// any of them returns and stops at the first one that throws. The database throws
/// `CancellationError` (a cancelled task gets no final checkpoint), the others return: whether that
/// error is seen, or dropped because their returns ended the loop first, depends on the order in
/// which they finish. A cancelled run is therefore made an error here, every time, so that
/// `NotesServer.run()` can tell a shutdown that finished in time from one that cancelled requests.
struct CancellationReportingService<Wrapped: Service>: Service, CustomStringConvertible {
    let wrapped: Wrapped

    init(_ wrapped: Wrapped) {
        self.wrapped = wrapped
    }

    func run() async throws {
        try await wrapped.run()
        try Task.checkCancellation()
    }

    /// The wrapped service's name, which the group's log messages show.
    var description: String { "\(wrapped)" }
}
