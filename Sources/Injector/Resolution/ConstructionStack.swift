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
/// The innermost entry is kept apart from the rest, so that a resolve without nested resolves
/// allocates nothing; past `indexedDepth` entries, a count of each of the outer ones keeps the
/// cycle check constant-time, so that very deep chains stay linear. (A count, not a set: a
/// registration that takes arguments may be on the stack more than once, recursing with other
/// arguments.) Entries borrow their providers.
///
/// It also keeps the depth of the outermost entry whose instances outlive lifetime scopes (singleton
/// and weak): one is on the stack exactly while that one is, so the captive-dependency check, which
/// every scoped resolve makes, reads one integer rather than searching, and a pop compares two.
struct ConstructionStack {
    private static let indexedDepth = 32

    private var innermost: Borrowed<AnyProvider>?
    private var outer: [Borrowed<AnyProvider>] = []
    private var outerIndex: [ObjectIdentifier: Int] = [:]
    /// The depth (1 for the outermost entry) of the outermost singleton or weak entry; 0 for none.
    private var outlivingDepth = 0

    var count: Int { innermost == nil ? 0 : outer.count + 1 }

    @inline(__always)
    mutating func push(_ provider: AnyProvider) {
        if let innermost {
            outer.append(innermost)
            if _slowPath(outer.count >= Self.indexedDepth) { index(innermost) }
        }
        innermost = Borrowed(provider)
        if outlivingDepth == 0, provider.outlivesLifetimeScopes { outlivingDepth = outer.count + 1 }
    }

    @inline(__always)
    mutating func pop() {
        if outlivingDepth == outer.count + 1 { outlivingDepth = 0 }  // the innermost entry's depth
        if _slowPath(outer.count >= Self.indexedDepth) { unindexLast() }
        innermost = outer.popLast()
    }

    /// Counts `entry`, just appended to the outer entries, in the index of a deep stack; the
    /// entries before it too, when it is the one that makes the stack deep.
    @inline(never)
    private mutating func index(_ entry: Borrowed<AnyProvider>) {
        if outer.count == Self.indexedDepth {
            for outerEntry in outer { outerIndex[ObjectIdentifier(outerEntry.object), default: 0] += 1 }
        } else {
            outerIndex[ObjectIdentifier(entry.object), default: 0] += 1
        }
    }

    /// Takes the last outer entry, about to be popped, out of the index of a deep stack, or drops
    /// the index when the stack is no longer deep.
    @inline(never)
    private mutating func unindexLast() {
        if outer.count > Self.indexedDepth, let last = outer.last {
            let identity = ObjectIdentifier(last.object)
            if outerIndex[identity] == 1 { outerIndex[identity] = nil } else { outerIndex[identity]! -= 1 }
        } else {
            outerIndex.removeAll()
        }
    }

    /// Whether `provider` is on the stack.
    ///
    /// `mutating` only so that the search runs on the stack in place: a non-mutating call would copy
    /// the array (a retain and a release) on every nested resolve.
    mutating func contains(_ provider: AnyProvider) -> Bool {
        guard let innermost else { return false }
        let target = Borrowed(provider)
        if innermost == target { return true }
        if _slowPath(outer.count >= Self.indexedDepth) { return outerIndex[ObjectIdentifier(provider)] != nil }
        return outer.withUnsafeMutableBufferPointer { entries in entries.contains { $0 == target } }
    }

    /// The record of the provider pushed last, unretained (no reference count written), if any.
    var innermostRecord: Borrowed<AnyProvider>? {
        innermost?.withObject { $0.borrowedRecord }
    }

    /// The provider pushed last, borrowed, if any. `mutating` for the same reason.
    mutating func withInnermostProvider<Result>(_ body: (AnyProvider) -> Result) -> Result? {
        innermost?.withObject(body)
    }

    /// Whether a singleton or weak service is on the stack: a scoped instance handed to it would be
    /// a captive dependency.
    var holdsOutlivingProvider: Bool { outlivingDepth > 0 }

    /// The innermost provider on the stack that satisfies `predicate`.
    func last(where predicate: (AnyProvider) -> Bool) -> AnyProvider? {
        guard let innermost else { return nil }
        if predicate(innermost.object) { return innermost.object }
        return outer.last { predicate($0.object) }?.object
    }

    /// The providers on the stack, outermost first.
    var providers: [AnyProvider] {
        guard let innermost else { return [] }
        return (outer + [innermost]).map { $0.object }
    }
}
