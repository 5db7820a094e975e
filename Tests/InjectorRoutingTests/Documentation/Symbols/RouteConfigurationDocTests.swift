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
import InjectorRouting
import Testing

// The swift block of RouteConfiguration's doc comment, verbatim, and the order of the handlers the
// comment states. The fixtures have an `Exporter` of their own, so the comment's live in the
// namespace below; what the snippet prints is captured by this file's `print`.

/// The doc comment's types, and its tests.
enum RouteConfigurationDoc {
    fileprivate enum ExportFormat { case text, pdf }
    fileprivate protocol Exporter: AnyObject, Sendable { var format: ExportFormat { get set } }
    fileprivate final class FileExporter: Exporter, @unchecked Sendable {
        var format = ExportFormat.text
    }
    /// Keeps every exporter made, which the route holds weakly.
    fileprivate final class Made: @unchecked Sendable {
        var exporters: [FileExporter] = []
        func keep(_ exporter: FileExporter) -> FileExporter {
            exporters.append(exporter)
            return exporter
        }
    }
    fileprivate struct ExportFailed: Error, CustomStringConvertible {
        var description: String { "the disk is full" }
    }
}

extension RoutableService where Protocol == any RouteConfigurationDoc.Exporter {
    fileprivate init() { self.init(declaredProtocol: Protocol.self) }
}

/// What the snippet prints, in this file.
private let printed = EventLog()
private func print(_ item: Any) { printed.record("\(item)") }

extension RouteConfigurationDoc {
    @Suite(.serialized)
    struct RouteConfigurationDocTests {
        @Test func theConfigurationPreparesEveryDestinationAndThePerformerHandlerFiresForTheFirstPerformOnly() throws {
            printed.clear()
            let made = Made()
            let router = Router(container: Container())
            router.register(RoutableService<any Exporter>()) { _ in made.keep(FileExporter()) }

            let route = try router.perform(to: RoutableService<Exporter>()) { config in
                config.prepareDestination = { exporter in exporter.format = .pdf }
                config.successHandler = { exporter in print("exporter ready") }  // on every perform
                config.performerSuccessHandler = { exporter in print("first perform") }  // on this one only
                config.errorHandler = { action, error in print(error.message) }
            }
            let first = try #require(made.exporters.last)
            #expect(first.format == .pdf)
            #expect(route.state == .routed)
            #expect(printed.entries == ["exporter ready", "first perform"])

            try route.perform()  // the configuration is kept: a new destination is prepared the same way
            let second = try #require(made.exporters.last)
            #expect(second !== first)
            #expect(second.format == .pdf)
            #expect(printed.entries == ["exporter ready", "first perform", "exporter ready"])
        }

        @Test func aCallersPreparationOfASharedDestinationFailsThePerform() throws {
            let router = Router(container: Container())
            let line = #line + 1
            router.register(RoutableService<any Exporter>(), scope: .singleton) { _ in FileExporter() }

            let error = try #require(
                routingError {
                    try router.perform(to: RoutableService<any Exporter>()) { config in
                        config.prepareDestination = { exporter in exporter.format = .pdf }
                    }
                }
            )
            #expect(error.code == .invalidConfiguration)
            #expect(
                error.message
                    == "RoutableService<Exporter> was given a prepareDestination, but RoutableService<Exporter> (the "
                    + "route registered at InjectorRoutingTests/RouteConfigurationDocTests.swift:\(line)) is a "
                    + "singleton registration: its destination is shared with other callers, and one caller's "
                    + "preparation would change it for all. Fix: prepare it in the route's own prepare hook, or "
                    + "register the route .transient."
            )
        }

        @Test func onSuccessTheStateIsRoutedBeforeTheSuccessCompletionAndPerformerHandlers() throws {
            let log = EventLog()
            let router = Router(container: Container())
            router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
            let route = try router.to(RoutableService<any Exporter>()) { config in
                config.stateNotifier = { old, new in log.record("state \(old) -> \(new)") }
                config.successHandler = { _ in log.record("success") }
                config.completionHandler = { action, result in log.record("completion \(action)") }
                config.performerSuccessHandler = { _ in log.record("performer success") }
            }
            try route.perform()
            #expect(
                log.entries == [
                    "state unrouted -> routing", "state routing -> routed", "success",
                    "completion \(RouteAction.performRoute)", "performer success",
                ]
            )
        }

        @Test func onFailureTheStateReturnsThenTheErrorCompletionPerformerAndGlobalHandlersAreTold() throws {
            let log = EventLog()
            let router = Router(container: Container())
            router.globalErrorHandler = { _, _ in log.record("global") }
            let line = #line + 1
            router.register(RoutableService<any Exporter>()) { _ in FileExporter() }
                .verify { _, _ in throw ExportFailed() }
            let route = try router.to(RoutableService<any Exporter>()) { config in
                config.stateNotifier = { old, new in log.record("state \(old) -> \(new)") }
                config.errorHandler = { _, error in log.record("error \(error.code)") }
                config.completionHandler = { _, result in log.record("completion") }
                config.performerErrorHandler = { _, _ in log.record("performer error") }
            }
            let error = try #require(routingError { try route.perform() })
            #expect(error.code == .invalidConfiguration)
            #expect(
                error.message
                    == "The destination of RoutableService<Exporter> (the route registered at "
                    + "InjectorRoutingTests/RouteConfigurationDocTests.swift:\(line)) is not ready: its verify check "
                    + "threw: the disk is full. Fix: give it what the check asks for, in the configuration's "
                    + "prepareDestination or the route's prepare hook."
            )
            #expect(route.state == .unrouted)
            #expect(
                log.entries == [
                    "state unrouted -> routing", "state routing -> unrouted", "error invalidConfiguration",
                    "completion", "performer error", "global",
                ]
            )
        }
    }
}
