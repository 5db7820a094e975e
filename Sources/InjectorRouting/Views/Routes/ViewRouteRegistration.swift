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
import Injector

/// A view route just registered: URL patterns and event handlers are added as to a
/// `RouteRegistration`, and its hooks run on the main actor, where the route makes its screen. It
/// has no identifiers: a view route is shown by protocol or by URL, along a path.
///
/// ```swift
/// router.register(RoutableView<any EditorView>()) { _ in EditorScreen() }
///     .url("app://notes/:id/edit")
///     .prepare { editor, context in editor.title = context.parameters["title"] ?? "Untitled" }
/// ```
public struct ViewRouteRegistration<Protocol>: Sendable {
    let registration: RouteRegistration<Protocol>

    /// Lets the route be performed by URLs that match `pattern`; as `RouteRegistration/url(_:)`.
    @discardableResult
    public func url(_ pattern: String) -> Self {
        registration.url(pattern)
        return self
    }

    /// Adds a preparation that runs on every new screen after the caller's own, on the main actor.
    @discardableResult
    public func prepare(_ hook: @escaping @MainActor (inout Protocol, RouteContext) throws -> Void) -> Self {
        registration.prepare { destination, context in
            destination = try onMainActor(destination) { screen in
                var screen = screen
                try hook(&screen, context)
                return screen
            }
        }
        return self
    }

    /// Adds a check that runs after every preparation, on the main actor; throw to fail the perform
    /// with `RoutingError/Code/invalidConfiguration` and your error's text in the message.
    @discardableResult
    public func verify(_ check: @escaping @MainActor (Protocol, RouteContext) throws -> Void) -> Self {
        registration.verify { destination, context in try onMainActor(destination) { try check($0, context) } }
        return self
    }

    /// Adds a hook that runs, on the main actor, when a performed route is removed, on its screen;
    /// not when the screen, which the route holds weakly, is already gone.
    @discardableResult
    public func onRemove(_ hook: @escaping @MainActor (Protocol, RouteContext) throws -> Void) -> Self {
        registration.onRemove { destination, context in try onMainActor(destination) { try hook($0, context) } }
        return self
    }

    /// Handles custom events of type `Event` sent with `Router/send(_:)`; as
    /// `RouteRegistration/onEvent(_:perform:)`.
    @discardableResult
    public func onEvent<Event: RouteEvent>(_ event: Event.Type, perform: @escaping @Sendable (Event) -> Void) -> Self {
        registration.onEvent(event, perform: perform)
        return self
    }
}

/// Runs `body`, main-actor code, on `value`, where the caller runs: on the main actor when a view
/// route is performed or removed. Anywhere else it throws `MainActorRequired` (the resolve then
/// throws `InjectionError.Code.mainActorRequired`), where running it would race.
func onMainActor<Value, Result>(_ value: Value, _ body: @MainActor (Value) throws -> Result) throws -> Result {
    guard Thread.isMainThread || DispatchQueue.getSpecific(key: mainQueueMark) == true else {
        throw MainActorRequired()
    }
    // Neither crosses an isolation boundary: both stay in this synchronous call, on the main actor.
    nonisolated(unsafe) let value = value
    nonisolated(unsafe) var result: Result?
    try MainActor.assumeIsolated { result = try body(value) }
    return result!
}

/// Marks the main queue, which runs the main actor's code: on the main thread in an app, and on
/// whichever thread drains it under a test runner, where `Thread.isMainThread` says no.
private let mainQueueMark: DispatchSpecificKey<Bool> = {
    let mark = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: mark, value: true)
    return mark
}()
