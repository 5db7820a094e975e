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

/// The errors the container raises, each with a message that says what was asked, the path that led
/// there, what is registered nearby and how to fix it.
extension InjectionError {
    static func missing(
        _ asked: ServiceKey,
        path: [ServiceKey],
        in container: Container,
        arguments: [Any] = []
    ) -> InjectionError {
        let fullPath = path + [asked]
        let nearMisses = container.registeredKeys(near: asked)
        var message = "No registration for \(asked)"
        message += path.isEmpty ? "." : ", needed by \(fullPath.pathDescription) (missing)."
        if nearMisses.isEmpty {
            let type = typeName(asked.serviceType)
            message += " Nothing is registered for \(type) under any name or arguments."
            message += " Fix: register it, e.g. container.register(\(asked.spelledInCall)) \(asked.factorySketch),"
            message += " in this container or one of its parents."
        } else {
            message += " Registered nearby: \(nearMisses.map(\.description).joined(separator: "; "))."
            message +=
                nearMisses.lazy.compactMap { argumentFix(asked, near: $0, arguments: arguments) }.first
                ?? nearMissFix(asked)
        }
        return InjectionError(.missingRegistration, message, path: fullPath, nearMisses: nearMisses)
    }

    /// An override of `key`, which replaces no registration, while the container registers its type
    /// as `nearMisses`.
    static func unmatchedOverride(_ key: ServiceKey, nearMisses: [ServiceKey]) -> InjectionError {
        let registered = nearMisses.map(\.description).joined(separator: "; ")
        let message =
            "The override of \(key) replaces no registration: the container registers"
            + " \(typeName(key.serviceType)) as \(registered), which \(nearMisses.count == 1 ? "resolves" : "resolve")"
            + " as before. Fix: override that key, e.g."
            + " overrides.register(\(nearMisses[0].spelledInCall)) \(nearMisses[0].factorySketch); if it is meant to"
            + " add \(key), register it in the container first, or, for a value scopes are given, declare it:"
            + " container.register(\(key.spelledInCall), providedByScope: …)."
        return InjectionError(.unmatchedOverride, message, path: [], nearMisses: nearMisses)
    }

    /// The fix of a missing `asked` with registrations nearby, for a resolve written in code.
    private static func nearMissFix(_ asked: ServiceKey) -> String {
        " Fix: ask for one of those (same name and argument types), or register \(asked)."
    }

    /// The fix when `near` takes the `arguments` given to `asked` as types they are cast up to: a
    /// protocol, a superclass, an optional. A value of protocol type given as `argument:` is the
    /// usual cause, which Swift passes to the generic parameter as the type it holds.
    private static func argumentFix(_ asked: ServiceKey, near: ServiceKey, arguments: [Any]) -> String? {
        guard near.name == asked.name, near.argumentTypes.count == arguments.count else { return nil }
        let positions = arguments.indices.filter {
            ObjectIdentifier(asked.argumentTypes[$0]) != ObjectIdentifier(near.argumentTypes[$0])
        }
        let upcasts = positions.allSatisfy {
            castsUp(arguments[$0], passedAs: asked.argumentTypes[$0], to: near.argumentTypes[$0])
        }
        guard upcasts else { return nil }
        let casts = positions.map { position in
            let cast = "`as \(castName(of: near.argumentTypes[position]))`"
            return arguments.count == 1 ? cast : "argument \(position + 1) \(cast)"
        }
        guard arguments.count == 1 else {
            return " Fix: pass the arguments as \(near) takes them: \(casts.joined(separator: ", "))."
        }
        let held = typeName(asked.argumentTypes[0])
        let cause =
            castName(of: near.argumentTypes[0]).hasPrefix("any ")
            ? ": a value of protocol type given as `argument:` is passed as the type it holds, here \(held)" : ""
        return " Fix: pass the argument as \(near) takes it, \(casts[0])\(cause)."
    }

    /// Whether `value as target` compiles, for `value` passed as `type`: whether `target` is a protocol
    /// it conforms to, a superclass or an optional of either. Answered by a dynamic cast, which is
    /// an upcast only for a value passed as its own type, and not an array, a set, a dictionary, a
    /// tuple, an optional, `AnyHashable` or a metatype, whose dynamic casts also go down, unwrap or
    /// look inside: for those, `false`.
    private static func castsUp(_ value: Any, passedAs type: Any.Type, to target: Any.Type) -> Bool {
        func isInstance<Target>(_: Target.Type) -> Bool { value is Target }
        let looksInside =
            type is any OptionalService.Type || type is any ExpressibleByArrayLiteral.Type
            || type is any ExpressibleByDictionaryLiteral.Type || type == AnyHashable.self || value is Any.Type
            || Mirror(reflecting: value).displayStyle == .tuple
        return !looksInside && ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(type) && isInstance(target)
    }

    /// `type` as a cast names it: `any Shape` for a protocol, whose instances are of other types; a
    /// class, an optional, `AnyHashable`, `Any` and `AnyObject` by their names.
    private static func castName(of type: Any.Type) -> String {
        let named =
            type is AnyClass || type is any OptionalService.Type || type == AnyHashable.self || type == Any.self
            || type == AnyObject.self
        return named ? typeName(type) : "any \(typeName(type))"
    }

    /// This error, met resolving the dependency at `index` of the declared registration of `key`
    /// (written at `site`), which asked for `dependency` (as a `parameterType`, which may wrap it in
    /// an optional, a `Lazy` or a `ServiceProvider`): when the error is about `dependency`
    /// itself (missing, registered twice or late, async, out of its scope…), the message says which
    /// parameter needs it, counting the resolve-time arguments that come first. Any other error is
    /// returned as it is: one whose message only begins with the dependency's name (a cycle of a
    /// type named `Circular`) is not about it, which a message about it says with "is", "was" or
    /// "has" after its key.
    func declared(
        parameter index: Int,
        of key: ServiceKey,
        at site: RegistrationSite,
        asking dependency: ServiceKey,
        declaredAs parameterType: Any.Type
    ) -> InjectionError {
        guard resolutionPath.last == dependency else { return self }
        let position = key.argumentTypes.count + index + 1
        let lastDigit = (11...13).contains(position % 100) ? 0 : position % 10
        let suffix = lastDigit == 1 ? "st" : lastDigit == 2 ? "nd" : lastDigit == 3 ? "rd" : "th"
        let parameter = "the \(position)\(suffix) parameter of \(key) (declared at \(site))"
        // "No registration for X, the 2nd parameter of …", or "X, the 2nd parameter of …, is …".
        let missing = "No registration for \(dependency)"
        let subject = "\(dependency)"
        var rewritten: String
        if code == .missingRegistration, message.hasPrefix(missing) {
            rewritten = "\(missing), \(parameter)" + message.dropFirst(missing.count)
            // A declared function's parameter is named in its registration's `using:`.
            let genericFix = Self.nearMissFix(dependency)
            if rewritten.hasSuffix(genericFix), let first = nearMisses.first {
                rewritten.removeLast(genericFix.count)
                if let near = nearMisses.first(where: \.argumentTypes.isEmpty) {
                    rewritten +=
                        " Fix: name the one to use in the registration's using:, e.g."
                        + " Resolved(\(typeName(parameterType)).self\(near.name.map { ", name: \"\($0)\"" } ?? "")),"
                        + " or register \(dependency)."
                } else {
                    // Those take resolve-time arguments, which a declared function's parameters are not given.
                    let label = first.argumentTypes.count == 1 ? "argument" : "arguments"
                    rewritten +=
                        " Fix: register \(dependency) without resolve-time arguments, or register \(key) with a"
                        + " closure that resolves it with them: r.resolve(\(first.spelledInCall), \(label): …)."
                }
            }
        } else if ["is", "was", "has"].contains(where: { message.hasPrefix("\(subject) \($0) ") }) {
            rewritten = "\(subject), \(parameter)," + message.dropFirst(subject.count)
        } else {
            return self
        }
        return with(message: rewritten, path: resolutionPath, unnamedMessage: message)
    }

    static func conflict(_ provider: AnyProvider, path: [ServiceKey]) -> InjectionError {
        let sites = provider.sites
        let listed = sites.map(\.description).joined(separator: ", then at ")
        let fixLate = " Fix: make it before finishRegistration(), or in a child container (container.makeChild())."
        switch provider.conflict?.kind {
        case .lateRegistration?:
            let message =
                "\(provider.key) was registered after finishRegistration() (at \(listed));"
                + " the registry was already frozen." + fixLate
            return InjectionError(.registrationAfterFinish, message, path: path)
        case .lateAmendment?:
            let message =
                "An onResolved hook or verify check was added to \(provider.key) at \(sites.last!)"
                + " after finishRegistration(); it is registered at \(sites.first!)." + fixLate
            return InjectionError(.registrationAfterFinish, message, path: path)
        case .sharedScopeWithArguments?:
            let message =
                "\(provider.key) is registered as .\(provider.scope) at \(sites[0]), but its factory takes"
                + " resolve-time arguments: a shared instance is built once, from the first resolve's"
                + " arguments, and every later resolve would get it whatever its arguments. Fix: register it"
                + " as .transient (a new instance for each resolve), or register one named registration per"
                + " value (name: \"db-a\"), or share a service that hands out an instance per argument (a"
                + " pool keyed by host)."
            return InjectionError(.sharedScopeWithArguments, message, path: path)
        case .argumentTypesMismatch(let function, let dependencies)?:
            let arguments = "(" + provider.key.argumentTypes.map(typeName).joined(separator: ", ") + ")"
            let header = "\(provider.key) is registered at \(sites[0]) with a function of \(function), which does not"
            let message =
                if let dependencies {
                    header + " take the arguments \(arguments) first and then the dependencies `using:` lists"
                        + " \(dependencies): a declared registration hands a resolve's arguments to its function's"
                        + " first parameters, in order, and resolves one `using:` entry for each parameter after"
                        + " them. Fix: list one Resolved for each parameter after the arguments, of its type, or"
                        + " register a closure."
                } else {
                    header + " take the arguments \(arguments) first: a declared registration hands a resolve's"
                        + " arguments to its function's first parameters, in order. Fix: list the argument types as"
                        + " the function's first parameters are typed, or register a closure that takes them in its"
                        + " own order."
                }
            return InjectionError(.argumentTypesMismatch, message, path: path)
        case .duplicate?, nil:
            break
        }
        // A layer's registration (a route, an adapter) gets that layer's fix: one that cannot be
        // replaced first, else the latest. The container's options may not be the layer's.
        let fixing = sites.compactMap(\.origin).filter { $0.duplicateFix != nil }
        let fix =
            (fixing.first { !$0.isReplaceable } ?? fixing.last)?.duplicateFix
            ?? "Fix: remove all but one; give them different names if each is needed (resolveAll collects"
            + " them); or pass replacesExisting: true to the one meant to replace the others, as a test does"
            + " when it swaps in a double."
        let message = "\(provider.key) is registered \(sites.count) times: at \(listed). " + fix
        return InjectionError(.duplicateRegistration, message, path: path)
    }

    static func conflicts(_ problems: [InjectionError]) -> InjectionError {
        // One kind of problem gives its code; a mix is reported as duplicates, each in `problems`.
        let code = problems.allSatisfy { $0.code == problems[0].code } ? problems[0].code : .duplicateRegistration
        let message =
            "\(problems.count) registrations conflict:\n"
            + problems.map { "- \($0.message)" }.joined(separator: "\n")
        return InjectionError(code, message, problems: problems)
    }

    /// A constructor cycle: `cycle` is the loop (its first key again last), `path` the whole path
    /// from the top-level service, ending in the loop. The message starts with the whole path, so
    /// that a loop entered below the top shows how it was reached: `Entry -> Alpha -> Beta -> Alpha`.
    /// `advice`, what a loop made by a layer's registrations alone says in place of the container's
    /// explanation and fix (adapters that lead back to themselves).
    static func cycle(_ cycle: [ServiceKey], path: [ServiceKey], advice: String? = nil) -> InjectionError {
        let reachedFromAbove = path.count > cycle.count && path.suffix(cycle.count).elementsEqual(cycle)
        let loop =
            reachedFromAbove
            ? "Circular dependency: \(path.pathDescription). The loop is \(cycle.pathDescription)"
            : "Circular dependency: \(cycle.pathDescription)"
        if let advice { return InjectionError(.circularDependency, "\(loop). \(advice)", path: path) }
        let message =
            loop + (reachedFromAbove ? ": each" : ". Each") + " of these asks for the next in its factory, so none"
            + " of them can be built first. Fix: break the cycle with property injection: let one of them"
            + " receive the other after construction, in an onResolved hook, and give the one resolved back the"
            + " .graph or .singleton scope so that the hook receives the same instance."
        return InjectionError(.circularDependency, message, path: path)
    }

    /// A chain of `onResolved` hooks without end, each resolving an instance whose own hook resolves
    /// the next: `chain`, closed by a cycle (its registration again with the same arguments), or,
    /// unless `isCycle`, the chain at which hooks had led back to registrations they came from, with
    /// other arguments, more times than `ResolutionContext.hookRecursionLimit` in one resolve. A
    /// cycle closed by a hook resolving through a captured container says to use the resolver.
    static func endlessHooks(_ chain: [ServiceKey], isCycle: Bool, viaContainer: Bool = false) -> InjectionError {
        guard isCycle else {
            let message =
                "onResolved hooks led back to registrations they came from, with other arguments each time,"
                + " more than \(ResolutionContext.hookRecursionLimit) times in one resolve, and no end is in sight;"
                + " the last, to \(chain.failedService): \(chain.pathDescription). Fix: end the recursion sooner,"
                + " or build such a structure in a factory or a loop rather than through hooks."
            return InjectionError(.resolutionTooDeep, message, path: chain)
        }
        let resolver = viaContainer ? "resolve through the hook's resolver (r), not a captured container, and " : ""
        let message =
            "Circular dependency through onResolved hooks: \(chain.pathDescription)."
            + " Each hook makes a new transient instance whose own hook makes another, without end. Fix: \(resolver)"
            + "give one of them the .graph scope, so that the hook resolving it back receives"
            + " the instance being prepared."
        return InjectionError(.circularDependency, message, path: chain)
    }

    /// An error's description to quote in a sentence that goes on: without the period it may end
    /// with, so that `threw: \(clause(error)).` ends with one.
    package static func clause(_ error: any Error) -> String {
        let description = "\(error)"
        return description.hasSuffix(".") && !description.hasSuffix("..") ? String(description.dropLast()) : description
    }

    /// The failure of `provider`'s factory, or of what a layer registered in its place (a route
    /// type), whose error says how to fix it.
    static func factoryFailed(_ error: any Error, path: [ServiceKey], of provider: AnyProvider?) -> InjectionError {
        if let error = error as? InjectionError { return error }
        if error is MainActorRequired { return mainActorRequired(path: path) }
        let maker = provider?.site.origin?.maker
        var message = "The \(maker ?? "factory") of \(path.failedService) threw: \(clause(error))."
        message += path.pathNote + " The error is the underlyingError"
        message += error is any ErrorWithFix ? "." : "; fix the \(maker ?? "factory") or what it depends on."
        return InjectionError(.factoryFailed, message, path: path, underlyingError: error)
    }

    /// The error of a resolve, off the main actor, of the service `path` ends with, whose factory
    /// runs on the main actor.
    static func mainActorRequired(path: [ServiceKey]) -> InjectionError {
        let message =
            "\(path.failedService) is made on the main actor, but was resolved off it." + path.pathNote
            + " Fix: resolve it from main-actor code (a @MainActor function or test, or"
            + " await MainActor.run { … }), as performing a view route does."
        return InjectionError(.mainActorRequired, message, path: path)
    }

    @usableFromInline
    static func preparationFailed(_ error: any Error, step: String, path: [ServiceKey]) -> InjectionError {
        if let error = error as? InjectionError {
            // A cycle's message already shows its whole path, and a chain too deep its ends: said
            // again at each level, a deep chain's would grow with its depth.
            guard error.code != .circularDependency, error.code != .resolutionTooDeep else { return error }
            // Keep the kind, and say which step of which service asked for it. A captive
            // dependency's path already leads from the service that would hold it.
            let fullPath = error.code == .captiveDependency ? error.resolutionPath : path + error.resolutionPath
            let prefix = "While running \(step) of \(path.failedService): "
            return error.with(message: prefix + error.message, path: fullPath)
        }
        let message =
            "Preparing \(path.failedService) failed: \(step) threw: \(clause(error))." + path.pathNote
            + " The error is the underlyingError."
        return InjectionError(.preparationFailed, message, path: path, underlyingError: error)
    }

    static func sharedInstanceConfigured(_ key: ServiceKey, scope: Scope, path: [ServiceKey]) -> InjectionError {
        let message: String
        if scope == .graph {
            message =
                "A configure closure was given for \(key), but this resolve has already made its"
                + " .graph instance, which the services built before shared; one caller may not reshape"
                + " it. Fix: pass configure where the instance is first resolved, move the set-up into"
                + " the factory or an onResolved hook, or register \(key) as .transient."
        } else {
            message =
                "A configure closure was given for \(key), whose .\(scope) instance is shared with"
                + " other callers, so one caller may not shape it. Fix: move that set-up into the"
                + " factory or an onResolved hook, or register \(key) as .transient if each caller needs"
                + " its own."
        }
        return InjectionError(.sharedInstanceConfigured, message, path: path + [key])
    }

    static func weakScopeNeedsObject(_ key: ServiceKey, madeType: Any.Type, path: [ServiceKey]) -> InjectionError {
        let message =
            "\(key) has the weak scope, but its factory made a value of type \(typeName(madeType)), which"
            + " is not a class instance: nothing can hold it weakly. Fix: return a class instance, or"
            + " register it as .singleton or .transient."
        return InjectionError(.weakScopeNeedsObject, message, path: path + [key])
    }

    static func resolutionTooDeep(path: [ServiceKey], isNested: Bool) -> InjectionError {
        let shown =
            path.count <= 8
            ? path.pathDescription
            : Array(path.prefix(4)).pathDescription + " -> … -> " + Array(path.suffix(4)).pathDescription
        var message =
            "Resolving went \(path.count) services deep and nearly used up the thread's stack:"
            + " \(shown). Such a chain is usually a registration that resolves itself under another name"
            + " or argument. Fix: resolve the chain iteratively, or, if it is really this deep, resolve it"
            + " on a thread with a larger stack."
        if isNested {
            message +=
                " Some of these factories or hooks resolve through a container rather than through"
                + " their resolver, which starts a resolution of its own and takes more stack per level:"
                + " resolve through the resolver a factory receives (r.resolve(…))."
        }
        return InjectionError(.resolutionTooDeep, message, path: path)
    }

    static func forwardedTypeMismatch(
        _ key: ServiceKey,
        original: ServiceKey,
        madeType: Any.Type,
        path: [ServiceKey]
    ) -> InjectionError {
        let (made, wanted) = (typeName(madeType), typeName(key.serviceType))
        let message =
            "\(key) is registered to resolve \(original) (implements), but its instance, a \(made), does not"
            + " conform to \(wanted)." + path.pathNote
            + " Fix: make \(made) conform to \(wanted), or remove .implements(\(key.spelledInCall)) from \(original)'s"
            + " registration."
        return InjectionError(.invalidForwarding, message, path: path)
    }

    static func forwardingWithArguments(_ key: ServiceKey, original: ServiceKey) -> InjectionError {
        let message =
            "\(key) is registered to resolve \(original) (implements), but that registration's factory takes"
            + " resolve-time arguments, which a resolve of \(key) cannot give. Fix: register \(key)"
            + " with a factory of its own that takes the arguments, or remove .implements from it."
        return InjectionError(.invalidForwarding, message, path: [key])
    }

    static func containerReleased(asking key: ServiceKey) -> InjectionError {
        let message =
            "A Lazy or ServiceProvider resolved \(key) after its container was released; it does not keep the"
            + " container alive. Fix: keep the container for as long as the services holding such handles."
        return InjectionError(.resolverOutlivedResolution, message, path: [key])
    }

    @usableFromInline
    static func resolverOutlived(asking key: ServiceKey) -> InjectionError {
        let message =
            "A Resolver was used to resolve \(key) after the resolution that handed it out had"
            + " finished. A resolver is valid only while its factory or onResolved hook runs."
            + " Fix: resolve what is needed while the factory runs, or inject Lazy<Service> or"
            + " ServiceProvider<Service> to resolve it later."
        return InjectionError(.resolverOutlivedResolution, message, path: [key])
    }

    /// A resolver asked for its container after the resolution that handed it out finished.
    static func resolverOutlivedForContainer() -> InjectionError {
        let message =
            "A Resolver was asked for its container after the resolution that handed it out had"
            + " finished. A resolver is valid only while its factory or onResolved hook runs."
            + " Fix: take try r.container while the factory runs, for the child tasks it starts."
        return InjectionError(.resolverOutlivedResolution, message, path: [])
    }
}

/// What a factory that runs on the main actor throws when it is called off it (the routing layer's
/// view routes make their screens so): the resolve then throws
/// ``InjectionError/Code/mainActorRequired``, and validation lists the registration as unchecked.
package struct MainActorRequired: Error {
    package init() {}
}
