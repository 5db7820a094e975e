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

/// An error from registering or resolving a service: what was asked, the path that led there,
/// what is registered nearby, and how to fix it.
///
/// Switch on ``code`` to react to a kind of error; show ``message`` (also the error's
/// `description`) to a person.
///
/// ```swift
/// do {
///     _ = try container.resolve(NoteStore.self)
/// } catch let error as InjectionError where error.code == .missingRegistration {
///     print(error.message)
///     // No registration for Clock, needed by NoteStore -> Clock (missing). …
/// }
/// ```
public struct InjectionError: Error, CustomStringConvertible, Sendable {
    /// The kind of an ``InjectionError``.
    ///
    /// A struct rather than an enum, so that new kinds can be added without breaking exhaustive
    /// switches in users' code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, which is also its identity: two codes are equal when their names are.
        private let name: String
        private init(_ name: String) { self.name = name }

        /// Nothing is registered for the key asked for (not in this container, nor its parents).
        public static let missingRegistration = Code("missingRegistration")
        /// The same key was registered twice without `replacesExisting: true`.
        public static let duplicateRegistration = Code("duplicateRegistration")
        /// A registration was made, or a hook or check added to one, after
        /// ``Container/finishRegistration()``.
        public static let registrationAfterFinish = Code("registrationAfterFinish")
        /// Services ask for each other in their factories, or transient services through their
        /// `onResolved` hooks, so that construction would never end.
        public static let circularDependency = Code("circularDependency")
        /// A factory threw an error of its own; it is the ``InjectionError/underlyingError``.
        public static let factoryFailed = Code("factoryFailed")
        /// A caller's `configure` closure, an `onResolved` hook or a `verify` check threw; the error
        /// it threw is the ``InjectionError/underlyingError``.
        public static let preparationFailed = Code("preparationFailed")
        /// A `configure` closure was given for a service whose instance is shared with other callers.
        public static let sharedInstanceConfigured = Code("sharedInstanceConfigured")
        /// A registration with the ``Scope/weak`` scope made a value that is not a class instance.
        public static let weakScopeNeedsObject = Code("weakScopeNeedsObject")
        /// A chain of nested resolves went so deep that the thread's stack would have overflowed, or
        /// `onResolved` hooks led back to registrations they came from, with other arguments each
        /// time, more than 1,000 times in one resolve.
        public static let resolutionTooDeep = Code("resolutionTooDeep")
        /// A ``Resolver`` was kept and used after the resolution that handed it out had finished.
        public static let resolverOutlivedResolution = Code("resolverOutlivedResolution")
        /// A ``Scope/scoped`` service was resolved outside a lifetime scope (from a container), or
        /// from a scope whose tag is not the one its registration names.
        public static let scopeMismatch = Code("scopeMismatch")
        /// A ``Scope/singleton`` or ``Scope/weak`` service depends on a ``Scope/scoped`` one,
        /// directly or through others, and would keep it alive past its scope.
        public static let captiveDependency = Code("captiveDependency")
        /// A lifetime scope was resolved from after it was closed.
        public static let scopeClosed = Code("scopeClosed")
        /// A lifetime scope was closed while a resolution from it was still running.
        public static let scopeInUse = Code("scopeInUse")
        /// A sync close or shutdown met instances that only an async disposal can dispose.
        public static let asyncDisposalRequired = Code("asyncDisposalRequired")
        /// Disposing one or more instances threw; each failure is in ``InjectionError/problems``.
        public static let disposalFailed = Code("disposalFailed")
        /// A registration with an `async` factory was resolved through the sync API.
        public static let asyncResolutionRequired = Code("asyncResolutionRequired")
        /// ``Container/validate()`` found problems; each is in ``InjectionError/problems``.
        public static let validationFailed = Code("validationFailed")
        /// The task of an async resolve (`resolveAsync`) of a shared instance, async or sync, was
        /// cancelled while another task built that instance (or one with preparation steps, as its own
        /// has: those are built one at a time), or before it would have started building it.
        public static let resolutionCancelled = Code("resolutionCancelled")
        /// A registration whose factory takes resolve-time arguments has a shared lifetime
        /// (``Scope/singleton``, ``Scope/weak``, ``Scope/scoped`` or ``Scope/graph``): its shared
        /// instance would be built from the first resolve's arguments and ignore every later one's.
        public static let sharedScopeWithArguments = Code("sharedScopeWithArguments")
        /// A declared registration's function does not take the resolve-time arguments its
        /// registration lists first, of those types and in that order, or, after them, the
        /// dependencies its `using:` lists.
        public static let argumentTypesMismatch = Code("argumentTypesMismatch")
        /// A registration's `implements` names a type its instance does not conform to, or the
        /// registration takes resolve-time arguments, which a resolve of the other type cannot give.
        public static let invalidForwarding = Code("invalidForwarding")
        /// A value declared as provided by lifetime scopes was resolved from a scope that was not
        /// given one.
        public static let scopeValueMissing = Code("scopeValueMissing")
        /// A lifetime scope was released without being closed while it owned disposable instances,
        /// which are then never disposed. Reported to the container's diagnostics handler
        /// (``Container/setDiagnosticsHandler(_:)``), not thrown.
        public static let scopeNotClosed = Code("scopeNotClosed")
        /// Resolutions on different threads or tasks would wait for each other without end: each is building
        /// a shared instance the next one needs (a wait-for cycle). The resolution that would close
        /// the cycle throws instead of waiting; the message names each resolution's path.
        public static let circularWait = Code("circularWait")
        /// A registration whose factory runs on the main actor (a view route's screen) was resolved
        /// off it: from another thread, or from a task not on the main actor.
        public static let mainActorRequired = Code("mainActorRequired")
        /// A `withOverrides` call registers a plain override (no name, no arguments) that replaces
        /// nothing, while the container registers its type under other names or arguments: the
        /// double would never be resolved where the registration is. Thrown before the operation runs.
        public static let unmatchedOverride = Code("unmatchedOverride")

        /// The code's name, such as `missingRegistration`.
        public var description: String { name }
    }

    /// The kind of error.
    public let code: Code
    /// What happened and how to fix it, written for a person.
    public let message: String
    /// The chain of services being resolved when the error arose, outermost first; the last is the
    /// one that failed. Empty for errors that arise outside a resolution.
    public let resolutionPath: [ServiceKey]
    /// Registered keys close to the one asked for: the same type under other names or argument types.
    public let nearMisses: [ServiceKey]
    /// The error thrown by a factory, hook, check or `configure` closure, for the codes that wrap one.
    public let underlyingError: (any Error)?
    /// The individual problems, when one error reports several at once (as
    /// ``Container/finishRegistration()`` does for every duplicate, and ``Container/validate()`` for
    /// everything it finds); otherwise empty.
    public let problems: [InjectionError]
    /// The message as it was before it named the declared registration's parameter that asked for
    /// the service it is about (`declared(parameter:of:at:asking:declaredAs:)`); `nil` for one it did not.
    /// Validation tells a conflict by it, which the registry reports without the parameter.
    let unnamedMessage: String?

    init(
        _ code: Code,
        _ message: String,
        path: [ServiceKey] = [],
        nearMisses: [ServiceKey] = [],
        underlyingError: (any Error)? = nil,
        problems: [InjectionError] = [],
        unnamedMessage: String? = nil
    ) {
        self.code = code
        self.message = message
        self.resolutionPath = path
        self.nearMisses = nearMisses
        self.underlyingError = underlyingError
        self.problems = problems
        self.unnamedMessage = unnamedMessage
    }

    /// The ``message``.
    public var description: String { message }

    /// This error with `message`, `path` and `unnamedMessage`, its code, near misses, underlying
    /// error and problems kept: an error quoted where it arose (a hook, a close), or one that names
    /// the declared parameter that asked for its service.
    func with(message: String, path: [ServiceKey], unnamedMessage: String? = nil) -> InjectionError {
        InjectionError(
            code,
            message,
            path: path,
            nearMisses: nearMisses,
            underlyingError: underlyingError,
            problems: problems,
            unnamedMessage: unnamedMessage
        )
    }
}

extension [ServiceKey] {
    /// The path as a reader follows it: `Editor -> NoteStore -> Clock`. A path whose description
    /// would pass 2,000 bytes (a resolve thousands of services deep) shows its first and last 8
    /// services, and how many it leaves out between them, so that a message stays short however
    /// deep the resolve went; ``InjectionError/resolutionPath`` keeps every service.
    var pathDescription: String {
        let whole = map(\.description).joined(separator: " -> ")
        guard whole.utf8.count > 2_000, count > 16 else { return whole }
        let first = prefix(8).map(\.description).joined(separator: " -> ")
        let last = suffix(8).map(\.description).joined(separator: " -> ")
        return "\(first) -> … (\(count - 16) more) -> \(last)"
    }

    /// The path as a message's sentence after the first, for a path of more than the one service
    /// the message names: ` Path: Editor -> NoteStore.`; empty otherwise.
    var pathNote: String { count > 1 ? " Path: \(pathDescription)." : "" }

    /// The service the path ends with, the one that failed, as a message names it.
    var failedService: String { last.map(\.description) ?? "a service" }
}
