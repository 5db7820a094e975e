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

// MARK: - Test services

private protocol InjClock: Sendable {
    var now: Int { get }
}

private struct InjFixedClock: InjClock {
    let now: Int
}

/// Static injection through the initializer: the factory wires the clock.
private final class InjNoteStore: Sendable {
    let clock: any InjClock
    init(clock: any InjClock) { self.clock = clock }
}

/// Static injection through a property: an `onResolved` hook wires the store.
private final class InjNoteList: @unchecked Sendable {
    var store: InjNoteStore?
}

/// Dynamic injection: made from resolve-time arguments, shaped by the caller's `configure`.
private final class InjEditor: @unchecked Sendable {
    let note: String
    let fontSize: Int
    let readOnly: Bool
    let store: InjNoteStore?
    var title = "Untitled"
    var tags: [String] = []

    init(note: String, fontSize: Int = 12, readOnly: Bool = false, store: InjNoteStore? = nil) {
        self.note = note
        self.fontSize = fontSize
        self.readOnly = readOnly
        self.store = store
    }
}

/// A value-type service: `configure` mutates the caller's copy through `inout`.
private struct InjSettings: Sendable {
    var title: String
    var retries: Int
}

private struct InjSetupError: Error, Equatable, CustomStringConvertible {
    let reason: String
    var description: String { "InjSetupError(\(reason))" }
}

// MARK: - Tests

struct InjectionTests {
    // MARK: Static injection

    @Test func staticInjectionWiresDependenciesInTheFactory() throws {
        let container = Container()
        container.register((any InjClock).self) { _ in InjFixedClock(now: 42) }
        container.register(InjNoteStore.self) { r in InjNoteStore(clock: try r.resolve((any InjClock).self)) }

        let store = try container.resolve(InjNoteStore.self)

        #expect(store.clock.now == 42)
    }

    @Test func staticInjectionWiresPropertiesInAnOnResolvedHook() throws {
        let container = Container()
        container.register((any InjClock).self) { _ in InjFixedClock(now: 7) }
        container.register(InjNoteStore.self) { r in InjNoteStore(clock: try r.resolve((any InjClock).self)) }
        container.register(InjNoteList.self) { _ in InjNoteList() }
            .onResolved { r, list in list.store = try r.resolve(InjNoteStore.self) }

        let list = try container.resolve(InjNoteList.self)

        #expect(list.store?.clock.now == 7)
    }

    @Test func onResolvedHooksRunForEveryNewTransientInstance() throws {
        let container = Container()
        container.register(InjNoteStore.self) { _ in InjNoteStore(clock: InjFixedClock(now: 1)) }
        container.register(InjNoteList.self) { _ in InjNoteList() }
            .onResolved { r, list in list.store = try r.resolve(InjNoteStore.self) }

        let first = try container.resolve(InjNoteList.self)
        let second = try container.resolve(InjNoteList.self)

        #expect(first !== second)
        let firstStore = try #require(first.store)
        let secondStore = try #require(second.store)
        #expect(firstStore !== secondStore)
    }

    // MARK: Dynamic injection: arguments

    @Test func dynamicInjectionWithOneArgument() throws {
        let container = Container()
        container.register(InjEditor.self) { (_, note: String) in InjEditor(note: note) }

        let editor = try container.resolve(InjEditor.self, argument: "Groceries")

        #expect(editor.note == "Groceries")
        #expect(editor.fontSize == 12)
    }

    @Test func dynamicInjectionWithTwoArguments() throws {
        let container = Container()
        container.register(InjEditor.self) { (_, note: String, fontSize: Int) in
            InjEditor(note: note, fontSize: fontSize)
        }

        let editor = try container.resolve(InjEditor.self, arguments: "Groceries", 18)

        #expect(editor.note == "Groceries")
        #expect(editor.fontSize == 18)
        #expect(editor.readOnly == false)
    }

    @Test func dynamicInjectionWithThreeArgumentsAlongsideStaticDependencies() throws {
        let container = Container()
        container.register(InjNoteStore.self) { _ in InjNoteStore(clock: InjFixedClock(now: 3)) }
        container.register(InjEditor.self) { (r, note: String, fontSize: Int, readOnly: Bool) in
            InjEditor(note: note, fontSize: fontSize, readOnly: readOnly, store: try r.resolve(InjNoteStore.self))
        }

        let editor = try container.resolve(InjEditor.self, arguments: "Diary", 9, true)

        #expect(editor.note == "Diary")
        #expect(editor.fontSize == 9)
        #expect(editor.readOnly)
        #expect(editor.store?.clock.now == 3)
    }

    @Test func registrationsWithDifferentArgumentTypesCoexistAndEachGetsItsOwnArguments() throws {
        let container = Container()
        container.register(InjEditor.self) { _ in InjEditor(note: "blank") }
        container.register(InjEditor.self) { (_, note: String) in InjEditor(note: note) }
        container.register(InjEditor.self) { (_, note: String, size: Int) in InjEditor(note: note, fontSize: size) }
        container.register(InjEditor.self) { (_, note: String, size: Int, readOnly: Bool) in
            InjEditor(note: note, fontSize: size, readOnly: readOnly)
        }

        #expect(try container.resolve(InjEditor.self).note == "blank")
        #expect(try container.resolve(InjEditor.self, argument: "one").note == "one")
        let two = try container.resolve(InjEditor.self, arguments: "two", 20)
        #expect((two.note, two.fontSize) == ("two", 20))
        let three = try container.resolve(InjEditor.self, arguments: "three", 30, true)
        #expect((three.note, three.fontSize, three.readOnly) == ("three", 30, true))
    }

    @Test func argumentsReachNestedFactoriesThroughTheResolver() throws {
        let container = Container()
        container.register(InjEditor.self) { (_, note: String) in InjEditor(note: note) }
        container.register(InjNoteList.self) { r in
            let list = InjNoteList()
            let editor = try r.resolve(InjEditor.self, argument: "nested")
            list.store = InjNoteStore(clock: InjFixedClock(now: editor.note.count))
            return list
        }

        let list = try container.resolve(InjNoteList.self)

        #expect(list.store?.clock.now == "nested".count)
    }

    @Test func argumentsOfTheWrongTypeAreAMissingRegistrationWithANearMiss() throws {
        let container = Container()
        container.register(InjEditor.self) { (_, note: String) in InjEditor(note: note) }

        let error = try #require(injectionError { try container.resolve(InjEditor.self, argument: 5) })

        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for InjEditor (argument: Int)"))
        #expect(error.message.contains("InjEditor (argument: String)"))
        #expect(error.nearMisses.map(\.description) == ["InjEditor (argument: String)"])
    }

    // MARK: Dynamic injection: configure

    @Test func configureShapesTheNewInstanceForTheCaller() throws {
        let container = Container()
        container.register(InjEditor.self) { _ in InjEditor(note: "n") }

        let draft = try container.resolve(InjEditor.self) { $0.title = "Draft" }
        let plain = try container.resolve(InjEditor.self)

        #expect(draft.title == "Draft")
        #expect(plain.title == "Untitled", "configure shaped only the caller's instance")
    }

    @Test func configureCombinesWithResolveTimeArguments() throws {
        let container = Container()
        container.register(InjEditor.self) { (_, note: String, size: Int) in InjEditor(note: note, fontSize: size) }

        let editor = try container.resolve(InjEditor.self, arguments: "Recipe", 14) { $0.title = "Soup" }
        let single = try container.resolve(InjEditor.self, arguments: "Recipe", 16, configure: { $0.tags = ["food"] })

        #expect((editor.note, editor.fontSize, editor.title) == ("Recipe", 14, "Soup"))
        #expect(single.tags == ["food"])
    }

    @Test func configureWorksThroughTheResolverInsideAFactory() throws {
        let container = Container()
        container.register(InjEditor.self) { _ in InjEditor(note: "inner") }
        container.register(InjNoteList.self) { r in
            let editor = try r.resolve(InjEditor.self) { $0.title = "from factory" }
            let list = InjNoteList()
            list.store = InjNoteStore(clock: InjFixedClock(now: editor.title.count))
            return list
        }

        let list = try container.resolve(InjNoteList.self)

        #expect(list.store?.clock.now == "from factory".count)
    }

    @Test func preparationRunsFactoryThenConfigureThenHooksThenChecksInTheOrderAdded() throws {
        let container = Container()
        let log = EventLog()
        container.register(InjEditor.self) { _ in
            log.record("factory")
            return InjEditor(note: "n")
        }
        .onResolved { _, editor in log.record("hook 1 sees \(editor.title)") }
        .verify { editor in log.record("check 1 sees \(editor.tags)") }
        .onResolved { _, editor in
            log.record("hook 2")
            editor.tags.append("hooked")
        }
        .verify { _ in log.record("check 2") }
        .onResolved { _, _ in log.record("hook 3") }

        let editor = try container.resolve(InjEditor.self) { editor in
            log.record("configure")
            editor.title = "configured"
        }

        #expect(
            log.events == [
                "factory", "configure",
                "hook 1 sees configured", "hook 2", "hook 3",
                "check 1 sees [\"hooked\"]", "check 2",
            ]
        )
        #expect(editor.title == "configured")
        #expect(editor.tags == ["hooked"])
    }

    @Test(arguments: [Scope.singleton, .weak])
    func configureOnASharedRegistrationThrowsEvenTheFirstTime(scope: Scope) throws {
        let container = Container()
        let log = EventLog()
        container.register(InjEditor.self, scope: scope) { _ in
            log.record("factory")
            return InjEditor(note: "shared")
        }

        let first = try #require(injectionError { try container.resolve(InjEditor.self) { $0.title = "mine" } })

        #expect(first.code == .sharedInstanceConfigured)
        #expect(first.message.contains("configure"))
        #expect(first.message.contains("InjEditor"))
        #expect(first.message.contains("shared"))
        #expect(first.message.contains("onResolved"), "the fix names the hook as the place for set-up")
        #expect(first.resolutionPath.map(\.description) == ["InjEditor"])
        #expect(log.events.isEmpty, "the shared instance was not built to be configured")

        // Once the instance exists (and is held), configuring it is refused the same way.
        let shared = try container.resolve(InjEditor.self)
        let again = try #require(injectionError { try container.resolve(InjEditor.self) { $0.title = "mine" } })
        #expect(again.code == .sharedInstanceConfigured)
        #expect(shared.title == "Untitled")
        #expect(log.events == ["factory"])
    }

    @Test func configureOnANestedSharedRegistrationThrowsWithThePath() throws {
        let container = Container()
        container.register(InjNoteStore.self, scope: .singleton) { _ in InjNoteStore(clock: InjFixedClock(now: 0)) }
        container.register(InjNoteList.self) { r in
            let list = InjNoteList()
            list.store = try r.resolve(InjNoteStore.self) { _ in }
            return list
        }

        let error = try #require(injectionError { try container.resolve(InjNoteList.self) })

        #expect(error.code == .sharedInstanceConfigured)
        #expect(error.message.contains("InjNoteStore"))
        #expect(error.resolutionPath.map(\.description) == ["InjNoteList", "InjNoteStore"])
    }

    @Test func configureOnAGraphRegistrationShapesTheNewInstanceSharedByTheRestOfTheGraph() throws {
        let container = Container()
        container.register(InjEditor.self, scope: .graph) { _ in InjEditor(note: "graph") }
        container.register(InjNoteList.self) { r in
            let configured = try r.resolve(InjEditor.self) { $0.title = "shaped" }
            let later = try r.resolve(InjEditor.self)
            let list = InjNoteList()
            list.store = InjNoteStore(clock: InjFixedClock(now: configured === later ? 1 : 0))
            return list
        }

        let top = try container.resolve(InjEditor.self) { $0.title = "top-level" }
        #expect(top.title == "top-level")

        let list = try container.resolve(InjNoteList.self)
        #expect(list.store?.clock.now == 1, "the rest of the graph received the configured instance")
    }

    @Test func configureOnAGraphInstanceAlreadyMadeInThisResolveThrows() throws {
        let container = Container()
        container.register(InjEditor.self, scope: .graph) { _ in InjEditor(note: "graph") }
        container.register(InjNoteList.self) { r in
            _ = try r.resolve(InjEditor.self)
            _ = try r.resolve(InjEditor.self) { $0.title = "too late" }
            return InjNoteList()
        }

        let error = try #require(injectionError { try container.resolve(InjNoteList.self) })

        #expect(error.code == .sharedInstanceConfigured)
        #expect(error.message.contains("InjEditor"))
        #expect(error.resolutionPath.map(\.description) == ["InjNoteList", "InjEditor"])
    }

    @Test func configureOnAGraphInstanceAlreadyMadeSaysThisResolveHasAlreadyMadeIt() throws {
        let container = Container()
        container.register(InjEditor.self, scope: .graph) { _ in InjEditor(note: "graph") }
        container.register(InjNoteList.self) { r in
            _ = try r.resolve(InjEditor.self)
            _ = try r.resolve(InjEditor.self) { $0.title = "too late" }
            return InjNoteList()
        }

        let error = try #require(injectionError { try container.resolve(InjNoteList.self) })

        #expect(error.code == .sharedInstanceConfigured)
        #expect(error.message.hasPrefix("A configure closure was given for InjEditor"))
        #expect(error.message.contains("has already made its .graph instance"))
        #expect(
            !error.message.contains("shared with other callers"),
            "a .graph instance is not shared beyond this resolve"
        )
        #expect(error.message.contains("pass configure where the instance is first resolved"))
        #expect(error.message.contains("onResolved"))
        #expect(error.resolutionPath.map(\.description) == ["InjNoteList", "InjEditor"])
    }

    @Test(arguments: [Scope.singleton, .weak])
    func configureOnASharedRegistrationSaysItsInstanceIsSharedWithOtherCallers(scope: Scope) throws {
        let container = Container()
        container.register(InjEditor.self, scope: scope) { _ in InjEditor(note: "shared") }

        let error = try #require(injectionError { try container.resolve(InjEditor.self) { $0.title = "mine" } })

        #expect(error.code == .sharedInstanceConfigured)
        #expect(error.message.hasPrefix("A configure closure was given for InjEditor"))
        #expect(error.message.contains("whose .\(scope) instance is shared with other callers"))
        #expect(!error.message.contains(".graph"))
        #expect(error.message.contains("onResolved"))
        #expect(error.resolutionPath.map(\.description) == ["InjEditor"])
    }

    @Test func configureThrowingFailsWithPreparationFailedAndSkipsHooks() throws {
        let container = Container()
        let log = EventLog()
        container.register(InjEditor.self) { _ in InjEditor(note: "n") }
            .onResolved { _, _ in log.record("hook") }
            .verify { _ in log.record("check") }

        let error = try #require(
            injectionError {
                try container.resolve(InjEditor.self) { _ in throw InjSetupError(reason: "bad title") }
            }
        )

        #expect(error.code == .preparationFailed)
        #expect(error.underlyingError as? InjSetupError == InjSetupError(reason: "bad title"))
        #expect(error.message.contains("configure"))
        #expect(error.message.contains("InjEditor"))
        #expect(error.message.contains("InjSetupError(bad title)"))
        #expect(error.resolutionPath.last?.description == "InjEditor")
        #expect(log.events.isEmpty, "hooks and checks do not run on an instance whose configure failed")
    }

    @Test func verifyCheckRejectsAnInstanceTheCallerDidNotConfigure() throws {
        let container = Container()
        container.register(InjEditor.self) { _ in InjEditor(note: "n") }
            .verify { editor in
                guard editor.title != "Untitled" else { throw InjSetupError(reason: "an editor needs a title") }
            }

        #expect(try container.resolve(InjEditor.self) { $0.title = "Named" }.title == "Named")

        let error = try #require(injectionError { try container.resolve(InjEditor.self) })
        #expect(error.code == .preparationFailed)
        #expect(error.message.contains("verify"))
        #expect(error.underlyingError as? InjSetupError == InjSetupError(reason: "an editor needs a title"))
    }

    @Test func valueTypeServiceIsMutatedByConfigureThroughInout() throws {
        let container = Container()
        let log = EventLog()
        container.register(InjSettings.self) { _ in InjSettings(title: "default", retries: 1) }
            .onResolved { _, settings in log.record("hook sees \(settings.title)/\(settings.retries)") }
            .verify { settings in
                guard settings.retries > 0 else { throw InjSetupError(reason: "retries must be positive") }
            }

        let settings = try container.resolve(InjSettings.self) { settings in
            settings.title = "custom"
            settings.retries += 2
        }
        let untouched = try container.resolve(InjSettings.self)

        #expect(settings.title == "custom")
        #expect(settings.retries == 3)
        #expect(untouched.title == "default")
        #expect(untouched.retries == 1)
        #expect(log.events == ["hook sees custom/3", "hook sees default/1"])

        let error = try #require(injectionError { try container.resolve(InjSettings.self) { $0.retries = 0 } })
        #expect(error.code == .preparationFailed)
        #expect(error.message.contains("verify"))
    }

    /// An error whose description already ends a sentence is quoted with one period, not two, by
    /// a factory's, a hook's and a disposal's failure.
    @Test func anErrorEndingWithAPeriodIsQuotedWithOnePeriod() throws {
        struct Sentence: Error, CustomStringConvertible {
            var description: String { "The disk is full." }
        }
        final class Leaky: Disposable, Sendable {
            func dispose() throws { throw Sentence() }
        }
        let container = Container()
        container.register(InjEditor.self) { _ in throw Sentence() }
        container.register(InjNoteStore.self) { _ in InjNoteStore(clock: InjFixedClock(now: 1)) }
            .onResolved { _, _ in throw Sentence() }
        container.register(Leaky.self, scope: .scoped) { _ in Leaky() }

        let factory = try #require(injectionError { try container.resolve(InjEditor.self) })
        let hook = try #require(injectionError { try container.resolve(InjNoteStore.self) })
        let scope = container.makeScope()
        _ = try scope.resolve(Leaky.self)
        let disposal = try #require(injectionError { try scope.close() })

        #expect(factory.code == .factoryFailed)
        #expect(
            factory.message
                == "The factory of InjEditor threw: The disk is full. The error is the underlyingError; fix the"
                + " factory or what it depends on."
        )
        #expect(hook.code == .preparationFailed)
        #expect(
            hook.message
                == "Preparing InjNoteStore failed: an onResolved hook threw: The disk is full. The error is the"
                + " underlyingError."
        )
        #expect(disposal.code == .disposalFailed)
        #expect(
            disposal.message
                == "Disposing what the untagged scope owned: its one disposal threw.\n"
                + "- Disposing Leaky threw: The disk is full. The error is the underlyingError."
        )
    }
}
