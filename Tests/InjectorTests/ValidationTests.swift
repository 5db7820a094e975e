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

import Testing

@testable import Injector

// validate() and validateAsync(): every problem at once, each reported once, in a sandbox that
// leaves the container's instances alone and disposes what it built.

private final class ValClock: Sendable {
    let serial: Int
    init(serial: Int = 0) { self.serial = serial }
}
private final class ValNoteStore: Sendable {
    let clock: ValClock
    init(clock: ValClock) { self.clock = clock }
}
private final class ValEditor: Sendable {}
private struct ValNote {}
private final class ValLogger: Sendable {}
private final class ValChicken: Sendable {}
private final class ValEgg: Sendable {}
private final class ValRequestContext: Sendable {
    let serial: Int
    init(serial: Int = 0) { self.serial = serial }
}
private final class ValCache: Sendable {}
private final class ValDatabase: Sendable {}
private final class ValReport: Sendable {}
private final class ValBroken: Sendable {}
private final class ValAuditLog: Sendable {}
private final class ValSessionState: Sendable {}
private struct ValPoint {}

private struct ValDiskFull: Error, CustomStringConvertible {
    var description: String { "disk full" }
}

/// Records its disposal in a log, under its name.
private final class ValResource: Disposable, Sendable {
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func dispose() { log.record("dispose \(name)") }
}
/// Only an async disposal can dispose it.
private final class ValConnection: AsyncDisposable, Sendable {
    let name: String
    let log: EventLog
    init(_ name: String, log: EventLog) {
        self.name = name
        self.log = log
    }
    func disposeAsync() async { log.record("dispose \(name)") }
}

extension ScopeTag {
    fileprivate static let valRequest: ScopeTag = "request"
    fileprivate static let valSession: ScopeTag = "session"
}

/// This file as `#fileID` names it in registration sites.
private let valFile = "InjectorTests/ValidationTests.swift"

private func valKey<Service>(_ service: Service.Type, name: String? = nil) -> ServiceKey {
    ServiceKey(service, name: name)
}

/// The end of a missing-registration message when nothing at all is registered for `type`.
private func valNothingRegistered(_ type: String) -> String {
    " Nothing is registered for \(type) under any name or arguments. Fix: register it, e.g."
        + " container.register(\(type).self) { r in … }, in this container or one of its parents."
}

@Suite struct ValidationTests {
    // MARK: A clean graph

    /// A clean graph validates without throwing; the report lists what was checked, in
    /// registration order, and what was not, with the reason, and says so in its description.
    @Test func cleanGraphValidatesSilentlyAndReportsWhatItChecked() throws {
        let container = Container()
        container.register(ValClock.self, scope: .singleton) { _ in ValClock() }
        container.register(ValNoteStore.self, scope: .singleton) { r in
            try ValNoteStore(clock: r.resolve(ValClock.self))
        }
        container.register(ValEditor.self) { (_, _: ValNote) in ValEditor() }
        container.register(ValDatabase.self, scope: .singleton) { _ async in ValDatabase() }
        container.register(ValReport.self) { r in
            _ = try r.resolve(ValNoteStore.self)
            return ValReport()
        }

        let report = try container.validate()

        #expect(report.checked == [valKey(ValClock.self), valKey(ValNoteStore.self), valKey(ValReport.self)])
        #expect(
            report.unchecked.map(\.key) == [
                ServiceKey(ValEditor.self, arguments: ValNote.self, name: nil), valKey(ValDatabase.self),
            ]
        )
        #expect(report.unchecked.map(\.reason) == [.needsArguments, .asyncFactory])
        #expect(report.unchecked.map(\.reason.description) == ["needsArguments", "asyncFactory"])
        #expect(report.undisposed.isEmpty)
        #expect(
            report.description == """
                Validated 3 registrations.
                Not checked:
                - ValEditor (argument: ValNote): needs resolve-time arguments
                - ValDatabase: has an async factory; validateAsync() checks it
                """
        )
    }

    // MARK: Every problem, once

    /// A graph with a duplicate, a missing dependency, a cycle, a captive dependency, an async
    /// registration needed by a sync factory and a throwing factory reports exactly those six.
    /// A duplicate that another registration depends on is one problem: found in the registry, and
    /// met again by the dependent's resolution, it is reported once, as the registry found it.
    @Test func duplicateADependentAsksForIsReportedOnce() throws {
        let container = Container()
        let firstLine = #line + 1
        container.register(ValClock.self) { _ in ValClock(serial: 1) }
        let secondLine = #line + 1
        container.register(ValClock.self) { _ in ValClock(serial: 2) }
        container.register(ValNoteStore.self) { r in try ValNoteStore(clock: r.resolve(ValClock.self)) }

        let error = try #require(injectionError { try container.validate() })

        let duplicate =
            "ValClock is registered 2 times: at \(valFile):\(firstLine), then at \(valFile):\(secondLine)."
            + " Fix: remove all but one; give them different names if each is needed (resolveAll collects"
            + " them); or pass replacesExisting: true to the one meant to replace the others, as a test does"
            + " when it swaps in a double."
        #expect(error.code == .validationFailed)
        #expect(error.problems.map(\.code) == [.duplicateRegistration])
        #expect(error.problems.map(\.message) == [duplicate])
        #expect(error.problems.first?.resolutionPath == [])
        #expect(error.message == "Validation found 1 problem:\n- " + duplicate)
    }

    @Test func everyProblemIsReportedAtOnce() throws {
        let container = Container()
        let firstLoggerLine = #line + 1
        container.register(ValLogger.self) { _ in ValLogger() }
        let secondLoggerLine = #line + 1
        container.register(ValLogger.self) { _ in ValLogger() }
        container.register(ValEditor.self) { r in
            _ = try r.resolve(ValClock.self)
            return ValEditor()
        }
        container.register(ValChicken.self) { r in
            _ = try r.resolve(ValEgg.self)
            return ValChicken()
        }
        container.register(ValEgg.self) { r in
            _ = try r.resolve(ValChicken.self)
            return ValEgg()
        }
        container.register(ValRequestContext.self, scope: .scoped) { _ in ValRequestContext() }
        container.register(ValCache.self, scope: .singleton) { r in
            _ = try r.resolve(ValRequestContext.self)
            return ValCache()
        }
        container.register(ValDatabase.self) { _ async in ValDatabase() }
        container.register(ValReport.self) { r in
            _ = try r.resolve(ValDatabase.self)
            return ValReport()
        }
        container.register(ValBroken.self) { _ in throw ValDiskFull() }

        let error = try #require(injectionError { try container.validate() })

        #expect(error.code == .validationFailed)
        let expected: [(InjectionError.Code, String)] = [
            (
                .duplicateRegistration,
                "ValLogger is registered 2 times: at \(valFile):\(firstLoggerLine), then at"
                    + " \(valFile):\(secondLoggerLine). Fix: remove all but one; give them different names if each is"
                    + " needed (resolveAll collects them); or pass replacesExisting: true to the one meant to replace"
                    + " the others, as a test does when it swaps in a double."
            ),
            (
                .missingRegistration,
                "No registration for ValClock, needed by ValEditor -> ValClock (missing)."
                    + valNothingRegistered("ValClock")
            ),
            (
                .circularDependency,
                "Circular dependency: ValChicken -> ValEgg -> ValChicken. Each of these asks for"
                    + " the next in its factory, so none of them can be built first. Fix: break the cycle with property"
                    + " injection: let one of them receive the other after construction, in an onResolved hook, and"
                    + " give the one resolved back the .graph or .singleton scope so that the hook receives the same"
                    + " instance."
            ),
            (
                .captiveDependency,
                "Captive dependency: ValCache (.singleton) depends on ValRequestContext (.scoped),"
                    + " which would then outlive its lifetime scope. Path: ValCache -> ValRequestContext. Fix: give"
                    + " ValCache a scope no longer than ValRequestContext's (.scoped or .transient), give ValRequestContext a longer one, or pass ValRequestContext to the methods of ValCache that use it rather than hold it."
            ),
            (
                .asyncResolutionRequired,
                "ValDatabase has an async factory, which a sync resolve cannot run. Path:"
                    + " ValReport -> ValDatabase. Fix: resolve it with try await resolveAsync(ValDatabase.self), from the"
                    + " container or scope you resolve from (r.resolveAsync in an async factory); a sync factory that"
                    + " needs it must become async too."
            ),
            (
                .factoryFailed,
                "The factory of ValBroken threw: disk full. The error is the underlyingError; fix the"
                    + " factory or what it depends on."
            ),
        ]
        #expect(error.problems.map(\.code) == expected.map(\.0))
        for (problem, (_, message)) in zip(error.problems, expected) {
            #expect(problem.message == message)
        }
        #expect(
            error.message == "Validation found 6 problems:\n" + expected.map { "- \($0.1)" }.joined(separator: "\n")
        )
        #expect(error.problems[1].resolutionPath == [valKey(ValEditor.self), valKey(ValClock.self)])
        #expect(error.problems[5].underlyingError is ValDiskFull)
    }

    /// A weak registration whose factory makes a value fails validation as it fails a real resolve.
    @Test func weakRegistrationMakingAValueIsReported() throws {
        let container = Container()
        container.register(ValPoint.self, scope: .weak) { _ in ValPoint() }
        let message =
            "ValPoint has the weak scope, but its factory made a value of type ValPoint, which is not a class"
            + " instance: nothing can hold it weakly. Fix: return a class instance, or register it as"
            + " .singleton or .transient."
        #expect(injectionError { try container.resolve(ValPoint.self) }?.message == message)

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.weakScopeNeedsObject])
        #expect(error.problems.first?.message == message)
    }

    /// A missing key that three services need is one problem, named with the first path that met it.
    @Test func missingKeyNeededBySeveralServicesIsReportedOnce() throws {
        let container = Container()
        container.register(ValEditor.self) { r in
            _ = try r.resolve(ValClock.self)
            return ValEditor()
        }
        container.register(ValNoteStore.self) { r in try ValNoteStore(clock: r.resolve(ValClock.self)) }
        container.register(ValReport.self) { r in
            _ = try r.resolve(ValClock.self)
            return ValReport()
        }

        let error = try #require(injectionError { try container.validate() })

        let message =
            "No registration for ValClock, needed by ValEditor -> ValClock (missing)."
            + valNothingRegistered("ValClock")
        #expect(error.code == .validationFailed)
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(error.problems.first?.message == message)
        #expect(error.message == "Validation found 1 problem:\n- " + message)
    }

    /// A registration made after finishRegistration() is reported with its own code.
    @Test func lateRegistrationIsReported() throws {
        let container = Container()
        container.register(ValClock.self) { _ in ValClock() }
        try container.finishRegistration()
        let lateLine = #line + 1
        container.register(ValEditor.self) { _ in ValEditor() }

        let error = try #require(injectionError { try container.validate() })

        #expect(error.problems.map(\.code) == [.registrationAfterFinish])
        #expect(
            error.problems.first?.message == "ValEditor was registered after finishRegistration() (at"
                + " \(valFile):\(lateLine)); the registry was already frozen. Fix: make it before"
                + " finishRegistration(), or in a child container (container.makeChild())."
        )
    }

    // MARK: The sandbox

    /// Validation runs a singleton's factory but publishes nothing: the next real resolve runs the
    /// factory again, and a singleton built before validation stays the one resolved after it.
    @Test func validationLeavesNoInstanceBehind() throws {
        let container = Container()
        let clockCalls = CallCounter()
        let contextCalls = CallCounter()
        container.register(ValClock.self, scope: .singleton) { _ in ValClock(serial: clockCalls.next()) }
        container.register(ValRequestContext.self, scope: .scoped) { _ in ValRequestContext(serial: contextCalls.next())
        }

        try container.validate()
        #expect(clockCalls.count == 1)
        #expect(contextCalls.count == 1)

        let clock = try container.resolve(ValClock.self)
        #expect(clock.serial == 2)
        #expect(try container.makeScope().resolve(ValRequestContext.self).serial == 2)

        try container.validate()
        #expect(clockCalls.count == 3)  // built afresh in the sandbox, not taken from the container
        #expect(try container.resolve(ValClock.self) === clock)
        #expect(clockCalls.count == 3)
    }

    /// An async factory that resolves through its resolver's container, in its own task or in a
    /// child task, resolves in validation's sandbox too: validateAsync() leaves the container's
    /// singletons alone, as validate() does for a sync factory.
    @Test(arguments: [false, true])
    func validateAsyncLeavesAloneTheSingletonsAFactoryResolvesThroughItsContainer(childTask: Bool) async throws {
        let container = Container()
        let clockCalls = CallCounter()
        container.register(ValClock.self, scope: .singleton) { _ in ValClock(serial: clockCalls.next()) }
        container.register(ValReport.self) { r in
            let container = try r.container
            if childTask {
                async let clock = container.resolveAsync(ValClock.self)
                _ = try await clock
            } else {
                _ = try await container.resolveAsync(ValClock.self)
            }
            return ValReport()
        }

        try await container.validateAsync()
        #expect(clockCalls.count == 1)

        #expect(try container.resolve(ValClock.self).serial == 2, "built afresh: validation published none")
    }

    /// The disposable singleton, scoped and transient instances validation built are disposed
    /// before it returns, once each; the container has none left to dispose at shutdown.
    @Test func validationDisposesTheDisposableInstancesItBuilt() throws {
        let container = Container()
        let log = EventLog()
        container.register(ValResource.self, name: "pool", scope: .singleton) { _ in ValResource("pool", log: log) }
        container.register(ValResource.self, name: "transaction", scope: .scoped) { r in
            _ = try r.resolve(ValResource.self, name: "pool")
            return ValResource("transaction", log: log)
        }
        container.register(ValResource.self, name: "session") { r in
            _ = try r.resolve(ValResource.self, name: "transaction")
            return ValResource("session", log: log)
        }

        let report = try container.validate()

        #expect(log.counts == ["dispose pool": 1, "dispose transaction": 1, "dispose session": 1])
        #expect(report.undisposed.isEmpty)
        try container.shutdown()
        #expect(log.events.count == 3)
    }

    /// Validation disposes a dependent before what it depends on, as a scope and its container
    /// would: the transient and scoped instances before the singleton they use.
    @Test func validationDisposesDependentsBeforeTheirDependencies() throws {
        let container = Container()
        let log = EventLog()
        container.register(ValResource.self, name: "pool", scope: .singleton) { _ in ValResource("pool", log: log) }
        container.register(ValResource.self, name: "session") { r in
            _ = try r.resolve(ValResource.self, name: "pool")
            return ValResource("session", log: log)
        }

        try container.validate()

        #expect(log.events == ["dispose session", "dispose pool"])
    }

    /// The sync validate() cannot dispose an AsyncDisposable-only instance: it lists it in
    /// `undisposed` and in the report's description, and leaves it alone.
    @Test func syncValidationListsAsyncOnlyDisposablesAsUndisposed() throws {
        let container = Container()
        let log = EventLog()
        container.register(ValConnection.self) { _ in ValConnection("connection", log: log) }

        let report = try container.validate()

        #expect(report.undisposed == [valKey(ValConnection.self)])
        #expect(
            report.description == """
                Validated 1 registration.
                Built but not disposed (AsyncDisposable only; use validateAsync()):
                - ValConnection
                """
        )
        #expect(log.events.isEmpty)
    }

    /// validateAsync() disposes the AsyncDisposable instances it built, and reports none undisposed.
    @Test func validateAsyncDisposesAsyncDisposables() async throws {
        let container = Container()
        let log = EventLog()
        container.register(ValConnection.self, scope: .singleton) { _ in ValConnection("singleton", log: log) }
        container.register(ValConnection.self, name: "async", scope: .scoped) { _ async in
            ValConnection("scoped", log: log)
        }

        let report = try await container.validateAsync()

        #expect(log.counts == ["dispose singleton": 1, "dispose scoped": 1])
        #expect(report.undisposed.isEmpty)
        #expect(report.checked == [valKey(ValConnection.self), valKey(ValConnection.self, name: "async")])
    }

    // MARK: What is checked

    /// Registrations scoped to a tag are resolved as if in a scope with that tag: a clean one
    /// passes (a container could not resolve it), a broken one is reported with its path.
    @Test func scopedToTagRegistrationsAreValidated() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ValRequestContext.self, scope: .scoped(to: .valRequest)) { _ in
            ValRequestContext(serial: calls.next())
        }
        container.register(ValReport.self) { r in
            _ = try r.resolve(ValRequestContext.self)
            return ValReport()
        }

        let report = try container.validate()
        #expect(report.checked == [valKey(ValRequestContext.self), valKey(ValReport.self)])
        #expect(calls.count == 1)  // one sandbox scope: the report shares the context validated first

        container.register(ValSessionState.self, scope: .scoped(to: .valSession)) { r in
            _ = try r.resolve(ValClock.self)
            return ValSessionState()
        }
        let error = try #require(injectionError { try container.validate() })
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(
            error.problems.first?.message == "No registration for ValClock, needed by ValSessionState ->"
                + " ValClock (missing)." + valNothingRegistered("ValClock")
        )
    }

    /// A child's validation sees the parent's registrations and the child's, the child's winning:
    /// a dependency the parent lacks but the child provides passes there and fails in the parent.
    @Test func childValidationSeesParentAndChildShadowing() throws {
        let parent = Container()
        let parentClocks = CallCounter()
        let childClocks = CallCounter()
        parent.register(ValClock.self) { _ in ValClock(serial: parentClocks.next()) }
        parent.register(ValNoteStore.self) { r in try ValNoteStore(clock: r.resolve(ValClock.self)) }
        parent.register(ValEditor.self) { r in
            _ = try r.resolve(ValLogger.self)
            return ValEditor()
        }
        let child = parent.makeChild()
        child.register(ValLogger.self) { _ in ValLogger() }
        child.register(ValClock.self) { _ in ValClock(serial: childClocks.next()) }

        let report = try child.validate()

        #expect(
            report.checked == [
                valKey(ValClock.self), valKey(ValNoteStore.self), valKey(ValEditor.self), valKey(ValLogger.self),
            ]
        )
        #expect(parentClocks.count == 0)
        #expect(childClocks.count == 2)  // validated itself, and for the note store

        let error = try #require(injectionError { try parent.validate() })
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(
            error.problems.first?.message == "No registration for ValLogger, needed by ValEditor -> ValLogger"
                + " (missing)." + valNothingRegistered("ValLogger")
        )
    }

    /// validateAsync() resolves async registrations, which the sync validate() lists as unchecked.
    @Test func validateAsyncChecksAsyncRegistrations() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ValDatabase.self, scope: .singleton) { _ async in
            calls.next()
            return ValDatabase()
        }
        container.register(ValReport.self) { r async throws in
            _ = try await r.resolveAsync(ValDatabase.self)
            return ValReport()
        }

        let syncReport = try container.validate()
        #expect(syncReport.checked.isEmpty)
        #expect(syncReport.unchecked.map(\.reason) == [.asyncFactory, .asyncFactory])
        #expect(calls.count == 0)

        let report = try await container.validateAsync()
        #expect(report.checked == [valKey(ValDatabase.self), valKey(ValReport.self)])
        #expect(report.unchecked.isEmpty)
        #expect(calls.count == 1)  // the report shares the sandbox's database
    }

    /// validateAsync() finds a missing dependency of an async factory, which validate() cannot see.
    @Test func validateAsyncFindsAMissingDependencyOfAnAsyncFactory() async throws {
        let container = Container()
        container.register(ValReport.self) { r async throws in
            _ = try r.resolve(ValClock.self)
            return ValReport()
        }

        #expect(try container.validate().unchecked.map(\.key) == [valKey(ValReport.self)])
        let error = try await #require(throws: InjectionError.self) { try await container.validateAsync() }

        let message =
            "No registration for ValClock, needed by ValReport -> ValClock (missing)."
            + valNothingRegistered("ValClock")
        #expect(error.code == .validationFailed)
        #expect(error.problems.map(\.code) == [.missingRegistration])
        #expect(error.problems.first?.message == message)
        #expect(error.message == "Validation found 1 problem:\n- " + message)
    }

    /// Registrations that take resolve-time arguments are not run, and are listed as unchecked.
    @Test func registrationsWithArgumentsAreListedAsUnchecked() async throws {
        let container = Container()
        let calls = CallCounter()
        container.register(ValEditor.self) { (r, _: ValNote) in
            calls.next()
            _ = try r.resolve(ValClock.self)  // missing, but never asked for
            return ValEditor()
        }
        container.register(ValReport.self, name: "pdf") { (_, _: Int, _: String) in
            calls.next()
            return ValReport()
        }

        let report = try container.validate()
        let asyncReport = try await container.validateAsync()

        let expected = [
            ServiceKey(ValEditor.self, arguments: ValNote.self, name: nil),
            ServiceKey(ValReport.self, arguments: Int.self, String.self, name: "pdf"),
        ]
        #expect(report.unchecked.map(\.key) == expected)
        #expect(report.unchecked.map(\.reason) == [.needsArguments, .needsArguments])
        #expect(asyncReport.unchecked.map(\.key) == expected)
        #expect(report.checked.isEmpty)
        #expect(calls.count == 0)
        #expect(
            report.unchecked.map(\.description) == [
                "ValEditor (argument: ValNote): needs resolve-time arguments",
                "ValReport (name: \"pdf\", arguments: Int, String): needs resolve-time arguments",
            ]
        )
    }

    /// onResolved hooks and verify checks run during validation: a hook that resolves a missing
    /// service and a check that throws are both reported.
    @Test func hooksAndChecksRunDuringValidation() throws {
        let container = Container()
        let log = EventLog()
        container.register(ValEditor.self) { _ in ValEditor() }
            .onResolved { r, _ in
                log.record("editor hook")
                _ = try r.resolve(ValAuditLog.self)
            }
        container.register(ValClock.self) { _ in ValClock() }
            .verify { _ in throw ValDiskFull() }

        let error = try #require(injectionError { try container.validate() })

        #expect(log.events == ["editor hook"])
        #expect(error.problems.map(\.code) == [.missingRegistration, .preparationFailed])
        #expect(
            error.problems.first?.message == "While running an onResolved hook of ValEditor: No registration"
                + " for ValAuditLog." + valNothingRegistered("ValAuditLog")
        )
        #expect(error.problems.first?.resolutionPath == [valKey(ValEditor.self), valKey(ValAuditLog.self)])
        #expect(
            error.problems.last?.message == "Preparing ValClock failed: a verify check threw: disk full."
                + " The error is the underlyingError."
        )
        #expect(error.problems.last?.underlyingError is ValDiskFull)
    }

    // MARK: Each check builds afresh

    /// A graph-scoped service is one instance per resolve: two transients built in one resolve share
    /// it. validate() must not report a check that holds in every real resolve as failing.
    @Test func validateDoesNotReportAGraphScopedInstanceSplitBetweenReusedTransients() throws {
        let container = Container()
        container.register(ValReuseSession.self, scope: .graph) { _ in ValReuseSession() }
        container.register(ValReuseLeft.self) { r in ValReuseLeft(session: try r.resolve(ValReuseSession.self)) }
        container.register(ValReuseRight.self) { r in ValReuseRight(session: try r.resolve(ValReuseSession.self)) }
        container.register(ValReuseRoot.self) { r in
            let root = ValReuseRoot(left: try r.resolve(ValReuseLeft.self), right: try r.resolve(ValReuseRight.self))
            guard root.left.session === root.right.session else { throw ValReuseMismatch() }
            return root
        }
        try container.finishRegistration()

        // A real resolve shares the session, so the factory never throws.
        _ = try container.resolve(ValReuseRoot.self)
        #expect(throws: Never.self) { try container.validate() }
    }

    /// The same through forwarding: `implements` registers a transient forwarder, which validation
    /// reuses, so the forwarded instance is the graph instance of an earlier check.
    @Test func validateDoesNotSplitAGraphScopedServiceFromItsForwardedProtocol() throws {
        let container = Container()
        container.register(ValReuseSession.self, scope: .graph) { _ in ValReuseSession() }
            .implements((any ValReuseSessionProtocol).self)
        container.register(ValReuseGraphHolder.self) { r in
            ValReuseGraphHolder(
                session: try r.resolve(ValReuseSession.self),
                forwarded: try r.resolve((any ValReuseSessionProtocol).self)
            )
        }
        .verify { holder in
            guard holder.session === holder.forwarded else { throw ValReuseMismatch() }
        }
        try container.finishRegistration()

        _ = try container.resolve(ValReuseGraphHolder.self)
        #expect(throws: Never.self) { try container.validate() }
    }

    /// A transient is a new instance for each holder: two holders that each attach their own node
    /// never share one. validate() must not hand the node one check built to the next holder.
    @Test func validateGivesEachHolderOfATransientItsOwnInstance() throws {
        let container = Container()
        container.register(ValReuseNode.self) { _ in ValReuseNode() }
        container.register(ValReusePanelA.self) { r in try ValReusePanelA(node: try r.resolve(ValReuseNode.self)) }
        container.register(ValReusePanelB.self) { r in try ValReusePanelB(node: try r.resolve(ValReuseNode.self)) }
        try container.finishRegistration()

        _ = try container.resolve(ValReusePanelA.self)
        _ = try container.resolve(ValReusePanelB.self)
        #expect(throws: Never.self) { try container.validate() }
    }

    // MARK: Scope tags

    /// A service that needs a "request" scope and, through a dependency, a "session" scope can be
    /// resolved in no scope: validation, whose sandbox stands for a scope of any tag, adopts the
    /// first tag a resolution asks for and reports the second as a mismatch.
    @Test func servicesNeedingScopesOfTwoTagsAreReported() throws {
        let container = Container()
        container.register(TagSession.self, scope: .scoped(to: "session")) { _ in TagSession() }
        container.register(TagRequest.self, scope: .scoped(to: "request")) { r in
            _ = try r.resolve(TagSession.self)
            return TagRequest()
        }

        let error = try #require(injectionError { try container.validate() })

        #expect(error.code == .validationFailed)
        let problem = try #require(error.problems.first)
        #expect(error.problems.count == 1)
        #expect(problem.code == .scopeMismatch)
        #expect(
            problem.message == """
                TagSession is .scoped(to: .session), but was resolved from the scope "request". \
                Path: TagRequest -> TagSession. Fix: resolve it from a scope made with \
                container.makeScope(tag: "session"), or register it as .scoped to let any scope own it.
                """
        )
        #expect(
            problem.resolutionPath == [ServiceKey(TagRequest.self, name: nil), ServiceKey(TagSession.self, name: nil)]
        )
    }
}

private final class TagSession: Sendable {}
private final class TagRequest: Sendable {}

// What the checks of a graph-scoped service and of a transient's holders must tell apart.

private final class ValReuseSession: @unchecked Sendable {}
private protocol ValReuseSessionProtocol: AnyObject {}
extension ValReuseSession: ValReuseSessionProtocol {}

private final class ValReuseLeft: @unchecked Sendable {
    let session: ValReuseSession
    init(session: ValReuseSession) { self.session = session }
}
private final class ValReuseRight: @unchecked Sendable {
    let session: ValReuseSession
    init(session: ValReuseSession) { self.session = session }
}
private final class ValReuseRoot: @unchecked Sendable {
    let left: ValReuseLeft
    let right: ValReuseRight
    init(left: ValReuseLeft, right: ValReuseRight) {
        self.left = left
        self.right = right
    }
}
private struct ValReuseMismatch: Error {}

private final class ValReuseNode: @unchecked Sendable {
    var parent: AnyObject?
    func attach(to parent: AnyObject) throws {
        guard self.parent == nil else { throw ValReuseAlreadyAttached() }
        self.parent = parent
    }
}
private struct ValReuseAlreadyAttached: Error {}
private final class ValReusePanelA: @unchecked Sendable {
    let node: ValReuseNode
    init(node: ValReuseNode) throws {
        self.node = node
        try node.attach(to: self)
    }
}
private final class ValReusePanelB: @unchecked Sendable {
    let node: ValReuseNode
    init(node: ValReuseNode) throws {
        self.node = node
        try node.attach(to: self)
    }
}

private final class ValReuseGraphHolder: @unchecked Sendable {
    let session: ValReuseSession
    let forwarded: any ValReuseSessionProtocol
    init(session: ValReuseSession, forwarded: any ValReuseSessionProtocol) {
        self.session = session
        self.forwarded = forwarded
    }
}
