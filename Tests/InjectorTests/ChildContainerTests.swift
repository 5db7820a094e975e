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

private protocol ChildClock: Sendable {
    var label: String { get }
}

private final class ChildClockImpl: ChildClock {
    let label: String
    init(_ label: String) { self.label = label }
}

/// Depends on a clock; the label of the clock it got tells which container's registration was used.
private final class ChildStore: Sendable {
    let clock: any ChildClock
    let serial: Int
    init(clock: any ChildClock, serial: Int = 0) {
        self.clock = clock
        self.serial = serial
    }
}

/// Depends on the store: a chain Front -> Store -> Clock.
private final class ChildFront: Sendable {
    let store: ChildStore
    init(store: ChildStore) { self.store = store }
}

/// Receives its clock after construction, in an onResolved hook.
private final class ChildHooked: @unchecked Sendable {
    var clock: (any ChildClock)?
}

private final class ChildOnlyService: Sendable {}

private final class ChildDisposable: Disposable, Sendable {
    let disposals = Guarded(0)
    func dispose() { disposals.add(1) }
}

private final class ChildSingleton: Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
}

private protocol ChildPlugin: Sendable {
    var id: String { get }
}

private struct ChildPluginImpl: ChildPlugin {
    let id: String
}

// Diamond for graph sharing across container levels: A -> B, C; B -> D; C -> D.
private final class ChildDiamondD: Sendable {}
private final class ChildDiamondB: Sendable {
    let d: ChildDiamondD
    init(d: ChildDiamondD) { self.d = d }
}
private final class ChildDiamondC: Sendable {
    let d: ChildDiamondD
    init(d: ChildDiamondD) { self.d = d }
}
private final class ChildDiamondA: Sendable {
    let b: ChildDiamondB
    let c: ChildDiamondC
    init(b: ChildDiamondB, c: ChildDiamondC) {
        self.b = b
        self.c = c
    }
}

// MARK: - Tests

struct ChildContainerTests {
    // MARK: Visibility

    @Test func childSeesParentRegistrations() throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        parent.register((any ChildClock).self, name: "utc") { _ in ChildClockImpl("parent-utc") }
        parent.register((any ChildClock).self) { (_, label: String) in ChildClockImpl(label) }
        let child = parent.makeChild()

        #expect(try child.resolve((any ChildClock).self).label == "parent")
        #expect(try child.resolve((any ChildClock).self, name: "utc").label == "parent-utc")
        #expect(try child.resolve((any ChildClock).self, argument: "given").label == "given")
    }

    @Test func grandchildSeesRegistrationsOfEveryAncestor() throws {
        let root = Container()
        root.register((any ChildClock).self) { _ in ChildClockImpl("root") }
        let child = root.makeChild()
        child.register(ChildStore.self) { r in try ChildStore(clock: r.resolve((any ChildClock).self)) }
        let grandchild = child.makeChild()

        #expect(try grandchild.resolve(ChildStore.self).clock.label == "root")
    }

    @Test func childMayShadowAParentRegistrationWithoutItBeingADuplicate() throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }

        #expect(try child.resolve((any ChildClock).self).label == "child")
        #expect(try parent.resolve((any ChildClock).self).label == "parent")
        try child.finishRegistration()
        try parent.finishRegistration()
        #expect(try child.resolve((any ChildClock).self).label == "child")
    }

    @Test func parentNeverSeesAChildsRegistrations() throws {
        let parent = Container()
        let child = parent.makeChild()
        child.register(ChildOnlyService.self) { _ in ChildOnlyService() }

        _ = try child.resolve(ChildOnlyService.self)
        let error = try #require(injectionError { _ = try parent.resolve(ChildOnlyService.self) })

        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for ChildOnlyService."))
        #expect(error.message.contains("container.register(ChildOnlyService.self)"))
        #expect(error.nearMisses.isEmpty)
        #expect(error.resolutionPath == [ServiceKey(ChildOnlyService.self, name: nil)])
    }

    @Test func parentNeverListsAChildsRegistrationsAsNearMisses() throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        let child = parent.makeChild()
        child.register((any ChildClock).self, name: "child-only") { _ in ChildClockImpl("child") }

        #expect(try child.resolve((any ChildClock).self, name: "child-only").label == "child")
        let error = try #require(
            injectionError {
                _ = try parent.resolve((any ChildClock).self, name: "child-only")
            }
        )

        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for ChildClock (name: \"child-only\")"))
        #expect(error.message.contains("Registered nearby: ChildClock."))
        #expect(error.nearMisses == [ServiceKey((any ChildClock).self, name: nil)])
    }

    @Test func parentDoesNotSeeAChildsShadow() throws {
        let parent = Container()
        parent.register(ChildStore.self) { r in try ChildStore(clock: r.resolve((any ChildClock).self)) }
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }

        _ = try child.resolve(ChildStore.self)
        #expect(try parent.resolve(ChildStore.self).clock.label == "parent")
    }

    @Test func childOfAFinishedParentCanStillRegisterAndResolve() throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        try parent.finishRegistration()

        let child = parent.makeChild()
        #expect(!child.isRegistrationFinished)
        child.register(ChildStore.self) { r in try ChildStore(clock: r.resolve((any ChildClock).self)) }
        child.register((any ChildClock).self, name: "late") { _ in ChildClockImpl("child") }

        #expect(try child.resolve(ChildStore.self).clock.label == "parent")
        #expect(try child.resolve((any ChildClock).self, name: "late").label == "child")
        try child.finishRegistration()
        #expect(child.isRegistrationFinished)
    }

    // MARK: Singletons

    @Test func parentSingletonIsSharedWithChildrenAndGrandchildren() throws {
        let parent = Container()
        let calls = CallCounter()
        parent.register(ChildSingleton.self, scope: .singleton) { _ in ChildSingleton(serial: calls.next()) }
        let first = parent.makeChild()
        let second = parent.makeChild()
        let grandchild = first.makeChild()

        // A child asks first.
        let fromFirst = try first.resolve(ChildSingleton.self)
        let fromParent = try parent.resolve(ChildSingleton.self)
        let fromSecond = try second.resolve(ChildSingleton.self)
        let fromGrandchild = try grandchild.resolve(ChildSingleton.self)

        #expect(fromFirst === fromParent)
        #expect(fromSecond === fromParent)
        #expect(fromGrandchild === fromParent)
        #expect(calls.count == 1)
    }

    @Test func parentSingletonBuiltByTheParentIsSharedWithALaterChild() throws {
        let parent = Container()
        let calls = CallCounter()
        parent.register(ChildSingleton.self, scope: .singleton) { _ in ChildSingleton(serial: calls.next()) }

        let fromParent = try parent.resolve(ChildSingleton.self)
        let child = parent.makeChild()

        #expect(try child.resolve(ChildSingleton.self) === fromParent)
        #expect(calls.count == 1)
    }

    @Test func childsOwnSingletonStaysInTheChild() throws {
        let parent = Container()
        let calls = CallCounter()
        let first = parent.makeChild()
        let second = parent.makeChild()
        for child in [first, second] {
            child.register(ChildSingleton.self, scope: .singleton) { _ in ChildSingleton(serial: calls.next()) }
        }

        let fromFirst = try first.resolve(ChildSingleton.self)
        let fromSecond = try second.resolve(ChildSingleton.self)

        #expect(fromFirst !== fromSecond)
        #expect(try first.resolve(ChildSingleton.self) === fromFirst)
        #expect(try second.resolve(ChildSingleton.self) === fromSecond)
        #expect(calls.count == 2)
        #expect(injectionError { _ = try parent.resolve(ChildSingleton.self) }?.code == .missingRegistration)
    }

    @Test func childShadowingAParentSingletonGetsItsOwnSingleton() throws {
        let parent = Container()
        let calls = CallCounter()
        parent.register(ChildSingleton.self, scope: .singleton) { _ in ChildSingleton(serial: calls.next()) }
        let child = parent.makeChild()
        child.register(ChildSingleton.self, scope: .singleton) { _ in ChildSingleton(serial: 100 + calls.next()) }

        let fromChild = try child.resolve(ChildSingleton.self)
        let fromParent = try parent.resolve(ChildSingleton.self)

        #expect(fromChild !== fromParent)
        #expect(fromChild.serial > 100)
        #expect(fromParent.serial < 100)
        #expect(try child.resolve(ChildSingleton.self) === fromChild)
        #expect(try parent.resolve(ChildSingleton.self) === fromParent)
    }

    @Test func childSingletonIsSharedWithTheChildsOwnChildren() throws {
        let parent = Container()
        let calls = CallCounter()
        let child = parent.makeChild()
        child.register(ChildSingleton.self, scope: .singleton) { _ in ChildSingleton(serial: calls.next()) }
        let grandchild = child.makeChild()

        let fromGrandchild = try grandchild.resolve(ChildSingleton.self)

        #expect(try child.resolve(ChildSingleton.self) === fromGrandchild)
        #expect(calls.count == 1)
    }

    @Test func parentSingletonIsBuiltWithParentDependenciesEvenWhenAShadowingChildAsksFirst() throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        parent.register(ChildStore.self, scope: .singleton) { r in
            try ChildStore(clock: r.resolve((any ChildClock).self))
        }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }

        let fromChild = try child.resolve(ChildStore.self)

        #expect(fromChild.clock.label == "parent")
        #expect(try parent.resolve(ChildStore.self) === fromChild)
        #expect(try child.resolve((any ChildClock).self).label == "child")
    }

    @Test func parentSingletonIsBuiltWithParentDependenciesThroughAParentTransientInBetween() throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        parent.register(ChildStore.self) { r in try ChildStore(clock: r.resolve((any ChildClock).self)) }
        parent.register(ChildFront.self, scope: .singleton) { r in try ChildFront(store: r.resolve(ChildStore.self)) }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }
        child.register(ChildStore.self) { _ in ChildStore(clock: ChildClockImpl("child-store")) }

        let fromChild = try child.resolve(ChildFront.self)

        #expect(fromChild.store.clock.label == "parent")
        #expect(try parent.resolve(ChildFront.self) === fromChild)
    }

    @Test func parentSingletonHookResolvesWithParentRegistrationsEvenWhenAShadowingChildAsksFirst() throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        parent.register(ChildHooked.self, scope: .singleton) { _ in ChildHooked() }
            .onResolved { r, hooked in hooked.clock = try r.resolve((any ChildClock).self) }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }

        let fromChild = try child.resolve(ChildHooked.self)

        #expect(fromChild.clock?.label == "parent")
        #expect(try parent.resolve(ChildHooked.self) === fromChild)
    }

    @Test func parentSingletonDoesNotUseARegistrationOnlyTheAskingChildHas() throws {
        let parent = Container()
        parent.register(ChildStore.self, scope: .singleton) { r in
            try ChildStore(clock: r.resolve((any ChildClock).self))
        }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }

        let error = try #require(injectionError { _ = try child.resolve(ChildStore.self) })

        #expect(error.code == .missingRegistration)
        #expect(error.message.contains("No registration for ChildClock, needed by ChildStore -> ChildClock (missing)."))
        #expect(
            error.resolutionPath == [
                ServiceKey(ChildStore.self, name: nil), ServiceKey((any ChildClock).self, name: nil),
            ]
        )
    }

    // MARK: Transient and graph registrations of the parent see the child's shadows

    @Test(arguments: [Scope.transient, Scope.graph])
    func parentRegistrationResolvedThroughAChildSeesTheChildsShadow(scope: Scope) throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        parent.register(ChildStore.self, scope: scope) { r in try ChildStore(clock: r.resolve((any ChildClock).self)) }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }

        #expect(try child.resolve(ChildStore.self).clock.label == "child")
        #expect(try parent.resolve(ChildStore.self).clock.label == "parent")
    }

    @Test(arguments: [Scope.transient, Scope.graph])
    func deepParentChainResolvedThroughAChildSeesTheChildsShadow(scope: Scope) throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        parent.register(ChildStore.self, scope: scope) { r in try ChildStore(clock: r.resolve((any ChildClock).self)) }
        parent.register(ChildFront.self, scope: scope) { r in try ChildFront(store: r.resolve(ChildStore.self)) }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }
        let grandchild = child.makeChild()

        #expect(try child.resolve(ChildFront.self).store.clock.label == "child")
        #expect(try grandchild.resolve(ChildFront.self).store.clock.label == "child")
        #expect(try parent.resolve(ChildFront.self).store.clock.label == "parent")
    }

    @Test(arguments: [Scope.transient, Scope.graph])
    func parentRegistrationsHookResolvedThroughAChildSeesTheChildsShadow(scope: Scope) throws {
        let parent = Container()
        parent.register((any ChildClock).self) { _ in ChildClockImpl("parent") }
        parent.register(ChildHooked.self, scope: scope) { _ in ChildHooked() }
            .onResolved { r, hooked in hooked.clock = try r.resolve((any ChildClock).self) }
        let child = parent.makeChild()
        child.register((any ChildClock).self) { _ in ChildClockImpl("child") }

        #expect(try child.resolve(ChildHooked.self).clock?.label == "child")
        #expect(try parent.resolve(ChildHooked.self).clock?.label == "parent")
    }

    @Test func graphInstanceIsSharedAcrossParentAndChildRegistrationsWithinOneResolve() throws {
        let parent = Container()
        let dCalls = CallCounter()
        parent.register(ChildDiamondD.self, scope: .graph) { _ in
            dCalls.next()
            return ChildDiamondD()
        }
        parent.register(ChildDiamondB.self) { r in try ChildDiamondB(d: r.resolve(ChildDiamondD.self)) }
        let child = parent.makeChild()
        child.register(ChildDiamondC.self) { r in try ChildDiamondC(d: r.resolve(ChildDiamondD.self)) }
        child.register(ChildDiamondA.self) { r in
            try ChildDiamondA(b: r.resolve(ChildDiamondB.self), c: r.resolve(ChildDiamondC.self))
        }

        let a = try child.resolve(ChildDiamondA.self)

        #expect(a.b.d === a.c.d)
        #expect(dCalls.count == 1)
    }

    // MARK: resolveAll

    @Test func resolveAllFromAChildListsParentsRegistrationsFirstThenTheChildsAndShadowsKeepTheirPlace() throws {
        let parent = Container()
        parent.register((any ChildPlugin).self) { _ in ChildPluginImpl(id: "parent-unnamed") }
        parent.register((any ChildPlugin).self, name: "a") { _ in ChildPluginImpl(id: "parent-a") }
        parent.register((any ChildPlugin).self, name: "b") { _ in ChildPluginImpl(id: "parent-b") }
        let child = parent.makeChild()
        child.register((any ChildPlugin).self, name: "c") { _ in ChildPluginImpl(id: "child-c") }
        child.register((any ChildPlugin).self, name: "a") { _ in ChildPluginImpl(id: "child-a") }
        child.register((any ChildPlugin).self, name: "d") { _ in ChildPluginImpl(id: "child-d") }

        let fromChild = try child.resolveAll((any ChildPlugin).self).map(\.id)
        let fromParent = try parent.resolveAll((any ChildPlugin).self).map(\.id)

        #expect(fromChild == ["parent-unnamed", "child-a", "parent-b", "child-c", "child-d"])
        #expect(fromParent == ["parent-unnamed", "parent-a", "parent-b"])
    }

    @Test func resolveAllFromAGrandchildListsRootThenChildThenGrandchild() throws {
        let root = Container()
        root.register((any ChildPlugin).self, name: "r1") { _ in ChildPluginImpl(id: "root-r1") }
        root.register((any ChildPlugin).self, name: "r2") { _ in ChildPluginImpl(id: "root-r2") }
        let child = root.makeChild()
        child.register((any ChildPlugin).self, name: "c1") { _ in ChildPluginImpl(id: "child-c1") }
        let grandchild = child.makeChild()
        grandchild.register((any ChildPlugin).self, name: "g1") { _ in ChildPluginImpl(id: "grandchild-g1") }
        grandchild.register((any ChildPlugin).self, name: "c1") { _ in ChildPluginImpl(id: "grandchild-c1") }
        grandchild.register((any ChildPlugin).self, name: "r1") { _ in ChildPluginImpl(id: "grandchild-r1") }

        let ids = try grandchild.resolveAll((any ChildPlugin).self).map(\.id)

        #expect(ids == ["grandchild-r1", "root-r2", "grandchild-c1", "grandchild-g1"])
        #expect(try child.resolveAll((any ChildPlugin).self).map(\.id) == ["root-r1", "root-r2", "child-c1"])
    }

    @Test func resolveAllFromAChildWithNoRegistrationsOfItsOwnListsTheParents() throws {
        let parent = Container()
        parent.register((any ChildPlugin).self, name: "a") { _ in ChildPluginImpl(id: "parent-a") }
        parent.register((any ChildPlugin).self) { _ in ChildPluginImpl(id: "parent-unnamed") }
        let child = parent.makeChild()

        #expect(try child.resolveAll((any ChildPlugin).self).map(\.id) == ["parent-a", "parent-unnamed"])
        #expect(try parent.makeChild().makeChild().resolveAll((any ChildPlugin).self).count == 2)
    }

    /// A child made per test or per request takes its singletons and given instances with it: the
    /// container tree does not keep them (it did, for as long as the root lived). Nor does what lets
    /// every tree recognise them as shared, a child's or a root's.
    @Test(arguments: [true, false])
    func aContainersSingletonsAndGivenInstancesAreReleasedWithIt(isChild: Bool) throws {
        let root = Container()
        weak var releasedContainer: Container?
        weak var releasedSingleton: ChildDisposable?
        weak var releasedGiven: ChildSingleton?
        do {
            let container = isChild ? root.makeChild() : Container()
            container.register(ChildDisposable.self, scope: .singleton) { _ in ChildDisposable() }
            let given = ChildSingleton(serial: 1)
            container.register(ChildSingleton.self, instance: given, ownedBy: .caller)
            releasedSingleton = try container.resolve(ChildDisposable.self)
            releasedGiven = try container.resolve(ChildSingleton.self)
            releasedContainer = container
        }
        #expect(releasedContainer == nil)
        #expect(releasedSingleton == nil)
        #expect(releasedGiven == nil)
    }

    /// A scope of a child never disposes a singleton handed on under another key, whether the
    /// child's own or its parent's.
    @Test func aChildsScopeDisposesNoSingletonOfTheChildOrItsParentHandedOn() throws {
        let root = Container()
        root.register(ChildDisposable.self, name: "root", scope: .singleton) { _ in ChildDisposable() }
        let child = root.makeChild()
        child.register(ChildDisposable.self, name: "child", scope: .singleton) { _ in ChildDisposable() }
        child.register(ChildDisposable.self, name: "root, handed on") { r in
            try r.resolve(ChildDisposable.self, name: "root")
        }
        child.register(ChildDisposable.self, name: "child, handed on") { r in
            try r.resolve(ChildDisposable.self, name: "child")
        }
        try child.withScope { scope in
            _ = try scope.resolve(ChildDisposable.self, name: "root, handed on")
            _ = try scope.resolve(ChildDisposable.self, name: "child, handed on")
        }
        #expect(try root.resolve(ChildDisposable.self, name: "root").disposals.current == 0)
        #expect(try child.resolve(ChildDisposable.self, name: "child").disposals.current == 0)
    }

    /// A scope never disposes a singleton of another container of its tree that a factory hands on
    /// through a captured container: a sibling's, or a child's handed on by its parent.
    @Test func aScopeDisposesNoSingletonOfAnotherContainerOfItsTree() throws {
        let root = Container()
        let (first, second) = (root.makeChild(), root.makeChild())
        first.register(ChildDisposable.self, scope: .singleton) { _ in ChildDisposable() }
        second.register(ChildDisposable.self, name: "handed on") { _ in try first.resolve(ChildDisposable.self) }
        root.register(ChildDisposable.self, name: "a child's, handed on") { _ in
            try first.resolve(ChildDisposable.self)
        }
        let singleton = try first.resolve(ChildDisposable.self)

        try second.withScope { _ = try $0.resolve(ChildDisposable.self, name: "handed on") }
        try root.withScope { _ = try $0.resolve(ChildDisposable.self, name: "a child's, handed on") }

        #expect(singleton.disposals.current == 0)
    }

    /// An instance a parent and a child were both given stays the parent's when the child goes: no
    /// scope of the parent takes charge of it.
    @Test func anInstanceGivenToAParentAndAChildStaysSharedWhenTheChildGoes() throws {
        let root = Container()
        let shared = ChildDisposable()
        root.register(ChildDisposable.self, instance: shared, ownedBy: .caller)
        do {
            let child = root.makeChild()
            child.register(ChildDisposable.self, name: "also", instance: shared, ownedBy: .caller)
        }
        root.register(ChildDisposable.self, name: "handed on") { r in try r.resolve(ChildDisposable.self) }

        try root.withScope { _ = try $0.resolve(ChildDisposable.self, name: "handed on") }

        #expect(shared.disposals.current == 0)
    }
}
