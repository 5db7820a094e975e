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

/// The services under construction in one resolution, outermost first: what cycle detection
/// searches and error paths show.
///
/// The entry of a registration that takes arguments also borrows them where its construction keeps
/// them, neither copied nor boxed. They are compared only when the registration is met again on the
/// stack, which is rare: the same arguments make a cycle, others a recursion (a tree built by depth).
/// Arguments that are not all `Hashable` are taken as others.
///
/// The innermost entry is kept apart from the rest, so that a resolve without nested resolves
/// allocates nothing. Past `indexedDepth` entries, an index of the outer ones keeps both checks
/// constant-time, so that very deep chains stay linear: a count of each registration (a count, not
/// a set: a registration that takes arguments may be on the stack more than once), and the depth of
/// each construction by registration and arguments. Entries borrow their providers.
///
/// It also keeps the depth of the outermost entry whose instances outlive lifetime scopes (singleton
/// and weak): one is on the stack exactly while that one is, so the captive-dependency check, which
/// every scoped resolve makes, reads one integer rather than searching, and a pop compares two.
struct ConstructionStack {
    private static let indexedDepth = 32

    private struct Entry {
        let provider: Borrowed<AnyProvider>
        /// The construction's resolve-time arguments, if its registration takes any.
        let arguments: BorrowedValues?

        /// The arguments as values to compare, or `nil` if there are none or one is not `Hashable`.
        var argumentIdentity: [AnyHashable]? {
            arguments.flatMap { values in provider.withObject { $0.argumentIdentity(of: values) } }
        }
    }

    /// A construction with arguments, in the index of a deep stack. Its hash is worked out once and
    /// compared first: the index's probes compare keys, and the keys of one recursion differ only in
    /// their arguments, each compared through `AnyHashable`.
    private struct Construction: Hashable {
        let provider: ObjectIdentifier
        let arguments: [AnyHashable]
        private let hashed: Int

        init(provider: ObjectIdentifier, arguments: [AnyHashable]) {
            self.provider = provider
            self.arguments = arguments
            var hasher = Hasher()
            hasher.combine(provider)
            hasher.combine(arguments)
            hashed = hasher.finalize()
        }

        static func == (lhs: Construction, rhs: Construction) -> Bool {
            lhs.hashed == rhs.hashed && lhs.provider == rhs.provider && lhs.arguments == rhs.arguments
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(hashed)
        }
    }

    private var innermost: Entry?
    private var outer: [Entry] = []
    private var outerIndex: [ObjectIdentifier: Int] = [:]
    /// The depth of each outer construction whose arguments are all `Hashable`. One per key: a
    /// second would have been a cycle.
    private var constructionIndex: [Construction: Int] = [:]
    /// The key each indexed outer entry has in `constructionIndex` (`nil` for none), outermost
    /// first: what a pop takes out of the index, without working the arguments' identity out again.
    private var indexedConstructions: [Construction?] = []
    /// The identity of the innermost entry's arguments, where it was worked out, while the stack is
    /// deep enough for the entry to be indexed when the next is pushed (`outer.count` at least
    /// `indexedDepth - 1`): a recursion through arguments compares it at every level. Not kept
    /// (entries stay trivial to copy, and no argument outlives its construction here) below that.
    private var innermostIdentity: [AnyHashable]??
    /// The depth (1 for the outermost entry) of the outermost singleton or weak entry; 0 for none.
    private var outlivingDepth = 0

    var count: Int { innermost == nil ? 0 : outer.count + 1 }

    @inline(__always)
    mutating func push(_ provider: AnyProvider, arguments: BorrowedValues?, identity: [AnyHashable]??) {
        if let innermost {
            outer.append(innermost)
            if _slowPath(outer.count >= Self.indexedDepth) { index(innermost) }
        }
        innermost = Entry(provider: Borrowed(provider), arguments: arguments)
        if _slowPath(outer.count >= Self.indexedDepth - 1) { innermostIdentity = identity }
        if outlivingDepth == 0, provider.outlivesLifetimeScopes { outlivingDepth = outer.count + 1 }
    }

    @inline(__always)
    mutating func pop() {
        if outlivingDepth == outer.count + 1 { outlivingDepth = 0 }  // the innermost entry's depth
        if _slowPath(outer.count >= Self.indexedDepth - 1) { unindexLast() }
        // Not `popLast()`, whose uniqueness check an empty array (most resolves) need not pay.
        innermost = outer.isEmpty ? nil : outer.removeLast()
    }

    /// Counts `entry`, just appended to the outer entries, in the index of a deep stack; the
    /// entries before it too, when it is the one that makes the stack deep.
    @inline(never)
    private mutating func index(_ entry: Entry) {
        if outer.count == Self.indexedDepth {
            for (depth, outerEntry) in outer.dropLast().enumerated() { index(outerEntry, at: depth, identity: nil) }
        }
        index(entry, at: outer.count - 1, identity: innermostIdentity)
    }

    /// Counts `entry`, at `depth`, in the index; `known` is its arguments' identity, if it was
    /// worked out.
    private mutating func index(_ entry: Entry, at depth: Int, identity known: [AnyHashable]??) {
        let identity = ObjectIdentifier(entry.provider.object)
        outerIndex[identity, default: 0] += 1
        let construction = (known ?? entry.argumentIdentity).map { Construction(provider: identity, arguments: $0) }
        if let construction { constructionIndex[construction] = depth }
        indexedConstructions.append(construction)
    }

    /// Takes the last outer entry, about to be popped, out of the index of a deep stack, its
    /// arguments' identity kept as the innermost's; or drops the index when the stack is no longer
    /// deep, or the identity kept when it is too shallow to keep it.
    @inline(never)
    private mutating func unindexLast() {
        guard outer.count >= Self.indexedDepth else {
            innermostIdentity = nil
            return
        }
        innermostIdentity = .some(indexedConstructions.last??.arguments)
        guard outer.count > Self.indexedDepth, let last = outer.last else {
            outerIndex.removeAll()
            constructionIndex.removeAll()
            indexedConstructions.removeAll()
            return
        }
        let identity = ObjectIdentifier(last.provider.object)
        if outerIndex[identity] == 1 { outerIndex[identity] = nil } else { outerIndex[identity]! -= 1 }
        if let key = indexedConstructions.removeLast(), constructionIndex[key] == outer.count - 1 {
            constructionIndex[key] = nil
        }
    }

    /// Whether `provider` is on the stack.
    ///
    /// `mutating` only so that the search runs on the stack in place: a non-mutating call would copy
    /// the array (a retain and a release) on every nested resolve. (Not through
    /// `withUnsafeMutableBufferPointer`, which checks the array's uniqueness first.)
    mutating func contains(_ provider: AnyProvider) -> Bool {
        guard let innermost else { return false }
        let target = Borrowed(provider)
        if innermost.provider == target { return true }
        if _slowPath(outer.count >= Self.indexedDepth) { return outerIndex[ObjectIdentifier(provider)] != nil }
        return outer.contains { $0.provider == target }
    }

    /// Where on the stack (0 for the outermost entry) `provider` is under construction with the
    /// arguments `values` holds, if it is. `identity`, those arguments' identity, is worked out on
    /// first need and kept for the next call.
    mutating func depth(
        of provider: AnyProvider,
        with values: BorrowedValues,
        identity: inout [AnyHashable]??
    ) -> Int? {
        guard contains(provider) else { return nil }
        if identity == nil { identity = .some(provider.argumentIdentity(of: values)) }
        guard let compared = identity!, let innermost else { return nil }
        if innermost.provider.object === provider, innermostArguments(of: innermost) == compared { return outer.count }
        if outer.count >= Self.indexedDepth {
            return constructionIndex[Construction(provider: ObjectIdentifier(provider), arguments: compared)]
        }
        return outer.lastIndex { $0.provider.object === provider && $0.argumentIdentity == compared }
    }

    /// The identity of `innermost`'s arguments: the one kept, on a stack deep enough to keep it.
    private func innermostArguments(of innermost: Entry) -> [AnyHashable]? {
        guard outer.count >= Self.indexedDepth - 1, let innermostIdentity else { return innermost.argumentIdentity }
        return innermostIdentity
    }

    /// The record of the provider pushed last, unretained (no reference count written), if any.
    var innermostRecord: Borrowed<AnyProvider>? {
        innermost?.provider.withObject { $0.borrowedRecord }
    }

    /// Whether a singleton or weak service is on the stack: a scoped instance handed to it would be
    /// a captive dependency.
    var holdsOutlivingProvider: Bool { outlivingDepth > 0 }

    /// The innermost provider on the stack that satisfies `predicate`.
    func last(where predicate: (AnyProvider) -> Bool) -> AnyProvider? {
        guard let innermost else { return nil }
        if predicate(innermost.provider.object) { return innermost.provider.object }
        return outer.last { predicate($0.provider.object) }?.provider.object
    }

    /// The providers on the stack, outermost first.
    var providers: [AnyProvider] {
        guard let innermost else { return [] }
        return (outer + [innermost]).map { $0.provider.object }
    }
}
