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

/// The bookkeeping of one validation: which registrations to resolve, and the problems found,
/// each reported once.
struct Validation {
    private let container: Container
    private var problems: [InjectionError] = []
    private var reported: Set<ProblemIdentity> = []
    private var checked: [ServiceKey] = []
    private var declared: [AnyProvider] = []
    private var unchecked: [ValidationReport.UncheckedRegistration] = []

    /// What makes two problems the same: a registration missing or failing once is one problem,
    /// whichever registration's resolution met it; a conflicting registration (a duplicate, a
    /// late one) is one, whether found in the registry or by a resolution that asked for it; a cycle
    /// is one, wherever it is entered; a captive dependency is one per path from its holder.
    private struct ProblemIdentity: Hashable {
        let code: InjectionError.Code
        let keys: Set<ServiceKey>
    }

    init(of container: Container) {
        self.container = container
    }

    /// The registrations visible from the container, the nearest for each key, in registration
    /// order, that validation resolves in its sandbox; conflicts are reported, declared
    /// registrations without hooks are kept for `checkDeclarations()`, and those that cannot be
    /// resolved are noted as unchecked.
    mutating func providersToResolve(includingAsync: Bool) -> [AnyProvider] {
        container.visibleProviders.compactMap { provider in
            if provider.conflict != nil {
                note(InjectionError.conflict(provider, path: []))
                return nil
            }
            // A declared registration with hooks or checks is run, since they are closures, unless
            // it takes arguments, which validation has none of: then only its declarations are checked.
            if provider.declaredDependencies != nil, provider.preparation == nil || !provider.key.argumentTypes.isEmpty
            {
                declared.append(provider)
                return nil
            }
            if !provider.key.argumentTypes.isEmpty {
                unchecked.append(.init(key: provider.key, reason: .needsArguments))
                return nil
            }
            if provider.isAsync && !includingAsync {
                unchecked.append(.init(key: provider.key, reason: .asyncFactory))
                return nil
            }
            return provider
        }
    }

    /// Notes the outcome of resolving `provider`: checked, and the problem it met, if any.
    mutating func note(_ provider: AnyProvider, outcome: Result<Void, any Error>) {
        if case .failure(let error as InjectionError) = outcome, error.underlyingError is ScopeValueInSandbox {
            // A value scopes are given: the sandbox has none to build with.
            let reason: ValidationReport.UncheckedRegistration.Reason =
                error.resolutionPath == [provider.key] ? .providedByScope : .needsScopeValue
            unchecked.append(.init(key: provider.key, reason: reason))
            return
        }
        if case .failure(let error as InjectionError) = outcome, error.code == .mainActorRequired {
            unchecked.append(.init(key: provider.key, reason: .needsMainActor))  // validated off the main actor
            return
        }
        checked.append(provider.key)
        if case .failure(let error) = outcome { note(error) }
    }

    /// Checks the declared registrations from their declarations, after the sandbox has run the
    /// others (so that the edges of those are known), with the sample values the sandbox's scope was
    /// given; and walks the edges the sandbox recorded from singleton and weak closure registrations,
    /// which go on behind the handles they hold, which the sandbox does not resolve.
    mutating func checkDeclarations(samples: ScopeValues) {
        var check = DeclarationCheck(of: container, samples: samples)
        for provider in declared { check.check(provider) }
        for provider in container.visibleProviders
        where provider.declaredDependencies == nil && provider.outlivesLifetimeScopes && provider.conflict == nil {
            check.check(provider)
        }
        for problem in check.problems { note(problem) }
    }

    /// Runs the disposal of the sandbox, recording what it throws.
    mutating func checkDisposal(_ disposal: () throws -> Void) {
        do {
            try disposal()
        } catch let error as InjectionError where error.code == .disposalFailed {
            for problem in error.problems { note(problem) }
        } catch {
            note(error)
        }
    }

    /// The report, or the error listing every problem found.
    func finish(undisposed: [ServiceKey]) throws -> ValidationReport {
        if !problems.isEmpty { throw InjectionError.validationFailed(problems) }
        return ValidationReport(
            checked: declared.map(\.key) + checked,
            checkedFromDeclarations: declared.map(\.key),
            unchecked: unchecked,
            undisposed: undisposed
        )
    }

    private mutating func note(_ error: any Error) {
        guard let error = error as? InjectionError else {
            problems.append(.factoryFailed(error, path: [], of: nil))
            return
        }
        if reported.insert(identity(of: error)).inserted { problems.append(error) }
    }

    private func identity(of error: InjectionError) -> ProblemIdentity {
        let path = error.resolutionPath
        // A conflict's message names its key and sites and no path: the registry's report and a
        // resolution's (path `NoteStore -> Disk`, whose message may also name the declared
        // parameter that asked for it) are the same problem.
        let isConflict = [
            .duplicateRegistration, .registrationAfterFinish, .sharedScopeWithArguments, .argumentTypesMismatch,
        ].contains(error.code)
        guard let last = path.last, !isConflict else {
            let message = error.unnamedMessage ?? error.message
            return ProblemIdentity(code: error.code, keys: [ServiceKey(String.self, name: message)])
        }
        if error.code == .circularDependency, let start = path.firstIndex(of: last) {
            return ProblemIdentity(code: error.code, keys: Set(path[start...]))
        }
        if error.code == .captiveDependency {
            return ProblemIdentity(code: error.code, keys: Set(path))  // one per holder, path and captive
        }
        return ProblemIdentity(code: error.code, keys: [last])
    }
}
