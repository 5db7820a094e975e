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

/// The errors of lifetime scopes, disposal and async resolution.
extension InjectionError {
    /// `holder` depends on `captive`, which would then outlive its lifetime scope; or, with `scoped`,
    /// on a `captive` this resolution built with the scoped `scoped`, which it would keep past that
    /// one's lifetime scope; or, with `handle`, holds a handle (`Lazy<…>`, `ServiceProvider<…>`) to
    /// `captive`, which it would resolve from the container.
    static func captiveDependency(
        _ holder: ServiceKey,
        scope: Scope,
        captive: ServiceKey,
        captiveScope: Scope,
        holding scoped: ServiceKey? = nil,
        through handle: String? = nil,
        path: [ServiceKey]
    ) -> InjectionError {
        let message =
            if let handle {
                "Captive dependency: \(holder) (.\(scope)) holds a \(handle), which resolves from the container,"
                    + " where \(captive) (.\(captiveScope)) cannot be resolved: every use would fail. Path:"
                    + " \(path.pathDescription). Fix: pass \(captive) to the methods of \(holder) that use it rather"
                    + " than hold a handle to it, or give \(holder) a scope no longer than \(captive)'s"
                    + " (.\(captiveScope) or .transient)."
            } else if let scoped {
                "Captive dependency: \(holder) (.\(scope)) depends on \(captive) (.\(captiveScope)), which"
                    + " this resolution built with the scoped \(scoped): \(holder) would keep it past its lifetime"
                    + " scope. Path: \(path.pathDescription). Fix: give \(holder) a scope no longer than"
                    + " \(scoped)'s, or pass \(captive) to the methods of \(holder) that use it rather than hold it."
            } else {
                "Captive dependency: \(holder) (.\(scope)) depends on \(captive) (.\(captiveScope)),"
                    + " which would then outlive its lifetime scope. Path: \(path.pathDescription)."
                    + " Fix: give \(holder) a scope no longer than \(captive)'s (.\(captiveScope) or .transient),"
                    + " give \(captive) a longer one, or pass \(captive) to the methods of \(holder) that use it"
                    + " rather than hold it."
            }
        return InjectionError(.captiveDependency, message, path: path)
    }

    /// A scoped registration resolved outside any lifetime scope; `valueSite` is where it was
    /// declared when it is a value scopes are given (`register(_:providedByScope:)`).
    static func scopedOutsideScope(
        _ key: ServiceKey,
        scope: Scope,
        valueSite: RegistrationSite?,
        path: [ServiceKey]
    ) -> InjectionError {
        let make = makeScope(tag: scope.tag)
        let outside = "was resolved from a container, outside any lifetime scope"
        let (problem, fix) =
            if let valueSite {
                (
                    "\(key) is \(valueGivenTo(scope)) (declared at \(valueSite)), but \(outside).",
                    "resolve it from a scope given one: \(make) { $0.provide(\(key.spelledInCall), …) }."
                )
            } else {
                (
                    "\(key) is .\(scope), but \(outside), so nothing would own its instance.",
                    "resolve from a lifetime scope: let scope = \(make); try scope.resolve(…)."
                )
            }
        return InjectionError(.scopeMismatch, "\(problem)\(path.pathNote) Fix: \(fix)", path: path)
    }

    /// A registration scoped to one tag resolved from a scope of another; `valueSite` as in
    /// `scopedOutsideScope`.
    static func scopeTagMismatch(
        _ key: ServiceKey,
        scope: Scope,
        valueSite: RegistrationSite?,
        scopeTag: ScopeTag?,
        path: [ServiceKey]
    ) -> InjectionError {
        let make = makeScope(tag: scope.tag)
        let (what, fix) =
            if let valueSite {
                (
                    "\(valueGivenTo(scope)) (declared at \(valueSite))",
                    "resolve it from a scope made with \(make) { $0.provide(\(key.spelledInCall), …) },"
                        + " or declare it with providedByScope: nil to let a scope of any tag be given it."
                )
            } else {
                (
                    ".\(scope)",
                    "resolve it from a scope made with \(make), or register it as .scoped to let any scope own it."
                )
            }
        return InjectionError(
            .scopeMismatch,
            "\(key) is \(what), but was resolved from \(scopeName(scopeTag)).\(path.pathNote) Fix: \(fix)",
            path: path
        )
    }

    /// `a value provided by lifetime scopes tagged "request"`, or by any lifetime scope.
    private static func valueGivenTo(_ scope: Scope) -> String {
        scope.tag.map { "a value provided by lifetime scopes tagged \"\($0)\"" }
            ?? "a value provided by lifetime scopes"
    }

    /// A lifetime scope tagged `tag` as a message names it: `the scope "request"`, `an untagged scope`.
    private static func scopeName(_ tag: ScopeTag?) -> String {
        tag.map { "the scope \"\($0)\"" } ?? "an untagged scope"
    }

    /// The call that makes a lifetime scope tagged `tag`, for a message's fix.
    private static func makeScope(tag: ScopeTag?) -> String {
        tag.map { "container.makeScope(tag: \"\($0)\")" } ?? "container.makeScope()"
    }

    /// `text` with its first letter capitalised, to start a sentence.
    private static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }

    static func scopeClosed(asking key: ServiceKey, tag: ScopeTag?, byHandle: Bool = false) -> InjectionError {
        let message =
            byHandle
            ? "A Lazy or ServiceProvider resolved \(key) from \(scopeName(tag)) after the scope was closed; its"
                + " instances are disposed, and a handle does not keep its scope open. Fix: use the handle only"
                + " while its scope is open, or resolve \(key) before closing the scope."
            : "\(key) was resolved from \(scopeName(tag)) after it was closed; its instances are disposed."
                + " Fix: resolve what the work needs before closing the scope, or make a new one with"
                + " \(makeScope(tag: tag))."
        return InjectionError(.scopeClosed, message, path: [key])
    }

    static func scopeInUse(tag: ScopeTag?, resolutions: Int) -> InjectionError {
        let scope = sentence(scopeName(tag))
        let running = resolutions == 1 ? "1 resolution from it was" : "\(resolutions) resolutions from it were"
        let message =
            "\(scope) was closed while \(running) still running; it stays open and"
            + " nothing was disposed. Fix: close a scope once the work that resolves from it has finished"
            + " (await its tasks first)."
        return InjectionError(.scopeInUse, message)
    }

    static func asyncDisposalRequired(
        _ keys: [ServiceKey],
        owner: String,
        asyncSpelling: String,
        consequence: String
    ) -> InjectionError {
        let listed = keys.map(\.description).joined(separator: ", ")
        let message =
            "\(sentence(owner)) holds instances that only an async"
            + " disposal can dispose (AsyncDisposable): \(listed). \(consequence) Fix: use \(asyncSpelling),"
            + " or make them Disposable as well."
        return InjectionError(.asyncDisposalRequired, message, path: [])
    }

    /// Closing `scope` failed with `failure` after the work run in it threw `workError`, which is the
    /// error thrown: this one goes to the diagnostics handler, with its code.
    static func closeFailed(_ failure: any Error, of scope: String, after workError: any Error) -> InjectionError {
        let prefix = "Closing \(scope) after its work threw (\(workError)) failed too; the work's error was thrown."
        guard let failure = failure as? InjectionError else {
            return InjectionError(.disposalFailed, "\(prefix) \(failure)", underlyingError: failure)
        }
        return failure.with(message: "\(prefix) \(failure.message)", path: failure.resolutionPath)
    }

    static func disposalFailed(_ key: ServiceKey, error: any Error) -> InjectionError {
        let message = "Disposing \(key) threw: \(clause(error)). The error is the underlyingError."
        return InjectionError(.disposalFailed, message, path: [key], underlyingError: error)
    }

    /// The failures of the `disposed` disposals of what `owner` owned, every one of which ran; a
    /// sync disposal left `undisposed`, which only an async disposal can dispose.
    static func disposalsFailed(
        _ failures: [InjectionError],
        outOf disposed: Int,
        undisposed: [ServiceKey],
        owner: String
    ) -> InjectionError {
        let failed = failures.count
        let ran = undisposed.isEmpty ? "" : " that ran"
        var outcome =
            if failed < disposed {
                "\(failed) of \(disposed) disposals\(ran) threw"
            } else if failed == 1 {
                undisposed.isEmpty ? "its one disposal threw" : "the one disposal that ran threw"
            } else {
                "all \(failed) disposals\(ran) threw"
            }
        if !undisposed.isEmpty {
            let (verb, pronoun) = undisposed.count == 1 ? ("was", "it") : ("were", "them")
            outcome += "; \(listed(undisposed)) \(verb) not disposed: only an async disposal can dispose \(pronoun)"
        } else if failed < disposed {
            outcome += "; every other instance was disposed"
        }
        let message =
            "Disposing what \(owner) owned: \(outcome).\n" + failures.map { "- \($0.message)" }.joined(separator: "\n")
        return InjectionError(
            .disposalFailed,
            message,
            underlyingError: failures.count == 1 ? failures[0].underlyingError : nil,
            problems: failures
        )
    }

    /// What resolved an async registration synchronously, for the fix its error gives.
    enum SyncReader: Equatable {
        case resolve
        case resolveAll  // which `resolveAllAsync` replaces
        /// A `Lazy` of the service given, whose value is read synchronously: a `ServiceProvider` of
        /// it, with `resolveAsync()`, replaces it.
        case lazy(of: ServiceKey)
    }

    /// The error of a sync resolve of `key`, whose factory is async, by `reader`.
    static func asyncResolutionRequired(
        _ key: ServiceKey,
        path: [ServiceKey],
        by reader: SyncReader = .resolve,
        neededByDeclared declared: ServiceKey? = nil
    ) -> InjectionError {
        if case .lazy(let asked) = reader {
            let service = typeName(asked.serviceType)
            let message =
                "\(key) has an async factory, which a Lazy cannot run: its value is read synchronously."
                + path.pathNote + " Fix: hold a ServiceProvider<\(service)> instead and call try await resolveAsync()"
                + " where \(service) is needed (a shared one is built once), or resolve \(asked) with try"
                + " await resolveAsync before it is needed."
            return InjectionError(.asyncResolutionRequired, message, path: path)
        }
        if let declared {
            // Resolving asynchronously would not help: a sync declared function's parameters are
            // resolved synchronously, however it is resolved.
            let types = declared.argumentTypes.map { "\(typeName($0)).self" }.joined(separator: ", ")
            let register =
                declared.spelledInCall
                + (types.isEmpty
                    ? "" : declared.argumentTypes.count == 1 ? ", argument: \(types)" : ", arguments: \(types)")
            let message =
                "\(key) has an async factory, and the function registered for \(declared) is sync, so it cannot"
                + " be given one, however \(declared) is resolved." + path.pathNote + " Fix: register an async"
                + " function for it, e.g. container.register(\(register)) { (…) async in … }, and resolve it with"
                + " try await resolveAsync; or give \(key) a sync factory."
            return InjectionError(.asyncResolutionRequired, message, path: path)
        }
        // The resolve as it would be written for this key: with its name, and its arguments' label.
        let arguments =
            switch key.argumentTypes.count {
            case 0: ""
            case 1: ", argument: …"
            default: ", arguments: …"
            }
        let (resolve, fix) =
            reader == .resolveAll
            ? ("resolveAll", "resolve them all with try await resolveAllAsync(\(typeName(key.serviceType)).self)")
            : ("resolve", "resolve it with try await resolveAsync(\(key.spelledInCall)\(arguments))")
        let message =
            "\(key) has an async factory, which a sync \(resolve) cannot run." + path.pathNote
            + " Fix: \(fix), from the container or scope you resolve from (r.\(resolve)Async in an async"
            + " factory); a sync factory that needs \(reader == .resolveAll ? "them" : "it") must become async too."
        return InjectionError(.asyncResolutionRequired, message, path: path)
    }

    /// `key`, a value scopes provide, declared at `site`, missing from a scope of `tag` that was
    /// given values of its type under the names `givenUnder`, if any.
    static func scopeValueMissing(
        _ key: ServiceKey,
        tag: ScopeTag?,
        site: RegistrationSite,
        givenUnder names: [String?] = [],
        path: [ServiceKey]
    ) -> InjectionError {
        let scope = tag.map { "the scope \"\($0)\"" } ?? "the untagged scope"
        let given = names.map { name in
            ServiceKey(
                type: key.serviceType,
                argumentTypes: [],
                lookupKey: LookupKey(group: key.lookupKey.group, name: name)
            ).description
        }
        let instead =
            given.isEmpty ? "" : " It was given \(given.sorted().joined(separator: ", ")): a name tells values apart."
        let message =
            "\(key) is a value provided by lifetime scopes (declared at \(site)), but \(scope) was not given"
            + " one." + instead + path.pathNote + " Fix: give it when making the scope: \(makeScope(tag: tag))"
            + " { $0.provide(\(key.spelledInCall), …) }."
        return InjectionError(.scopeValueMissing, message, path: path)
    }

    /// The keys in order of first appearance, each once, with a count where it appears more often:
    /// `Formatter (2 instances), Connection`.
    private static func listed(_ keys: [ServiceKey]) -> String {
        var order: [ServiceKey] = []
        var counts: [ServiceKey: Int] = [:]
        for key in keys {
            if counts[key] == nil { order.append(key) }
            counts[key, default: 0] += 1
        }
        return order.map { counts[$0]! == 1 ? "\($0)" : "\($0) (\(counts[$0]!) instances)" }.joined(separator: ", ")
    }

    static func scopeNotClosed(tag: ScopeTag?, undisposed: [ServiceKey]) -> InjectionError {
        let scope = sentence(scopeName(tag))
        let count = undisposed.count == 1 ? "1 disposable instance" : "\(undisposed.count) disposable instances"
        let message =
            "\(scope) was released without being closed: \(count) it owned will never be disposed:"
            + " \(listed(undisposed))."
            + " Fix: run the work in container.withScope { … } (withScopeAsync in async code), which closes"
            + " the scope on every path, or close it on every path yourself (try await scope.closeAsync())."
        return InjectionError(.scopeNotClosed, message, path: undisposed)
    }

    /// Where a resolve of a shared instance, or of a ``Lazy``'s first value, was when its task was
    /// found cancelled.
    enum CancelledResolve {
        /// Before it would have run the factory itself.
        case beforeBuilding
        /// At the instance's gate, which another resolution holds while it builds the instance (the
        /// resolve waited, or would have).
        case whileAnotherBuilds
        /// At the turn to build a registration with preparation steps, which another resolution
        /// holds while it builds one (those are built one resolution at a time).
        case awaitingTurn
        /// At a ``Lazy``'s gate, which another resolution holds while it resolves its first value.
        case whileAnotherResolvesLazy
    }

    /// A cancelled task's resolve of the shared instance `key`, or of a ``Lazy``'s first value,
    /// stopped at `stop`.
    static func resolutionCancelled(_ key: ServiceKey, path: [ServiceKey], at stop: CancelledResolve) -> InjectionError
    {
        let why =
            switch stop {
            case .beforeBuilding:
                "the task was cancelled before it would have started building its shared instance: a cancelled"
                    + " task starts no shared factory."
            case .whileAnotherBuilds:
                "the task was cancelled, and another resolution is building its shared instance: a cancelled"
                    + " task does not wait for it."
            case .awaitingTurn:
                "the task was cancelled while another resolution was building a shared instance with onResolved"
                    + " or verify steps (those are built one resolution at a time), which its own has too: a"
                    + " cancelled task does not wait for its turn."
            case .whileAnotherResolvesLazy:
                "the task was cancelled while another resolution resolves the first value of a"
                    + " Lazy<\(typeName(key.serviceType))>: a cancelled task does not wait for it."
            }
        let outcome =
            stop == .whileAnotherResolvesLazy
            ? "Nothing was resolved for this access; the value is resolved once"
            : "Nothing was built for this resolve; the instance is built once"
        let message =
            "Resolving \(key) was cancelled: " + why + " \(outcome), by a task that is not cancelled." + path.pathNote
            + " Fix: nothing, if the task was meant to stop; otherwise, do not cancel it while it resolves."
        return InjectionError(.resolutionCancelled, message, path: path)
    }

    /// A wait that could never end: `path` (ending in `asked`) would wait for the instance another
    /// thread's (or task's: `runner`) resolution is building, and that one waits (through
    /// `others`, each a service asked for and the path that asks for it) for one this resolution
    /// is building. A wait `atRealm` is for the turn to build registrations with preparation steps,
    /// which are built one resolution at a time.
    static func circularWait(
        _ asked: ServiceKey,
        path: [ServiceKey],
        atRealm: Bool,
        waitingFor others: [(asked: ServiceKey, path: [ServiceKey], atRealm: Bool)],
        between runner: String
    ) -> InjectionError {
        func needs(_ service: ServiceKey, atRealm: Bool, of builder: String) -> String {
            atRealm
                ? "the turn to build \(service) (a registration with onResolved or verify steps: those are built"
                    + " one resolution at a time), which \(builder) has"
                : "the \(service) that \(builder) is building"
        }
        var message =
            "Resolving \(asked) would wait forever: this resolution (\(path.pathDescription)) needs "
            + needs(asked, atRealm: atRealm, of: "another \(runner)'s resolution")
        for (index, other) in others.enumerated() {
            let next = index + 1 < others.count ? "another \(runner)'s resolution" : "this resolution"
            message +=
                ", and that one (\(other.path.pathDescription)) waits for "
                + needs(other.asked, atRealm: other.atRealm, of: next)
        }
        message +=
            ". Each holds a shared instance it has not finished while it waits for the other's, so neither"
            + " can go on; this one stops instead of waiting, and releases what it holds."
            + " Fix: let one of them resolve the other's service first, or before starting the other"
            + " \(runner)'s work, or ask for it later through Lazy<T> or ServiceProvider<T>"
        if atRealm || others.contains(where: \.atRealm) {
            message += "; or resolve the services with onResolved or verify steps once at start-up"
        }
        message += "."
        return InjectionError(.circularWait, message, path: path)
    }

    static func validationFailed(_ problems: [InjectionError]) -> InjectionError {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        let message = "Validation found \(count):\n" + problems.map { "- \($0.message)" }.joined(separator: "\n")
        return InjectionError(.validationFailed, message, problems: problems)
    }
}
