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

import Injector

/// A route written as a type: it makes its destination from the route's parameters and a resolver,
/// prepares it, checks it, removes it and handles events (ZIKRouter's router subclass).
///
/// Register it for the protocol it provides; the destination is made by the container, through a
/// registration of that protocol, and the route's hooks are kept by the router:
///
/// ```swift
/// struct EditorRoute: RouteDefinition {
///     var urlPatterns: [String] { ["app://notes/:id/edit"] }
///
///     func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> NoteEditor {
///         try NoteEditor(id: parameters.value("id", as: Int.self), store: resolver.resolve(NoteStore.self))
///     }
///
///     func prepare(_ editor: inout NoteEditor, context: RouteContext) throws {
///         editor.autosave = true
///     }
///
///     func verify(_ editor: NoteEditor, context: RouteContext) throws {
///         guard editor.store.isOpen else { throw EditorError.storeClosed }
///     }
/// }
///
/// router.register(RoutableService<Editor>(), route: EditorRoute())
/// ```
///
/// Every hook but `makeDestination` has a default that does nothing.
public protocol RouteDefinition: Sendable {
    /// The type the route makes: a concrete type that conforms to the protocol it is registered for.
    associatedtype Destination

    /// Identifiers under which the route can also be performed, such as `"editor"`.
    var identifiers: [String] { get }

    /// URL patterns that perform the route, such as `"app://notes/:id"`: `:name` placeholders and a
    /// trailing `*`; the matched values arrive in the parameters.
    var urlPatterns: [String] { get }

    /// Makes the destination. Called by the container, through the route's registration, once per
    /// instance its scope calls for.
    ///
    /// - Parameters:
    ///   - parameters: The parameters of the perform (a URL's placeholders and query items); empty
    ///     when the route was performed by protocol.
    ///   - resolver: Resolves the destination's dependencies within the same resolution.
    func makeDestination(with parameters: RouteParameters, resolver: Resolver) throws -> Destination

    /// Prepares a destination on every perform, after the caller's own preparation: the provider's
    /// preparation. Also runs for destinations made elsewhere (`Router/prepare(destination:for:configuring:)`).
    func prepare(_ destination: inout Destination, context: RouteContext) throws

    /// Checks that a destination is fully prepared, after every preparation; throw to fail the perform
    /// with RoutingError/Code/invalidConfiguration and your error's text in the message.
    func verify(_ destination: Destination, context: RouteContext) throws

    /// Undoes what performing did, when the route is removed (for example, stops a service).
    func remove(_ destination: Destination, context: RouteContext) throws

    /// Adds handlers for the custom events this route handles; see `Router/send(_:)`.
    ///
    /// ```swift
    /// func handleEvents(_ events: inout RouteEventHandlers) {
    ///     events.on(NotesDidSync.self) { event in cache.invalidate(event.changedIDs) }
    /// }
    /// ```
    func handleEvents(_ events: inout RouteEventHandlers)
}

extension RouteDefinition {
    /// No identifiers.
    public var identifiers: [String] { [] }
    /// No URL patterns.
    public var urlPatterns: [String] { [] }
    /// Prepares nothing.
    public func prepare(_ destination: inout Destination, context: RouteContext) throws {}
    /// Checks nothing.
    public func verify(_ destination: Destination, context: RouteContext) throws {}
    /// Removes nothing.
    public func remove(_ destination: Destination, context: RouteContext) throws {}
    /// Handles no events.
    public func handleEvents(_ events: inout RouteEventHandlers) {}
}

/// What a route's hooks are told about the perform they run in.
public struct RouteContext: Sendable {
    /// The router performing the route: resolve further routes or services through it.
    public let router: Router
    /// The parameters of the perform; empty when the route was performed by protocol.
    public let parameters: RouteParameters
    /// What is being done: performing, preparing a destination made elsewhere, or removing.
    public let action: RouteAction
}
