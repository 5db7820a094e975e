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

/// What ``Container/validate()`` checked, and what it could not.
///
/// Validation throws when it finds a problem; when it does not, this report says which
/// registrations it resolved and which it had to leave out, so that a test can pin that nothing
/// important went unchecked:
///
/// ```swift
/// let report = try container.validate()
/// #expect(report.unchecked.map(\.key.description) == ["Editor (argument: Note)"])
/// ```
public struct ValidationReport: Sendable, CustomStringConvertible {
    /// A registration validation did not resolve, and why.
    public struct UncheckedRegistration: Sendable, CustomStringConvertible {
        /// Why a registration was left out.
        ///
        /// A struct rather than an enum, as ``InjectionError/Code`` is, so that validation can learn
        /// to leave out registrations for new reasons without breaking exhaustive switches in users'
        /// code.
        public struct Reason: Hashable, Sendable, CustomStringConvertible {
            /// The reason's name, which is also its identity.
            private let name: String
            /// The reason as the report writes it after the key.
            let explanation: String

            private init(_ name: String, _ explanation: String) {
                self.name = name
                self.explanation = explanation
            }

            /// Its factory takes resolve-time arguments, which validation has no values for.
            public static let needsArguments = Reason("needsArguments", "needs resolve-time arguments")
            /// Its factory is `async`: ``Container/validateAsync(isolation:)`` resolves it.
            public static let asyncFactory = Reason("asyncFactory", "has an async factory; validateAsync() checks it")
            /// It is a value lifetime scopes are given
            /// (``Container/register(_:name:providedByScope:fileID:line:)``), which validation has none of.
            public static let providedByScope = Reason("providedByScope", "provided by lifetime scopes")
            /// It needs a value lifetime scopes are given, directly or through others.
            public static let needsScopeValue = Reason("needsScopeValue", "needs a value provided by lifetime scopes")
            /// Its factory, or one it needs, runs on the main actor (a view route's screen), and
            /// validation ran off it: validate from the main actor (a `@MainActor` test) to check it.
            public static let needsMainActor = Reason(
                "needsMainActor",
                "made on the main actor; validate from the main actor to check it"
            )

            /// The reason's name, such as `needsArguments`.
            public var description: String { name }
        }

        /// The registration's key.
        public let key: ServiceKey
        /// Why it was not resolved.
        public let reason: Reason

        /// The key and the reason: `Editor (argument: Note): needs resolve-time arguments`.
        public var description: String { "\(key): \(reason.explanation)" }
    }

    /// The registrations checked, in registration order (the root container's first): those
    /// checked from their declarations (``checkedFromDeclarations``), then those resolved.
    public let checked: [ServiceKey]
    /// The declared registrations, checked from their declarations without running their functions
    /// (see ``Container/register(_:name:scope:replacesExisting:fileID:line:using:make:)``).
    public let checkedFromDeclarations: [ServiceKey]
    /// The registrations left out, in registration order.
    public let unchecked: [UncheckedRegistration]
    /// Disposable instances validation built but could not dispose: those only an async disposal
    /// can dispose, met by the sync ``Container/validate()``.
    public let undisposed: [ServiceKey]

    /// A summary: how many registrations were checked, then each one left out.
    public var description: String {
        var summary = "Validated \(checked.count) registration\(checked.count == 1 ? "" : "s")"
        let built = checked.count - checkedFromDeclarations.count
        if !checkedFromDeclarations.isEmpty {
            summary +=
                built == 0
                ? ", all from their declarations, without building them"
                : ": \(checkedFromDeclarations.count) from their declarations, without building them;"
                    + " \(built) by building them in a sandbox"
        }
        var lines = [summary + "."]
        if !unchecked.isEmpty {
            lines.append("Not checked:")
            lines += unchecked.map { "- \($0)" }
        }
        if !undisposed.isEmpty {
            lines.append("Built but not disposed (AsyncDisposable only; use validateAsync()):")
            lines += undisposed.map { "- \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
