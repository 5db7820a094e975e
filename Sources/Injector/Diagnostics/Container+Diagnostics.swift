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

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives what the container notices outside any call that could throw it: a lifetime scope
/// released without being closed, for one.
public typealias DiagnosticsHandler = @Sendable (InjectionError) -> Void

extension Container {
    /// Sets the handler that receives what this container, its children and their scopes notice
    /// outside any call that could throw it, such as a lifetime scope released without being
    /// closed while it holds instances to dispose (``InjectionError/Code/scopeNotClosed``). A
    /// child's own handler takes precedence.
    ///
    /// ```swift
    /// container.setDiagnosticsHandler { problem in logger.warning("\(problem.message)") }
    /// ```
    ///
    /// Without a handler, the message is written to standard error.
    public func setDiagnosticsHandler(_ handler: @escaping DiagnosticsHandler) {
        diagnostics.withLock { $0 = handler }
    }

    /// Reports `problem` to the nearest handler of this container's lineage, or to standard error.
    func report(_ problem: InjectionError) {
        for container in sequence(first: self, next: \.parent) {
            if let handler = container.diagnostics.withLock({ $0 }) { return handler(problem) }
        }
        let line = "Injector: \(problem.message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }  // standard error
    }
}

extension LifetimeScope {
    /// Reports a scope released without being closed that still owned disposable instances: they
    /// are never disposed.
    func reportIfNotClosed() {
        guard !isClosed, !acceptsEveryTag else { return }
        let undisposed = store.disposals.withLock { $0.records.map(\.key) }
        guard !undisposed.isEmpty else { return }
        container.report(.scopeNotClosed(tag: tag, undisposed: undisposed))
    }
}
