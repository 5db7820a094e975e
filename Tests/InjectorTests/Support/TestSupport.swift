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

import Foundation
import Synchronization
import Testing

@testable import Injector

// Helpers shared by the test files. The services a suite registers stay private to its file:
// their names appear in the error messages the tests check.

/// Runs `body` and returns the `InjectionError` it threw, or `nil` if it threw nothing.
///
/// Any other error is recorded as an issue (and `nil` returned), so that
/// `try #require(injectionError { … })` fails naming the error that was thrown instead.
func injectionError<T>(
    _ body: () throws -> T,
    sourceLocation: SourceLocation = #_sourceLocation
) -> InjectionError? {
    do {
        _ = try body()
        return nil
    } catch let error as InjectionError {
        return error
    } catch {
        Issue.record("expected an InjectionError, got \(type(of: error)): \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Counts calls from any thread (factories, hooks, tasks). An `Atomic`, not a `Mutex`, which
/// ThreadSanitizer misreports on Linux.
final class CallCounter: Sendable {
    private let value = Atomic<Int>(0)

    /// Counts one call and returns the new count (1 for the first call), which doubles as a serial
    /// number telling instances apart even after an address is reused.
    @discardableResult
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }

    /// The calls counted so far.
    var count: Int { value.load(ordering: .relaxed) }
}

/// An ordered record of what ran, written from any thread.
final class EventLog: @unchecked Sendable {  // `recorded` is only touched under `lock`
    private let lock = NSLock()
    private var recorded: [String] = []

    func record(_ event: String) { lock.withLock { recorded.append(event) } }

    /// The events recorded so far, in order.
    var events: [String] { lock.withLock { recorded } }

    /// How many times `event` was recorded.
    func count(_ event: String) -> Int { events.filter { $0 == event }.count }

    /// How many times each event was recorded, whatever the order.
    var counts: [String: Int] { events.reduce(into: [:]) { $0[$1, default: 0] += 1 } }
}

/// Keeps a `Resolver` handed to a factory or hook, to use it after its resolution has ended.
final class KeptResolver: @unchecked Sendable {  // `kept` is only touched under `lock`
    private let lock = NSLock()
    private var kept: Resolver?

    func keep(_ resolver: Resolver) { lock.withLock { kept = resolver } }

    /// The resolver kept last, if any.
    var resolver: Resolver? { lock.withLock { kept } }
}
