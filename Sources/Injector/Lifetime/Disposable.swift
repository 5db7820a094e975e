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

/// An instance that releases resources (a connection, a file, a subscription) when its owner ends.
///
/// A lifetime scope disposes the disposable instances it created when it closes
/// (``LifetimeScope/close()``, ``LifetimeScope/closeAsync()``); a container disposes its singletons
/// when it shuts down (``Container/shutdown()``, ``Container/shutdownAsync()``). Each instance is
/// disposed exactly once, in reverse order of completion: an instance goes before the dependencies
/// it was built from.
///
/// ```swift
/// final class Connection: Disposable {
///     func dispose() throws { try socket.close() }
/// }
/// ```
///
/// Disposal runs on the thread that closes the scope or shuts the container down.
public protocol Disposable {
    /// Releases the instance's resources. An error thrown here does not stop the other disposals;
    /// all of them are reported together.
    func dispose() throws
}

/// An instance whose release of resources is asynchronous (flushing a buffer to a server).
///
/// Only the async ``LifetimeScope/closeAsync()`` and ``Container/shutdownAsync()`` (and
/// ``Container/withScopeAsync(tag:providing:operation:isolation:)``, which calls the first) can dispose it;
/// a sync close of a scope holding one is refused before anything is disposed, with
/// ``InjectionError/Code/asyncDisposalRequired``. A type that conforms to both ``Disposable`` and
/// `AsyncDisposable` is disposed synchronously by a sync close, with ``Disposable/dispose()``, and
/// asynchronously by an async one, with ``disposeAsync()``.
///
/// ```swift
/// final class EventUploader: AsyncDisposable {
///     func disposeAsync() async throws { try await flush() }
/// }
/// ```
public protocol AsyncDisposable {
    /// Releases the instance's resources. An error thrown here does not stop the other disposals;
    /// all of them are reported together.
    func disposeAsync() async throws
}
