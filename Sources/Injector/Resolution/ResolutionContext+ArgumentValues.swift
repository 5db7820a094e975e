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

    /// The argument frames of one resolution's constructions under way, innermost last.
    ///
    /// A construction with arguments looks for a frame of its registration with the same
    /// arguments, which would make it a cycle. A few frames are searched; past `indexedCount`, an
    /// index of the frames by registration and arguments answers in constant time, as the index of
    /// `ConstructionStack` does for the stack, so that a recursion through arguments thousands deep
    /// stays linear (a search of every frame at every level made it quadratic). Below that depth a
    /// construction works out its arguments' identity only if its registration is met again.
    struct ArgumentFrames {
        private static let indexedCount = 32

        private var frames: [ArgumentFrame] = []
        /// Past `indexedCount` frames: the depth of each frame whose arguments are all `Hashable`,
        /// by registration and arguments. One frame per key: a second would have been a cycle.
        private var index: [Key: Int] = [:]

        private struct Key: Hashable {
            let provider: ObjectIdentifier
            let arguments: [AnyHashable]
        }

        var isEmpty: Bool { frames.isEmpty }

        mutating func append(_ frame: ArgumentFrame) {
            frames.append(frame)
            guard _slowPath(frames.count > Self.indexedCount) else { return }
            if frames.count == Self.indexedCount + 1 {
                for frame in frames { index(frame) }
            } else {
                index(frame)
            }
        }

        mutating func removeLast() {
            let frame = frames.removeLast()
            guard _slowPath(frames.count >= Self.indexedCount) else { return }
            if frames.count == Self.indexedCount {
                index.removeAll(keepingCapacity: true)
            } else if let arguments = frame.arguments.identity {
                let key = Key(provider: frame.provider, arguments: arguments)
                if index[key] == frame.depth { index[key] = nil }
            }
        }

        /// The depth of the frame of `provider` whose arguments equal `arguments`, if there is one.
        /// `identity`, the arguments' identity, is worked out on first need and kept for the next
        /// call.
        func depth(
            of provider: ObjectIdentifier,
            with arguments: ArgumentValues,
            identity: inout [AnyHashable]??
        ) -> Int? {
            if frames.count > Self.indexedCount {
                if identity == nil { identity = .some(arguments.identity) }
                guard let compared = identity! else { return nil }
                return index[Key(provider: provider, arguments: compared)]
            }
            for frame in frames.reversed() where frame.provider == provider {
                if identity == nil { identity = .some(arguments.identity) }
                guard let compared = identity!, let other = frame.arguments.identity, other == compared else {
                    continue
                }
                return frame.depth
            }
            return nil
        }

        private mutating func index(_ frame: ArgumentFrame) {
            guard let arguments = frame.arguments.identity else { return }
            index[Key(provider: frame.provider, arguments: arguments)] = frame.depth
        }
    }

    /// A construction's resolve-time arguments, kept to compare with those of a construction of the
    /// same registration nested in it: borrowed where the construction keeps them, neither copied
    /// nor boxed, and compared only when the registration is met again, which is rare.
    @usableFromInline struct ArgumentValues {
        @usableFromInline let values: BorrowedValues
        @usableFromInline let provider: Borrowed<AnyProvider>

        @inlinable init(_ values: BorrowedValues, of provider: AnyProvider) {
            self.values = values
            self.provider = Borrowed(provider)
        }

        /// The arguments as values to compare, or `nil` if one of them is not `Hashable`.
        var identity: [AnyHashable]? {
            provider.withObject { $0.argumentIdentity(of: values) }
        }
    }
}
