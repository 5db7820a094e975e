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

// MARK: - Test doubles (private to this file)

private protocol TimeSource: Sendable { var now: Int { get } }
private struct FixedTime: TimeSource { let now: Int }

/// A transient that depends on the time source.
private struct NoteStamper { let time: any TimeSource }

/// A transient two levels above the time source.
private struct NoteEditor { let stamper: NoteStamper }

/// A singleton that depends on the time source.
private final class NoteArchive: Sendable {
    let time: any TimeSource
    init(time: any TimeSource) { self.time = time }
}

/// A shared service that depends on nothing.
private final class NoteIndex: Sendable {}

/// A scoped service that depends on the time source.
private struct DraftSession { let time: any TimeSource }

private protocol SpellChecker: Sendable { var language: String { get } }
private struct FakeSpellChecker: SpellChecker { let language: String }

private struct Greeting { let text: String }

/// Logs its disposal with the serial number its factory gave it.
private struct ArchiveConnection: Disposable {
    let serial: Int
    let log: EventLog
    func dispose() { log.record("dispose connection \(serial)") }
}

/// A disposable singleton built on the connection: disposed before it.
private struct ArchiveWriter: Disposable {
    let connection: ArchiveConnection
    func dispose() { connection.log.record("dispose writer of \(connection.serial)") }
}

/// Only an async disposal can dispose it.
private struct FlushingUploader: AsyncDisposable {
    let log: EventLog
    func disposeAsync() async { log.record("flush") }
}

private struct DisposeFailure: Error, CustomStringConvertible { var description: String { "socket already closed" } }

/// Its disposal throws, after logging that it ran.
private struct BrokenConnection: Disposable {
    let log: EventLog
    func dispose() throws {
        log.record("dispose broken")
        throw DisposeFailure()
    }
}

private struct OperationFailure: Error, Equatable { let reason: String }

/// A finished container whose time source says 0, with the stamper, editor and archive on top of
/// it, and whatever `more` registers.
private func makeNotesContainer(_ more: (Container) -> Void = { _ in }) throws -> Container {
    let container = Container()
    container.register(TimeSource.self) { _ in FixedTime(now: 0) }
    container.register(NoteStamper.self) { r in try NoteStamper(time: r.resolve(TimeSource.self)) }
    container.register(NoteEditor.self) { r in try NoteEditor(stamper: r.resolve(NoteStamper.self)) }
    container.register(NoteArchive.self, scope: .singleton) { r in try NoteArchive(time: r.resolve(TimeSource.self)) }
    more(container)
    try container.finishRegistration()
    return container
}

/// Overrides the time source with one saying `now`.
private func fixedTime(_ now: Int) -> (Container) -> Void {
    { $0.register(TimeSource.self) { _ in FixedTime(now: now) } }
}

// MARK: - Tests

@Suite struct OverrideTests {
    // MARK: Seen inside, gone after

    /// A resolve inside the sync operation gets the override; withOverrides returns what it returns.
    @Test func resolveInsideTheOperationSeesTheOverride() throws {
        let container = try makeNotesContainer()
        let now = try container.withOverrides(fixedTime(7)) { try container.resolve(TimeSource.self).now }
        #expect(now == 7)
    }

    /// In the async operation, sync and async resolves see the override, an async override too.
    @Test func resolvesInsideTheAsyncOperationSeeTheOverride() async throws {
        let container = try makeNotesContainer()
        let seen = try await container.withOverridesAsync(fixedTime(7)) {
            await Task.yield()
            return [
                try container.resolve(TimeSource.self).now, try await container.resolveAsync(NoteStamper.self).time.now,
            ]
        }
        #expect(seen == [7, 7])
        let asyncNow = try await container.withOverridesAsync {
            $0.register(TimeSource.self) { _ async in FixedTime(now: 8) }
        } operation: {
            try await container.resolveAsync(TimeSource.self).now
        }
        #expect(asyncNow == 8)
    }

    /// Before and after the call, the container's own registration is used.
    @Test func originalRegistrationIsUsedAgainAfterTheOperation() throws {
        let container = try makeNotesContainer()
        #expect(try container.resolve(NoteStamper.self).time.now == 0)
        try container.withOverrides(fixedTime(7)) { () throws in
            #expect(try container.resolve(NoteStamper.self).time.now == 7)
        }
        #expect(try container.resolve(NoteStamper.self).time.now == 0)
        #expect(try container.resolve(TimeSource.self).now == 0)
    }

    /// The sync operation's error comes out unchanged, and the override is gone afterwards.
    @Test func operationErrorPropagatesUnchangedAndTheOverrideIsGone() throws {
        let container = try makeNotesContainer()
        #expect(throws: OperationFailure(reason: "disk full")) {
            try container.withOverrides(fixedTime(7)) {
                #expect(try container.resolve(TimeSource.self).now == 7)
                throw OperationFailure(reason: "disk full")
            }
        }
        #expect(try container.resolve(TimeSource.self).now == 0)
    }

    /// The async operation's error comes out unchanged, and the override is gone afterwards.
    @Test func asyncOperationErrorPropagatesUnchangedAndTheOverrideIsGone() async throws {
        let container = try makeNotesContainer()
        await #expect(throws: OperationFailure(reason: "disk full")) {
            try await container.withOverridesAsync(fixedTime(7)) {
                await Task.yield()
                #expect(try container.resolve(TimeSource.self).now == 7)
                throw OperationFailure(reason: "disk full")
            }
        }
        #expect(try container.resolve(TimeSource.self).now == 0)
    }

    /// A transient two levels above the overridden service is built with the override.
    @Test func transientSeesAnOverrideOfItsDeepDependency() throws {
        let container = try makeNotesContainer()
        let editor = try container.withOverrides(fixedTime(7)) { try container.resolve(NoteEditor.self) }
        #expect(editor.stamper.time.now == 7)
        #expect(try container.resolve(NoteEditor.self).stamper.time.now == 0)
    }

    // MARK: Shared instances

    /// A singleton over the overridden service is built afresh inside, once for the call; the one
    /// the container built before is still the container's afterwards.
    @Test func singletonIsBuiltAfreshInsideWhileTheContainersOneIsUntouched() throws {
        let container = try makeNotesContainer()
        let before = try container.resolve(NoteArchive.self)
        let inside = try container.withOverrides(fixedTime(7)) {
            let archive = try container.resolve(NoteArchive.self)
            #expect(try container.resolve(NoteArchive.self) === archive)
            return archive
        }
        #expect(inside !== before)
        #expect(inside.time.now == 7)
        #expect(before.time.now == 0)
        #expect(try container.resolve(NoteArchive.self) === before)
    }

    /// The container's singleton, first resolved after the call, is built with its own registrations.
    @Test func containersSingletonBuiltAfterTheCallDoesNotSeeTheOverride() throws {
        let container = try makeNotesContainer()
        let inside = try container.withOverrides(fixedTime(7)) { try container.resolve(NoteArchive.self) }
        let after = try container.resolve(NoteArchive.self)
        #expect(after !== inside)
        #expect(inside.time.now == 7)
        #expect(after.time.now == 0)
        #expect(try container.resolve(NoteArchive.self) === after)
    }

    /// A singleton the container has built, whose construction resolved nothing overridden, is the
    /// container's own inside; one not built yet, whose edges no one knows, is built for the call,
    /// and nothing keeps it once the call returns.
    @Test func aBuiltSingletonNotDependingOnAnOverrideIsTheContainersAndAnUnbuiltOneIsTheCalls() throws {
        let container = try makeNotesContainer {
            $0.register(NoteIndex.self, scope: .singleton) { _ in NoteIndex() }
            $0.register(NoteIndex.self, name: "unbuilt", scope: .singleton) { _ in NoteIndex() }
        }
        let own = try container.resolve(NoteIndex.self)
        weak var inside: NoteIndex?
        try container.withOverrides(fixedTime(7)) {
            #expect(try container.resolve(NoteIndex.self) === own)
            inside = try container.resolve(NoteIndex.self, name: "unbuilt")
        }
        #expect(inside == nil)
        #expect(try container.resolve(NoteIndex.self) === own)
    }

    /// A weak instance resolved inside is not the container's live one.
    @Test func weakInstanceResolvedInsideIsNotTheContainersOne() throws {
        let container = try makeNotesContainer { $0.register(NoteIndex.self, scope: .weak) { _ in NoteIndex() } }
        let own = try container.resolve(NoteIndex.self)
        try container.withOverrides(fixedTime(7)) {
            let inside = try container.resolve(NoteIndex.self)
            #expect(inside !== own)
            #expect(try container.resolve(NoteIndex.self) === inside)
        }
        #expect(try container.resolve(NoteIndex.self) === own)
    }

    /// Disposable singletons built inside are disposed (dependent first) when the operation returns;
    /// shutdown later disposes only the container's own.
    @Test func disposableSingletonsBuiltInsideAreDisposedWhenTheOperationReturns() throws {
        let log = EventLog()
        let serials = CallCounter()
        let container = try makeNotesContainer {
            $0.register(ArchiveConnection.self, scope: .singleton) { _ in
                ArchiveConnection(serial: serials.next(), log: log)
            }
            $0.register(ArchiveWriter.self, scope: .singleton) { r in
                try ArchiveWriter(connection: r.resolve(ArchiveConnection.self))
            }
        }
        try container.withOverrides(fixedTime(7)) { () throws in
            #expect(try container.resolve(ArchiveWriter.self).connection.serial == 1)
            #expect(log.events.isEmpty)
        }
        #expect(log.events == ["dispose writer of 1", "dispose connection 1"])
        let own = try container.resolve(ArchiveConnection.self)
        try container.shutdown()
        #expect(log.events == ["dispose writer of 1", "dispose connection 1", "dispose connection \(own.serial)"])
    }

    /// The async variant disposes AsyncDisposable singletons built inside when the operation returns.
    @Test func asyncDisposableSingletonsBuiltInsideAreDisposedWhenTheAsyncOperationReturns() async throws {
        let log = EventLog()
        let container = try makeNotesContainer {
            $0.register(FlushingUploader.self, scope: .singleton) { _ in FlushingUploader(log: log) }
        }
        try await container.withOverridesAsync(fixedTime(7)) {
            _ = try await container.resolveAsync(FlushingUploader.self)
            #expect(log.events.isEmpty)
        }
        #expect(log.events == ["flush"])
        try await container.shutdownAsync()
        #expect(log.events == ["flush"])
    }

    /// The sync variant cannot dispose an AsyncDisposable singleton built inside: it says so.
    @Test func syncOverridesHoldingAnAsyncDisposableThrowAsyncDisposalRequired() throws {
        let log = EventLog()
        let container = try makeNotesContainer {
            $0.register(FlushingUploader.self, scope: .singleton) { _ in FlushingUploader(log: log) }
        }
        let error = try #require(
            injectionError {
                try container.withOverrides(fixedTime(7)) { _ = try container.resolve(FlushingUploader.self) }
            }
        )
        #expect(error.code == .asyncDisposalRequired)
        #expect(
            error.message == "The call to withOverrides holds instances that only an async disposal can"
                + " dispose (AsyncDisposable): FlushingUploader. The others were disposed; these were dropped"
                + " undisposed. Fix: use try await container.withOverridesAsync, or make them Disposable as well."
        )
        #expect(log.events.isEmpty)
        #expect(try container.resolve(TimeSource.self).now == 0)
    }

    /// A disposal that throws beside an instance only an async disposal can dispose: the failure is
    /// thrown, and its message names the instance that was dropped, which it would otherwise lose.
    @Test func aFailingDisposalBesideAnAsyncOnlyInstanceNamesTheDroppedOne() throws {
        let log = EventLog()
        let container = try makeNotesContainer {
            $0.register(BrokenConnection.self, scope: .singleton) { _ in BrokenConnection(log: log) }
            $0.register(FlushingUploader.self, scope: .singleton) { _ in FlushingUploader(log: log) }
        }
        let error = try #require(
            injectionError {
                try container.withOverrides(fixedTime(7)) {
                    _ = try container.resolve(FlushingUploader.self)
                    _ = try container.resolve(BrokenConnection.self)
                }
            }
        )
        #expect(error.code == .disposalFailed)
        #expect(
            error.message == """
                Disposing what the call to withOverrides owned: the one disposal that ran threw; FlushingUploader \
                was not disposed: only an async disposal can dispose it.
                - Disposing BrokenConnection threw: socket already closed. The error is the underlyingError.
                """
        )
        #expect(log.events == ["dispose broken"])
    }

    /// A disposal that throws after the operation is reported as disposalFailed.
    @Test func failingDisposalAfterTheOperationIsReportedAsDisposalFailed() throws {
        let log = EventLog()
        let container = try makeNotesContainer {
            $0.register(BrokenConnection.self, scope: .singleton) { _ in BrokenConnection(log: log) }
        }
        let error = try #require(
            injectionError {
                try container.withOverrides(fixedTime(7)) { _ = try container.resolve(BrokenConnection.self) }
            }
        )
        #expect(error.code == .disposalFailed)
        #expect(
            error.message == """
                Disposing what the call to withOverrides owned: its one disposal threw.
                - Disposing BrokenConnection threw: socket already closed. The error is the underlyingError.
                """
        )
        #expect(error.problems.map(\.code) == [.disposalFailed])
        #expect(error.underlyingError is DisposeFailure)
        #expect(log.events == ["dispose broken"])
    }

    /// When the operation throws, its error comes out even if a disposal fails too (which still runs).
    @Test func operationErrorIsNotReplacedByADisposalFailure() throws {
        let log = EventLog()
        let container = try makeNotesContainer {
            $0.register(BrokenConnection.self, scope: .singleton) { _ in BrokenConnection(log: log) }
        }
        #expect(throws: OperationFailure(reason: "disk full")) {
            try container.withOverrides(fixedTime(7)) {
                _ = try container.resolve(BrokenConnection.self)
                throw OperationFailure(reason: "disk full")
            }
        }
        #expect(log.events == ["dispose broken"])
    }

    // MARK: Nesting

    /// An inner call extends the outer one: the outer overrides stay visible unless the inner one
    /// overrides the same key, and they are back once the inner call returns.
    @Test func nestedOverridesExtendTheOuterOnes() throws {
        let container = try makeNotesContainer()
        let outer: (Container) -> Void = {
            $0.register(TimeSource.self) { _ in FixedTime(now: 1) }
            $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "outer") }
        }
        try container.withOverrides(outer) {
            try container.withOverrides(fixedTime(2)) { () throws in
                #expect(try container.resolve(NoteStamper.self).time.now == 2)
                #expect(try container.resolve(SpellChecker.self).language == "outer")
            }
            #expect(try container.resolve(NoteStamper.self).time.now == 1)
        }
        #expect(try container.resolve(NoteStamper.self).time.now == 0)
    }

    // MARK: Children, scopes and other containers

    /// Children of the overridden container (made before or inside) see the overrides, which come
    /// before a child's own registration of the key.
    @Test func overridesApplyToChildContainersOfTheOverriddenContainer() throws {
        let container = try makeNotesContainer()
        let child = container.makeChild()
        child.register(TimeSource.self) { _ in FixedTime(now: -1) }
        let grandchild = child.makeChild()
        try container.withOverrides(fixedTime(7)) { () throws in
            #expect(try child.resolve(TimeSource.self).now == 7)
            #expect(try grandchild.resolve(NoteEditor.self).stamper.time.now == 7)
            #expect(try container.makeChild().resolve(NoteStamper.self).time.now == 7)
        }
        #expect(try child.resolve(TimeSource.self).now == -1)
        #expect(try grandchild.resolve(NoteEditor.self).stamper.time.now == -1)
    }

    /// Lifetime scopes of the overridden container and of its children see the overrides.
    @Test func overridesApplyToLifetimeScopesOfTheOverriddenContainer() throws {
        let container = try makeNotesContainer {
            $0.register(DraftSession.self, scope: .scoped) { r in try DraftSession(time: r.resolve(TimeSource.self)) }
        }
        let earlier = container.makeScope()
        try container.withOverrides(fixedTime(7)) {
            let scope = container.makeScope()
            #expect(try scope.resolve(DraftSession.self).time.now == 7)
            #expect(try earlier.resolve(NoteStamper.self).time.now == 7)
            #expect(try container.makeChild().makeScope().resolve(TimeSource.self).now == 7)
            try scope.close()
        }
        #expect(try earlier.resolve(NoteStamper.self).time.now == 0)
        try earlier.close()
    }

    /// Overrides made on a child do not apply to what its parent resolves.
    @Test func overridesOnAChildDoNotApplyToItsParent() throws {
        let container = try makeNotesContainer()
        let child = container.makeChild()
        try child.withOverrides(fixedTime(7)) { () throws in
            #expect(try child.resolve(NoteStamper.self).time.now == 7)
            #expect(try container.resolve(NoteStamper.self).time.now == 0)
            #expect(try container.makeScope().resolve(TimeSource.self).now == 0)
        }
    }

    /// Overrides leave alone the singletons of containers they do not apply to: the parent of the
    /// overridden child, and an unrelated container, still return their own.
    @Test func overridesLeaveSingletonsOfContainersTheyDoNotApplyToAlone() throws {
        let container = try makeNotesContainer()
        let other = try makeNotesContainer()
        let (parentsOwn, othersOwn) = try (container.resolve(NoteArchive.self), other.resolve(NoteArchive.self))
        try container.makeChild().withOverrides(fixedTime(7)) { () throws in
            #expect(try container.resolve(NoteArchive.self) === parentsOwn)
            #expect(try other.resolve(NoteArchive.self) === othersOwn)
        }
        try container.withOverrides(fixedTime(7)) { () throws in
            #expect(try other.resolve(TimeSource.self).now == 0)
            #expect(try other.resolve(NoteArchive.self) === othersOwn)
        }
    }

    // MARK: Keys

    /// A key with no registration can be overridden: it resolves inside, and is missing again after.
    @Test func overridingAnUnregisteredKeyMakesItResolvableInsideOnly() throws {
        let container = try makeNotesContainer()
        let language = try container.withOverrides {
            $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "en") }
        } operation: {
            try container.resolve(SpellChecker.self).language
        }
        #expect(language == "en")
        let error = try #require(injectionError { try container.resolve(SpellChecker.self) })
        #expect(error.code == .missingRegistration)
        #expect(
            error.message == "No registration for SpellChecker. Nothing is registered for SpellChecker under any"
                + " name or arguments. Fix: register it, e.g. container.register(SpellChecker.self) { r in … },"
                + " in this container or one of its parents."
        )
        #expect(error.resolutionPath.map(\.description) == ["SpellChecker"])
    }

    /// A named registration is overridden by a registration of the same name, and only that key.
    @Test func namedRegistrationsCanBeOverridden() throws {
        let container = try makeNotesContainer {
            $0.register(TimeSource.self, name: "utc") { _ in FixedTime(now: 100) }
        }
        try container.withOverrides {
            $0.register(TimeSource.self, name: "utc") { _ in FixedTime(now: 107) }
        } operation: {
            () throws in
            #expect(try container.resolve(TimeSource.self, name: "utc").now == 107)
            #expect(try container.resolve(TimeSource.self).now == 0)
        }
        #expect(try container.resolve(TimeSource.self, name: "utc").now == 100)
    }

    /// A registration taking arguments is overridden by one with the same argument types, and only
    /// so: one without them, which would replace nothing, is refused.
    @Test func registrationsWithArgumentsCanBeOverridden() throws {
        let container = try makeNotesContainer {
            $0.register(Greeting.self) { (_, name: String) in Greeting(text: "Hello, \(name)") }
        }
        try container.withOverrides {
            $0.register(Greeting.self) { (_, name: String) in Greeting(text: "Hi, \(name)") }
        } operation: { () throws in
            #expect(try container.resolve(Greeting.self, argument: "Ada").text == "Hi, Ada")
        }
        let error = injectionError {
            try container.withOverrides {
                $0.register(Greeting.self) { _ in Greeting(text: "no argument") }
            } operation: {
            }
        }
        #expect(error?.code == .unmatchedOverride)
        #expect(
            error?.message
                == "The override of Greeting replaces no registration: the container registers Greeting as"
                + " Greeting (argument: String), which resolves as before. Fix: override that key, e.g."
                + " overrides.register(Greeting.self) { (r, a0: String) in … }; if it is meant to add Greeting,"
                + " register it in the container first, or, for a value scopes are given, declare it:"
                + " container.register(Greeting.self, providedByScope: …)."
        )
        #expect(try container.resolve(Greeting.self, argument: "Ada").text == "Hello, Ada")
    }

    // MARK: Tasks

    /// Tasks started inside (async let, a task group, an unstructured Task) see the overrides.
    @Test func tasksStartedInsideSeeTheOverrides() async throws {
        let container = try makeNotesContainer()
        try await container.withOverridesAsync(fixedTime(7)) {
            async let fromAsyncLet = container.resolve(TimeSource.self).now
            let fromGroup = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try container.resolve(NoteStamper.self).time.now } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let fromTask = Task { try container.resolve(NoteEditor.self).stamper.time.now }
            #expect(try await fromAsyncLet == 7)
            #expect(fromGroup == Array(repeating: 7, count: 10))
            #expect(try await fromTask.value == 7)
        }
    }

    /// A detached task started inside does not inherit the overrides (task-locals are not inherited
    /// by detached tasks): it resolves the container's registrations and singletons.
    @Test func detachedTaskStartedInsideDoesNotSeeTheOverrides() async throws {
        let container = try makeNotesContainer()
        let own = try container.resolve(NoteArchive.self)
        try await container.withOverridesAsync(fixedTime(7)) {
            let detached = Task.detached {
                try (container.resolve(TimeSource.self).now, container.resolve(NoteArchive.self))
            }
            let (now, archive) = try await detached.value
            #expect(now == 0)
            #expect(archive === own)
            #expect(try container.resolve(TimeSource.self).now == 7)
        }
    }
}

/// An override that replaces nothing while the container registers its type otherwise: a test
/// double that would silently never be used.
@Suite struct UnmatchedOverrideTests {
    private static let message =
        "The override of SpellChecker replaces no registration: the container registers SpellChecker as"
        + " SpellChecker (name: \"en\"), which resolves as before. Fix: override that key, e.g."
        + " overrides.register(SpellChecker.self, name: \"en\") { r in … }; if it is meant to add SpellChecker,"
        + " register it in the container first, or, for a value scopes are given, declare it:"
        + " container.register(SpellChecker.self, providedByScope: …)."

    @Test func anOverrideUnderAnotherNameThanTheRegistrationIsRefused() throws {
        let container = Container()
        container.register(SpellChecker.self, name: "en") { _ in FakeSpellChecker(language: "en") }
        let ran = CallCounter()

        let error = try #require(
            injectionError {
                try container.withOverrides {
                    $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "test") }
                } operation: {
                    _ = ran.next()
                }
            }
        )
        #expect(error.code == .unmatchedOverride)
        #expect(error.message == Self.message)
        #expect(error.nearMisses.map(\.description) == ["SpellChecker (name: \"en\")"])
        #expect(ran.count == 0)
    }

    @Test func anAsyncOverrideUnderAnotherNameThanTheRegistrationIsRefused() async throws {
        let container = Container()
        container.register(SpellChecker.self, name: "en") { _ in FakeSpellChecker(language: "en") }

        let error = try #require(
            await injectionErrorAsync {
                try await container.withOverridesAsync {
                    $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "test") }
                } operation: {
                }
            }
        )
        #expect(error.code == .unmatchedOverride)
        #expect(error.message == Self.message)
    }

    @Test func anOverrideOfATypeTheContainerDoesNotRegisterAddsIt() throws {
        let container = Container()
        let language = try container.withOverrides {
            $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "test") }
        } operation: {
            try container.resolve(SpellChecker.self).language
        }
        #expect(language == "test")
    }

    @Test func anOverrideMatchingARegistrationOfAParentContainerIsUsed() throws {
        let parent = Container()
        parent.register(SpellChecker.self, name: "en") { _ in FakeSpellChecker(language: "en") }
        let child = parent.makeChild()
        let language = try child.withOverrides {
            $0.register(SpellChecker.self, name: "en") { _ in FakeSpellChecker(language: "test") }
        } operation: {
            try child.resolve(SpellChecker.self, name: "en").language
        }
        #expect(language == "test")
    }

    @Test func aRefusedOverrideStillDisposesTheInstancesGivenToIt() throws {
        let container = Container()
        container.register(SpellChecker.self, name: "en") { _ in FakeSpellChecker(language: "en") }
        let log = EventLog()

        let error = injectionError {
            try container.withOverrides {
                $0.register(
                    ArchiveConnection.self,
                    instance: ArchiveConnection(serial: 1, log: log),
                    ownedBy: .container
                )
                $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "test") }
            } operation: {
            }
        }
        #expect(error?.code == .unmatchedOverride)
        #expect(log.events == ["dispose connection 1"])
    }

    /// An override around this one, of a parent, added the key: the inner one replaces it.
    @Test func aPlainOverrideOfWhatAnOverrideAroundItAddsIsUsed() throws {
        let parent = Container()
        let child = parent.makeChild()
        child.register(SpellChecker.self, name: "en") { _ in FakeSpellChecker(language: "en") }
        let language = try parent.withOverrides {
            $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "outer") }
        } operation: {
            try child.withOverrides {
                $0.register(SpellChecker.self) { _ in FakeSpellChecker(language: "inner") }
            } operation: {
                try child.resolve(SpellChecker.self).language
            }
        }
        #expect(language == "inner")
    }
}
