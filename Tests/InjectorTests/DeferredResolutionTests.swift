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
import Testing

@testable import Injector

// Lazy<Service> and ServiceProvider<Service>: resolution injected to happen later.

private final class Exporter: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class Transaction: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}
private final class Handler: Sendable {
    let exporter: Lazy<Exporter>
    let transactions: ServiceProvider<Transaction>
    init(exporter: Lazy<Exporter>, transactions: ServiceProvider<Transaction>) {
        self.exporter = exporter
        self.transactions = transactions
    }
}
private final class LazyExporterHolder: Sendable {
    let exporter: Lazy<Exporter>
    init(exporter: Lazy<Exporter>) { self.exporter = exporter }
}
private final class Mailer: Sendable {
    let transactions: ServiceProvider<Transaction>
    init(transactions: ServiceProvider<Transaction>) { self.transactions = transactions }
}

private func registerHandler(in container: Container, exporterCalls: CallCounter, transactionScope: Scope) {
    let transactionCalls = CallCounter()
    container.register(Exporter.self) { _ in Exporter(serial: exporterCalls.next()) }
    container.register(Transaction.self, scope: transactionScope) { _ in Transaction(serial: transactionCalls.next()) }
    container.register(Handler.self, scope: .scoped) { r in
        try Handler(exporter: r.resolve(), transactions: r.resolve())
    }
}

struct DeferredResolutionTests {
    /// A Lazy resolves on first use, once.
    @Test func lazyResolvesOnFirstUseOnce() throws {
        let container = Container()
        let exporterCalls = CallCounter()
        registerHandler(in: container, exporterCalls: exporterCalls, transactionScope: .transient)
        let scope = container.makeScope()

        let handler = try scope.resolve(Handler.self)
        #expect(exporterCalls.count == 0)
        let first = try handler.exporter.value
        let second = try handler.exporter.value

        #expect(first === second)
        #expect(exporterCalls.count == 1)
    }

    /// Threads racing for a Lazy's first value get one instance, built once: the others wait for
    /// it, rather than each building one that is then dropped (a disposable one never disposed).
    @Test func lazyRacedForItsFirstValueBuildsItOnce() async throws {
        let container = Container()
        let exporterCalls = CallCounter()
        container.register(Exporter.self) { _ in
            Thread.sleep(forTimeInterval: 0.02)
            return Exporter(serial: exporterCalls.next())
        }
        container.register(LazyExporterHolder.self) { r in try LazyExporterHolder(exporter: r.resolve()) }
        let holder = try container.resolve(LazyExporterHolder.self)
        let start = DispatchSemaphore(value: 0)
        let serials = Guarded<[Int]>([])
        var bodies: [@Sendable () -> Void] = (0..<6).map { _ in
            {
                start.wait()
                if let exporter = try? holder.exporter.value { serials.withLock { $0.append(exporter.serial) } }
            }
        }
        bodies.append { for _ in 0..<6 { start.signal() } }

        #expect(await onThreads(seconds: 30, bodies))
        #expect(exporterCalls.count == 1)
        #expect(serials.current == Array(repeating: 1, count: 6))
    }

    /// A thread that waits for a Lazy's first value while the thread resolving it waits for one
    /// this thread is building would wait for ever: it is refused with `circularWait` instead.
    @Test func aLazyWaitThatCouldNeverEndIsACircularWait() async throws {
        let container = Container()
        let holder = Guarded<LazyExporterHolder?>(nil)
        let (building, isFirstBuild) = (DispatchSemaphore(value: 0), Guarded(true))
        let failure = Guarded<InjectionError?>(nil)
        container.register(Exporter.self) { r in
            _ = try r.resolve(Mailer.self)  // waits at the gate of the singleton the other thread builds
            return Exporter(serial: 0)
        }
        container.register(Mailer.self, scope: .singleton) { r in
            let isFirst = isFirstBuild.withLock { first in
                defer { first = false }
                return first
            }
            if isFirst {
                building.signal()
                let builder = InstanceGates.Owner.currentThread
                _ = waitedUntil { !InstanceGates.waits(forGatesHeldBy: builder).isEmpty }
            }
            do {
                _ = try holder.current?.exporter.value  // the other thread is resolving it
            } catch let error as InjectionError {
                failure.withLock { $0 = $0 ?? error }
                throw error
            }
            return try Mailer(transactions: r.resolve())
        }
        container.register(Transaction.self) { _ in Transaction(serial: 0) }
        container.register(LazyExporterHolder.self) { r in try LazyExporterHolder(exporter: r.resolve()) }
        holder.set(try container.resolve(LazyExporterHolder.self))

        let ended = await onThreads(
            seconds: 60,
            [
                { _ = try? container.resolve(Mailer.self) },
                {
                    _ = waited(for: building)
                    _ = try? holder.current?.exporter.value
                },
            ]
        )
        #expect(ended)
        #expect(failure.current?.code == .circularWait)
        #expect(
            failure.current?.message
                == "Resolving Exporter would wait forever: this resolution (Mailer -> Exporter) needs the Exporter"
                + " that another thread's resolution is building, and that one (Exporter -> Mailer) waits for the"
                + " Mailer that this resolution is building. Each holds a shared instance it has not finished"
                + " while it waits for the other's, so neither can go on; this one stops instead of waiting, and"
                + " releases what it holds. Fix: let one of them resolve the other's service first, or before"
                + " starting the other thread's work, or ask for it later through Lazy<T> or ServiceProvider<T>."
        )
    }

    /// A cancelled task does not wait for another thread's first resolve of a Lazy: it stops with
    /// `resolutionCancelled`, in words about the Lazy, and the other thread's value is kept.
    @Test func aCancelledTaskStopsWaitingForALazysFirstValue() async throws {
        let container = Container()
        let (building, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        container.register(Exporter.self) { _ in
            building.signal()
            _ = waited(for: release)
            return Exporter(serial: 1)
        }
        container.register(LazyExporterHolder.self) { r in try LazyExporterHolder(exporter: r.resolve()) }
        let holder = try container.resolve(LazyExporterHolder.self)
        let first = Thread { _ = try? holder.exporter.value }
        first.start()
        _ = waited(for: building)

        let cancelled = Task.detached {
            withUnsafeCurrentTask { $0?.cancel() }
            return injectionError { try holder.exporter.value }
        }
        let error = try #require(await cancelled.value)
        release.signal()

        #expect(error.code == .resolutionCancelled)
        #expect(
            error.message
                == "Resolving Exporter was cancelled: the task was cancelled while another resolution resolves the"
                + " first value of a Lazy<Exporter>: a cancelled task does not wait for it. Nothing was resolved for"
                + " this access; the value is resolved once, by a task that is not cancelled. Fix: nothing, if the"
                + " task was meant to stop; otherwise, do not cancel it while it resolves."
        )
        #expect(try holder.exporter.value.serial == 1)
    }

    /// A ServiceProvider resolves anew each time, in the scope it came from: a scoped service is
    /// that scope's instance.
    @Test func serviceProviderResolvesEachTimeInItsScope() throws {
        let container = Container()
        registerHandler(in: container, exporterCalls: CallCounter(), transactionScope: .scoped)
        let first = container.makeScope()
        let second = container.makeScope()

        let handler = try first.resolve(Handler.self)
        let transaction = try handler.transactions.resolve()

        #expect(try handler.transactions.resolve() === transaction)
        #expect(try first.resolve(Transaction.self) === transaction)
        #expect(try second.resolve(Transaction.self) !== transaction)
    }

    /// Once its scope is closed, a handle fails with scopeClosed.
    @Test func handleFailsOnceItsScopeIsClosed() throws {
        let container = Container()
        registerHandler(in: container, exporterCalls: CallCounter(), transactionScope: .scoped)
        let scope = container.makeScope(tag: "request")
        let handler = try scope.resolve(Handler.self)
        try scope.close()

        let error = try #require(injectionError { try handler.transactions.resolve() })

        #expect(error.code == .scopeClosed)
        #expect(
            error.message
                == "A Lazy or ServiceProvider resolved Transaction from the scope \"request\" after the scope was"
                + " closed; its instances are disposed, and a handle does not keep its scope open. Fix: use the"
                + " handle only while its scope is open, or resolve Transaction before closing the scope."
        )
    }

    /// A singleton holding a handle resolves from the container, never from the scope the
    /// singleton happened to be built in: it still resolves once that scope is closed. (A handle to
    /// a scoped service is refused: `aSingletonHoldingAHandleToAScopedServiceIsACaptiveDependency`.)
    @Test func handleHeldByASingletonResolvesFromTheContainer() throws {
        let container = Container()
        container.register(Transaction.self) { _ in Transaction(serial: 1) }
        container.register(Mailer.self, scope: .singleton) { r in try Mailer(transactions: r.resolve()) }
        let scope = container.makeScope()

        let mailer = try scope.resolve(Mailer.self)
        try scope.close()

        #expect(try mailer.transactions.resolve().serial == 1)
    }

    /// Validation checks what a handle would resolve: a missing dependency behind it is reported.
    @Test func validationChecksWhatAHandleResolves() throws {
        let container = Container()
        container.register(Mailer.self, scope: .singleton) { r in try Mailer(transactions: r.resolve()) }

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(error.problems.first?.message.hasPrefix("No registration for Transaction, needed by Mailer") == true)
    }

    /// A handle does not keep its container alive; used after the container is gone, it says so.
    @Test func handleOutlivingItsContainerFails() throws {
        var container: Container? = Container()
        container!.register(Transaction.self) { _ in Transaction(serial: 1) }
        let transactions = try container!.resolve(ServiceProvider<Transaction>.self)
        container = nil

        let error = try #require(injectionError { try transactions.resolve() })

        #expect(error.code == .resolverOutlivedResolution)
        #expect(
            error.message
                == "A Lazy or ServiceProvider resolved Transaction after its container was released; it does not"
                + " keep the container alive. Fix: keep the container for as long as the services holding such"
                + " handles."
        )
    }
}

private final class Parent: Sendable {
    let child: Lazy<Child>
    init(child: Lazy<Child>) { self.child = child }
}
private final class Child: Sendable {
    let parent: Parent
    init(parent: Parent) { self.parent = parent }
}

extension DeferredResolutionTests {
    /// A Lazy breaks a constructor cycle, and validation does not report the cycle it breaks.
    @Test func lazyBreaksACycleThatValidationAccepts() throws {
        let container = Container()
        container.register(Parent.self, scope: .singleton) { r in try Parent(child: r.resolve()) }
        container.register(Child.self) { r in try Child(parent: r.resolve()) }

        try container.validate()
        let parent = try container.resolve(Parent.self)

        #expect(try parent.child.value.parent === parent)
    }
}

private final class Pool: Sendable {}
private final class PoolUser: Sendable {
    let pool: Lazy<Pool>
    init(pool: Lazy<Pool>) { self.pool = pool }
}

/// What a Lazy of a service with an async factory says, resolved along `path`.
private func lazyOfAsyncPoolMessage(path: String?, subject: String = "Pool") -> String {
    "\(subject) has an async factory, which a Lazy cannot run: its value is read synchronously."
        + (path.map { " Path: \($0)." } ?? "")
        + " Fix: hold a ServiceProvider<Pool> instead and call try await resolveAsync() where Pool is"
        + " needed (a shared one is built once), or resolve Pool with try await resolveAsync before it is needed."
}

extension DeferredResolutionTests {
    /// A Lazy reads its value synchronously, so one of a service with an async factory could never
    /// be read: resolving it fails at once, sync or async, rather than at its first use.
    @Test func aLazyOfAServiceWithAnAsyncFactoryIsRefusedWhenResolved() async throws {
        let container = Container()
        container.register(Pool.self, scope: .singleton) { _ async in Pool() }
        container.register(PoolUser.self) { r in try PoolUser(pool: r.resolve()) }

        let sync = try #require(injectionError { _ = try container.resolve(PoolUser.self) })
        #expect(sync.code == .asyncResolutionRequired)
        #expect(sync.message == lazyOfAsyncPoolMessage(path: "PoolUser -> Pool"))
        #expect(sync.resolutionPath.map(\.description) == ["PoolUser", "Pool"])

        let async = try #require(await injectionErrorAsync { try await container.resolveAsync(Lazy<Pool>.self) })
        #expect(async.code == .asyncResolutionRequired)
        #expect(async.message == lazyOfAsyncPoolMessage(path: nil))
        #expect(async.resolutionPath.map(\.description) == ["Pool"])
    }

    /// Validation reports it too, without running a factory.
    @Test func validationReportsALazyOfAServiceWithAnAsyncFactory() throws {
        let container = Container()
        container.register(Pool.self, scope: .singleton) { _ async in Pool() }
        container.register(PoolUser.self) { r in try PoolUser(pool: r.resolve()) }

        let error = try #require(injectionError { try container.validate() })
        #expect(error.code == .validationFailed)
        #expect(error.message == "Validation found 1 problem:\n- " + lazyOfAsyncPoolMessage(path: "PoolUser -> Pool"))
        #expect(error.problems.map(\.code) == [.asyncResolutionRequired])
    }

    /// A Lazy made before its service was registered with an async factory says the same when read.
    @Test func aLazyReadAfterItsServiceGotAnAsyncFactorySaysALazyCannotRunIt() throws {
        let container = Container()
        let lazy = try container.resolve(Lazy<Pool>.self)
        container.register(Pool.self) { _ async in Pool() }

        let error = try #require(injectionError { _ = try lazy.value })
        #expect(error.code == .asyncResolutionRequired)
        #expect(error.message == lazyOfAsyncPoolMessage(path: nil))
        #expect(error.resolutionPath.map(\.description) == ["Pool"])
    }

    /// A declared registration's Lazy parameter is checked from its declaration alike.
    @Test func validationReportsADeclaredLazyOfAServiceWithAnAsyncFactory() async throws {
        let container = Container()
        container.register(Pool.self, scope: .singleton) { _ async in Pool() }
        let line: UInt = #line + 1
        container.register(PoolUser.self, PoolUser.init(pool:))
        let expected = lazyOfAsyncPoolMessage(
            path: "PoolUser -> Pool",
            subject:
                "Pool, the 1st parameter of PoolUser (declared at InjectorTests/DeferredResolutionTests.swift:\(line)),"
        )

        let error = try #require(injectionError { try container.validate() })
        #expect(error.code == .validationFailed)
        #expect(error.message == "Validation found 1 problem:\n- " + expected)
        let resolved = try #require(injectionError { _ = try container.resolve(PoolUser.self) })
        #expect(resolved.code == .asyncResolutionRequired)
        #expect(resolved.message == expected)
    }
}

private final class Session: Sendable {}
private final class Notifier: Sendable {
    let sessions: ServiceProvider<Session>?
    let session: Lazy<Session>?
    init(sessions: ServiceProvider<Session>?, session: Lazy<Session>?) {
        self.sessions = sessions
        self.session = session
    }
}

extension DeferredResolutionTests {
    /// A singleton's handle resolves from the container, where a scoped service cannot be resolved:
    /// a handle to one would fail on every use, so it is refused when the singleton is built, as a
    /// captive dependency.
    @Test(arguments: [false, true])
    func aSingletonHoldingAHandleToAScopedServiceIsACaptiveDependency(lazy: Bool) throws {
        let container = Container()
        container.register(Session.self, scope: .scoped) { _ in Session() }
        container.register(Notifier.self, scope: .singleton) { r in
            lazy
                ? Notifier(sessions: nil, session: try r.resolve(Lazy<Session>.self))
                : Notifier(sessions: try r.resolve(ServiceProvider<Session>.self), session: nil)
        }
        let handle = lazy ? "a Lazy<Session>" : "a ServiceProvider<Session>"
        let message =
            "Captive dependency: Notifier (.singleton) holds \(handle), which resolves from the container, where"
            + " Session (.scoped) cannot be resolved: every use would fail. Path: Notifier -> Session. Fix: pass"
            + " Session to the methods of Notifier that use it rather than hold a handle to it, or give Notifier"
            + " a scope no longer than Session's (.scoped or .transient)."

        let error = try #require(injectionError { try container.withScope { try $0.resolve(Notifier.self) } })
        #expect(error.code == .captiveDependency)
        #expect(error.message == message)
        #expect(error.resolutionPath.map(\.description) == ["Notifier", "Session"])

        let validation = try #require(injectionError { try container.validate() })
        #expect(validation.message == "Validation found 1 problem:\n- " + message)
    }

    /// A declared singleton's handle to a scoped service is reported from its declaration alike.
    @Test func aDeclaredSingletonHoldingAHandleToAScopedServiceIsACaptiveDependency() throws {
        let container = Container()
        container.register(Session.self, scope: .scoped) { _ in Session() }
        container.register(Notifier.self, scope: .singleton, Notifier.init(sessions:session:))

        let resolved = try #require(injectionError { try container.withScope { try $0.resolve(Notifier.self) } })
        #expect(resolved.code == .captiveDependency)
        let validation = try #require(injectionError { try container.validate() })
        #expect(validation.message == "Validation found 1 problem:\n- " + resolved.message)
        #expect(resolved.message.contains("holds a ServiceProvider<Session>"), "\(resolved.message)")
    }
}

private final class SessionFactory: Sendable {
    let session: Session
    init(session: Session) { self.session = session }
}
private final class Outbox: Sendable {
    let factories: Lazy<SessionFactory>
    init(factories: Lazy<SessionFactory>) { self.factories = factories }
}
private final class Dispatcher: Sendable {
    let factories: ServiceProvider<SessionFactory>
    init(factories: ServiceProvider<SessionFactory>) { self.factories = factories }
}
private final class Courier: Sendable {
    let outbox: Outbox
    init(outbox: Outbox) { self.outbox = outbox }
}
private final class Registry: Sendable {
    let dispatchers: Lazy<Dispatcher>
    init(dispatchers: Lazy<Dispatcher>) { self.dispatchers = dispatchers }
}

extension DeferredResolutionTests {
    /// The message of a singleton `holder` whose handle `handle` leads, along `path`, to the scoped
    /// `Session`.
    private func handleToScopedNeedMessage(holder: String, handle: String, path: String) -> String {
        "Captive dependency: \(holder) (.singleton) holds a \(handle), which resolves from the container, where"
            + " Session (.scoped) cannot be resolved: every use would fail. Path: \(path). Fix: pass Session to the"
            + " methods of \(holder) that use it rather than hold a handle to it, or give \(holder) a scope no"
            + " longer than Session's (.scoped or .transient)."
    }

    /// A singleton's handle to a transient service that needs a scoped one resolves from the
    /// container, where the scoped one cannot be resolved: `validate()` reports it, with the path
    /// through the handle, for closure registrations.
    @Test func validationReportsASingletonsHandleToAServiceThatNeedsAScopedOne() throws {
        let container = Container()
        container.register(Session.self, scope: .scoped) { _ in Session() }
        container.register(SessionFactory.self) { r in SessionFactory(session: try r.resolve(Session.self)) }
        container.register(Dispatcher.self, scope: .singleton) { r in
            Dispatcher(factories: try r.resolve(ServiceProvider<SessionFactory>.self))
        }

        let error = try #require(injectionError { try container.validate() })
        let message = handleToScopedNeedMessage(
            holder: "Dispatcher",
            handle: "ServiceProvider<SessionFactory>",
            path: "Dispatcher -> SessionFactory -> Session"
        )
        #expect(error.code == .validationFailed)
        #expect(error.message == "Validation found 1 problem:\n- " + message)
        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(error.problems.first?.resolutionPath.map(\.description) == ["Dispatcher", "SessionFactory", "Session"])
    }

    /// The same through a transient built under the singleton that holds a `Lazy`, and through a
    /// handle behind the handle.
    @Test func validationReportsAHandleToAScopedNeedHeldUnderASingletonOrBehindAnotherHandle() throws {
        let container = Container()
        container.register(Session.self, scope: .scoped) { _ in Session() }
        container.register(SessionFactory.self) { r in SessionFactory(session: try r.resolve(Session.self)) }
        container.register(Outbox.self) { r in Outbox(factories: try r.resolve(Lazy<SessionFactory>.self)) }
        container.register(Courier.self, scope: .singleton) { r in Courier(outbox: try r.resolve(Outbox.self)) }
        container.register(Dispatcher.self) { r in
            Dispatcher(factories: try r.resolve(ServiceProvider<SessionFactory>.self))
        }
        container.register(Registry.self, scope: .singleton) { r in
            Registry(dispatchers: try r.resolve(Lazy<Dispatcher>.self))
        }

        let error = try #require(injectionError { try container.validate() })
        let courier = handleToScopedNeedMessage(
            holder: "Courier",
            handle: "Lazy<SessionFactory>",
            path: "Courier -> Outbox -> SessionFactory -> Session"
        )
        let registry = handleToScopedNeedMessage(
            holder: "Registry",
            handle: "Lazy<Dispatcher>",
            path: "Registry -> Dispatcher -> SessionFactory -> Session"
        )
        #expect(error.message == "Validation found 2 problems:\n- " + courier + "\n- " + registry)
    }

    /// Declared registrations alike, from their declarations.
    @Test func validationReportsADeclaredSingletonsHandleToAServiceThatNeedsAScopedOne() throws {
        let container = Container()
        container.register(Session.self, scope: .scoped) { _ in Session() }
        container.register(SessionFactory.self, SessionFactory.init(session:))
        container.register(Dispatcher.self, scope: .singleton, Dispatcher.init(factories:))

        let error = try #require(injectionError { try container.validate() })
        #expect(error.problems.map(\.code) == [.captiveDependency])
        #expect(
            error.problems.first?.message
                == handleToScopedNeedMessage(
                    holder: "Dispatcher",
                    handle: "ServiceProvider<SessionFactory>",
                    path: "Dispatcher -> SessionFactory -> Session"
                )
        )
    }

    /// Behind a handle only what the container cannot resolve is reported: a cycle the handle breaks
    /// and a dependency on another singleton are fine, closure or declared.
    @Test func aHandleThatBreaksACycleOrReachesASingletonPassesValidation() throws {
        let container = Container()
        container.register(Session.self, scope: .singleton) { _ in Session() }
        container.register(SessionFactory.self) { r in
            _ = try r.resolve(Dispatcher.self)
            return SessionFactory(session: try r.resolve(Session.self))
        }
        container.register(Dispatcher.self, scope: .singleton) { r in
            Dispatcher(factories: try r.resolve(ServiceProvider<SessionFactory>.self))
        }
        #expect(try container.validate().unchecked.isEmpty)

        let declared = Container()
        declared.register(Session.self, scope: .singleton) { _ in Session() }
        declared.register(SessionFactory.self, SessionFactory.init(session:))
        declared.register(Outbox.self, scope: .singleton, Outbox.init(factories:))
        declared.register(Courier.self, Courier.init(outbox:))
        #expect(try declared.validate().unchecked.isEmpty)
    }
}

private struct RequestInfo: Sendable { let id: Int }
private final class RequestLog: Sendable {
    let info: RequestInfo
    init(info: RequestInfo) { self.info = info }
}
private final class Auditor: Sendable {
    let logs: ServiceProvider<RequestLog>
    init(logs: ServiceProvider<RequestLog>) { self.logs = logs }
}

extension DeferredResolutionTests {
    /// Behind a singleton's handle, a value given to scopes, declared or only among the samples,
    /// cannot be resolved either.
    @Test(arguments: [false, true])
    func validationReportsASingletonsHandleToAServiceThatNeedsAScopesValue(declaresTheValue: Bool) throws {
        let container = Container()
        if declaresTheValue { container.register(RequestInfo.self, providedByScope: nil) }
        container.register(RequestLog.self) { r in RequestLog(info: try r.resolve(RequestInfo.self)) }
        container.register(Auditor.self, scope: .singleton) { r in
            Auditor(logs: try r.resolve(ServiceProvider<RequestLog>.self))
        }

        let error = try #require(
            injectionError { try container.validate(providing: { $0.provide(RequestInfo.self, RequestInfo(id: 1)) }) }
        )
        #expect(
            error.message
                == "Validation found 1 problem:\n- Captive dependency: Auditor (.singleton) holds a"
                + " ServiceProvider<RequestLog>, which resolves from the container, where RequestInfo (.scoped)"
                + " cannot be resolved: every use would fail. Path: Auditor -> RequestLog -> RequestInfo. Fix: pass"
                + " RequestInfo to the methods of Auditor that use it rather than hold a handle to it, or give"
                + " Auditor a scope no longer than RequestInfo's (.scoped or .transient)."
        )
    }
}
