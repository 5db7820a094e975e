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
import InjectorRouting

// Protocols and types the routing tests route to, with their declarations.

protocol Clock: Sendable { var now: Int { get } }
final class FixedClock: Clock {
    let now: Int
    init(now: Int = 7) { self.now = now }
}

protocol TimeSource: AnyObject, Sendable { var now: Int { get } }
final class SystemTime: TimeSource {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
    var now: Int { clock.now }
}

/// A class destination whose fields a preparation can set.
protocol Exporter: AnyObject, Sendable {
    var format: String { get set }
    var steps: [String] { get set }
}
final class FileExporter: Exporter, @unchecked Sendable {
    var format = "text"
    var steps: [String] = []
    let serial: Int
    init(serial: Int = 0) { self.serial = serial }
}

/// A value destination.
protocol Greeting {
    var text: String { get set }
}
struct PlainGreeting: Greeting {
    var text: String
}

protocol Note: Sendable { var title: String { get } }
struct TextNote: Note { let title: String }

protocol Editor: AnyObject {
    var note: any Note { get }
    var readOnly: Bool { get }
}
final class NoteEditor: Editor {
    let note: any Note
    let readOnly: Bool
    init(note: any Note, readOnly: Bool) {
        self.note = note
        self.readOnly = readOnly
    }
}

/// A module configuration protocol: the parameters of an editor that do not belong to it.
protocol EditorModule {
    func makeDestinationWith(_ note: any Note, readOnly: Bool) throws -> (any Editor)?
}
final class EditorModuleConfiguration: EditorModule, Sendable {
    let serial: Int
    init(serial: Int) { self.serial = serial }
    func makeDestinationWith(_ note: any Note, readOnly: Bool) throws -> (any Editor)? {
        note.title.isEmpty ? nil : NoteEditor(note: note, readOnly: readOnly)
    }
}

protocol Logger: AnyObject, Sendable { func log(_ line: String) -> String }
protocol NoteLogging: AnyObject { func log(_ line: String) -> String }
protocol AuditLogging: AnyObject { func log(_ line: String) -> String }
final class ConsoleLogger: Logger, NoteLogging, AuditLogging {
    func log(_ line: String) -> String { "console: \(line)" }
}
protocol Unadaptable: AnyObject {}

protocol Viewer { var id: Int { get } }
struct NoteViewer: Viewer {
    let id: Int
    let tab: String?
}

protocol SignIn {}
struct SignInScreen: SignIn {}

extension RoutableService where Protocol == any Clock {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any TimeSource {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Exporter {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Greeting {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Editor {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableServiceModule where Protocol == any EditorModule {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Logger {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any NoteLogging {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any AuditLogging {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Unadaptable {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any Viewer {
    init() { self.init(declaredProtocol: Protocol.self) }
}
extension RoutableService where Protocol == any SignIn {
    init() { self.init(declaredProtocol: Protocol.self) }
}

/// Records what happened, in order, from any thread.
final class EventLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var lines: [String] = []

    func record(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        lines.append(line)
    }

    var entries: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }

    func clear() {
        lock.lock()
        defer { lock.unlock() }
        lines.removeAll()
    }
}

/// Counts calls from any thread.
final class Counter: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var count = 0

    @discardableResult
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        count += 1
        return count
    }

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }
}

/// Runs `body`, which must throw a `RoutingError`, and returns it.
func routingError(_ body: () throws -> Void) -> RoutingError? {
    do {
        try body()
        return nil
    } catch {
        return error as? RoutingError
    }
}

/// Runs `body`, which must throw an `InjectionError` (the container's), and returns it.
func injectionError(_ body: () throws -> Void) -> InjectionError? {
    do {
        try body()
        return nil
    } catch {
        return error as? InjectionError
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
