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

// The resolve-time arguments of constructions under way, which tell recursion through arguments
// (another set of arguments) from a cycle (the same ones).

extension ResolutionContext {
    /// A construction under way of a registration that takes arguments: where it is on the path
    /// (`nesting.outerDepth + construction.stack.count` when it began), and its arguments, if all of them are `Hashable`.
    struct ArgumentFrame {
        let provider: ObjectIdentifier
        let depth: Int
        let arguments: ArgumentValues
    }

    /// A construction's resolve-time arguments, kept to compare with those of a construction of the
    /// same registration nested in it. One or two small arguments are kept without allocating; they
    /// are compared only when the registration is met again, which is rare.
    @usableFromInline enum ArgumentValues {
        case one(Any)
        case two(Any, Any)
        case many([Any])

        @inlinable init<each Argument>(_ arguments: repeat each Argument) {
            var first: Any?
            var second: Any?
            var all: [Any] = []
            var count = 0
            for argument in repeat each arguments {
                switch count {
                case 0: first = argument
                case 1: second = argument
                case 2: all = [first!, second!, argument]
                default: all.append(argument)
                }
                count += 1
            }
            switch count {
            case 1: self = .one(first!)
            case 2: self = .two(first!, second!)
            default: self = .many(all)
            }
        }

        /// The arguments as values to compare, or `nil` if one of them is not `Hashable`.
        var identity: [AnyHashable]? {
            let values: [Any]
            switch self {
            case .one(let first): values = [first]
            case .two(let first, let second): values = [first, second]
            case .many(let all): values = all
            }
            var identity: [AnyHashable] = []
            for value in values {
                guard let hashable = value as? any Hashable else { return nil }
                identity.append(AnyHashable(hashable))
            }
            return identity
        }
    }
}
