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
import Testing

// The docs' "Modules and finishing registration": modules installed in order, then
// `finishRegistration()`, which throws listing every duplicate and freezes the registry: a
// registration after it is an error that resolving its key reports.

private protocol Clock: Sendable { var now: String { get } }
private struct SystemClock: Clock { let now = "09:00" }
private protocol NoteStore { var clock: any Clock { get } }
private struct FileNoteStore: NoteStore { let clock: any Clock }
private protocol Editor { var store: any NoteStore { get } }
private struct NoteEditor: Editor { let store: any NoteStore }
private protocol Exporter { var format: String { get } }
private struct PDFExporter: Exporter { let format = "pdf" }

/// Where `StorageModule` registers the clock, which `ClashingModule` registers again: duplicate
/// errors name the sites.
private let storageClockSite = #line + 5

// README begins
private struct StorageModule: Module {
    func register(into container: Container) {
        container.register(Clock.self, scope: .singleton) { _ in SystemClock() }
        container.register(NoteStore.self) { r in try FileNoteStore(clock: r.resolve(Clock.self)) }
    }
}
// README pauses

private struct EditingModule: Module {
    func register(into container: Container) {
        container.register(Editor.self) { r in try NoteEditor(store: r.resolve(NoteStore.self)) }
    }
}
private struct ExportModule: Module {
    static let pdfSite = #line + 2
    func register(into container: Container) {
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
    }
}

/// Registers what another module registers already, twice over.
private struct ClashingModule: Module {
    static let clockSite = #line + 3
    static let exportPDFSite = #line + 3
    func register(into container: Container) {
        container.register(Clock.self) { _ in SystemClock() }
        container.register(Exporter.self, name: "pdf") { _ in PDFExporter() }
    }
}

private func site(_ line: Int) -> String { "InjectorTests/ReadmeModuleTests.swift:\(line)" }

@Suite struct ReadmeModuleTests {
    @Test func modulesInstalledInOrderThenFinishedResolve() throws {
        let container = Container()

        // README resumes
        container.install(StorageModule(), EditingModule(), ExportModule())
        try container.finishRegistration()  // throws listing every duplicate; the registry is frozen from here
        // README ends

        #expect(try container.resolve(Editor.self).store.clock.now == "09:00")
        #expect(try container.resolve(Exporter.self, name: "pdf").format == "pdf")
        #expect(container.isRegistrationFinished)
    }

    @Test func finishRegistrationThrowsListingEveryDuplicate() {
        let container = Container()
        container.install(StorageModule(), EditingModule(), ExportModule(), ClashingModule())

        let error = injectionError { try container.finishRegistration() }

        #expect(error?.code == .duplicateRegistration)
        #expect(error?.problems.map(\.code) == [.duplicateRegistration, .duplicateRegistration])
        let fix =
            " Fix: remove all but one; give them different names if each is needed (resolveAll collects them); or"
            + " pass replacesExisting: true to the one meant to replace the others, as a test does when it swaps in a"
            + " double."
        #expect(
            error?.message == "2 registrations conflict:\n"
                + "- Clock is registered 2 times: at \(site(storageClockSite)), then at"
                + " \(site(ClashingModule.clockSite)).\(fix)\n"
                + "- Exporter (name: \"pdf\") is registered 2 times: at \(site(ExportModule.pdfSite)), then at"
                + " \(site(ClashingModule.exportPDFSite)).\(fix)"
        )
    }

    @Test func aRegistrationAfterFinishRegistrationIsReportedWhenItsKeyIsResolved() throws {
        let container = Container()
        container.install(StorageModule(), EditingModule())
        try container.finishRegistration()

        container.install(ExportModule())

        let error = injectionError { try container.resolve(Exporter.self, name: "pdf") }
        #expect(error?.code == .registrationAfterFinish)
        #expect(
            error?.message == "Exporter (name: \"pdf\") was registered after finishRegistration() (at"
                + " \(site(ExportModule.pdfSite))); the registry was already frozen. Fix: make it before"
                + " finishRegistration(), or in a child container (container.makeChild())."
        )
        // A child container takes registrations still.
        let child = container.makeChild()
        child.install(ExportModule())
        #expect(try child.resolve(Exporter.self, name: "pdf").format == "pdf")
    }
}
