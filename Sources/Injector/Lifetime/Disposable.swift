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
/// (``LifetimeScope/close()-2l9gt``); a container disposes its singletons when it shuts down
/// (``Container/shutdown()-72rfc``). Each instance is disposed exactly once, in reverse order of
/// completion: an instance goes before the dependencies it was built from.
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
/// Only the async ``LifetimeScope/close()-5zrv`` and ``Container/shutdown()-74lc`` can dispose it; a sync
/// close of a scope holding one is refused before anything is disposed, with
/// ``InjectionError/Code/asyncDisposalRequired``. A type that conforms to both ``Disposable`` and
/// `AsyncDisposable` is disposed synchronously by a sync close and asynchronously by an async one.
public protocol AsyncDisposable {
    /// Releases the instance's resources. An error thrown here does not stop the other disposals;
    /// all of them are reported together.
    func dispose() async throws
}
