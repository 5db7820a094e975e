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

extension Container {
    /// Checks the whole graph: resolves every registration visible from this container, in a
    /// sandbox, and reports every problem at once. Call it at launch, or in a test.
    ///
    /// ```swift
    /// @Test func theGraphIsComplete() throws {
    ///     try AppContainer.make().validate()
    /// }
    /// ```
    ///
    /// It finds duplicate and late registrations, missing dependencies (with the path that needs
    /// them: `Editor -> NoteStore -> Clock (missing)`), cycles, captive dependencies, async
    /// registrations needed by sync factories, and factories, hooks and checks that throw.
    ///
    /// **What it runs.** Every factory of a registration without resolve-time arguments, with its
    /// hooks and checks, in a sandbox: singleton, weak and scoped instances are built afresh there
    /// (each resolution as if in a scope with the tag its first ``Scope/scoped(to:)`` service names, so
    /// that services needing scopes of two different tags are reported), nothing built is kept,
    /// and the disposable instances are disposed before it returns. The container's own singletons
    /// are left alone. Factories should therefore be free of outside side effects (sending mail,
    /// writing files) — good practice for factories anyway.
    ///
    /// - Returns: What was checked, and what could not be: registrations that need resolve-time
    ///   arguments, and async ones (``validateAsync(isolation:)`` checks those).
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/validationFailed``; each
    ///   problem, with its own code, is in ``InjectionError/problems``.
    @discardableResult
    public func validate() throws -> ValidationReport {
        try validate(providing: { _ in })
    }

    /// Checks the whole graph as ``validate()`` does, with sample values for the values lifetime
    /// scopes are given (``register(_:name:providedByScope:fileID:line:)``), so that the closure
    /// registrations that need them are built and checked too.
    ///
    /// ```swift
    /// try container.validate(providing: { $0.provide(RequestInfo.self, .sample) })
    /// ```
    ///
    /// Declared registrations are checked from their declarations: a value they need that is given
    /// to scopes and not declared with ``register(_:name:providedByScope:fileID:line:)`` counts as
    /// there when it is among the samples.
    ///
    /// - Parameter values: Gives the sandbox's scope its sample values.
    /// - Returns: What was checked, and what could not be.
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/validationFailed``; each
    ///   problem, with its own code, is in ``InjectionError/problems``.
    @discardableResult
    public func validate(providing values: (inout ScopeValues) -> Void) throws -> ValidationReport {
        var validation = Validation(of: self)
        let sandbox = makeSandbox(providing: values)
        for provider in validation.providersToResolve(includingAsync: false) {
            let context = ResolutionContext.begin()
            defer { context.end() }
            context.start(in: sandbox.lifetimeScope, sideStore: sandbox.side)
            validation.note(
                provider,
                outcome: Result {
                    try provider.resolveWithoutArguments(in: context, from: self)
                    try context.complete()
                }
            )
        }
        validation.checkDeclarations(samples: sandbox.lifetimeScope.values)
        let records = sandbox.disposals.takeRecords()
        validation.checkDisposal { try DisposalBag.disposeDroppingAsyncOnly(records) { "validation" } }
        return try validation.finish(undisposed: records.asyncOnlyKeys)
    }

    /// Checks the whole graph as ``validate()`` does, and resolves async registrations as well.
    ///
    /// It runs in the caller's isolation (`isolation`, the caller's actor by default), as
    /// ``resolveAsync(_:name:arguments:configure:isolation:)`` does: called from the main actor, it
    /// checks the registrations made on the main actor too (a view route's screen).
    ///
    /// - Returns: What was checked, and the registrations that need resolve-time arguments.
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/validationFailed``; each
    ///   problem is in ``InjectionError/problems``.
    @discardableResult
    public func validateAsync(isolation: isolated (any Actor)? = #isolation) async throws -> ValidationReport {
        try await validateAsync(providing: { _ in }, isolation: isolation)
    }

    /// Checks the whole graph as ``validateAsync(isolation:)`` does, with sample values for the values
    /// lifetime scopes are given, as ``validate(providing:)`` takes them.
    ///
    /// - Parameters:
    ///   - values: Gives the sandbox's scope its sample values.
    ///   - isolation: Where it runs: the caller's actor by default.
    /// - Returns: What was checked, and the registrations that need resolve-time arguments.
    /// - Throws: ``InjectionError`` with code ``InjectionError/Code/validationFailed``; each
    ///   problem is in ``InjectionError/problems``.
    @discardableResult
    public func validateAsync(
        providing values: (inout ScopeValues) -> Void,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> ValidationReport {
        var validation = Validation(of: self)
        let sandbox = makeSandbox(providing: values)
        for provider in validation.providersToResolve(includingAsync: true) {
            let context = ResolutionContext(asyncIn: sandbox.lifetimeScope, from: self)
            defer { context.end() }
            context.start(in: sandbox.lifetimeScope, sideStore: sandbox.side)
            do {
                try await provider.resolveWithoutArgumentsAsync(in: context, from: self)
                try context.complete()
                validation.note(provider, outcome: .success(()))
            } catch {
                validation.note(provider, outcome: .failure(error))
            }
        }
        validation.checkDeclarations(samples: sandbox.lifetimeScope.values)
        let records = sandbox.disposals.takeRecords()
        do { try await DisposalBag.disposeAsync(records) { "validation" } } catch {
            validation.checkDisposal { throw error }
        }
        return try validation.finish(undisposed: [])
    }

    private func makeSandbox(providing values: (inout ScopeValues) -> Void) -> Sandbox {
        var given = ScopeValues()
        values(&given)
        let lifetimeScope = LifetimeScope(container: self, tag: nil, acceptsEveryTag: true, values: given)
        return Sandbox(
            lifetimeScope: lifetimeScope,
            side: InstanceStore.make(disposingIn: lifetimeScope.store.disposals, isSideStore: true)
        )
    }
}

/// Where validation builds shared instances: a scope that stands for every tag, and a store for
/// singletons and weak instances; both hand what is disposable to the scope's records, so that
/// disposal keeps the order of completion across them.
struct Sandbox {
    let lifetimeScope: LifetimeScope
    let side: InstanceStore

    var disposals: InstanceStore { lifetimeScope.store.disposals }
}
