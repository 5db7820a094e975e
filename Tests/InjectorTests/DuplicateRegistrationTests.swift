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
import Testing

@testable import Injector

// Duplicate registrations, finishRegistration's report, and registrations made after it.

private protocol DupClock: Sendable { var label: String { get } }
private struct DupFixedClock: DupClock { let label: String }
private protocol DupStore { var clock: DupClock { get } }
private struct DupClockStore: DupStore { let clock: DupClock }
private protocol DupExporter {}
private struct DupPDFExporter: DupExporter {}

private final class DupTraced {
    var log: [String] = []
}

/// This file as `#fileID` names it in registration sites.
private let dupFile = "InjectorTests/DuplicateRegistrationTests.swift"

private func dupSite(_ line: Int) -> String { "\(dupFile):\(line)" }

struct DuplicateRegistrationTests {
    // MARK: Duplicates

    @Test func duplicateDoesNotThrowAtRegisterButResolvingItThrowsNamingBothSites() throws {
        let container = Container()
        let firstLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        let secondLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }

        let error = try #require(injectionError { _ = try container.resolve(DupClock.self) })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("DupClock"))
        #expect(error.message.contains(dupSite(firstLine)))
        #expect(error.message.contains(dupSite(secondLine)))
        #expect(error.message.contains("2 times"))
        #expect(error.message.contains("replacesExisting: true"))
        #expect(error.resolutionPath.last?.description == "DupClock")
    }

    @Test func duplicateSitesAreListedInRegistrationOrder() throws {
        let container = Container()
        let lines = [#line + 1, #line + 2, #line + 3]
        container.register(DupClock.self) { _ in DupFixedClock(label: "1") }
        container.register(DupClock.self) { _ in DupFixedClock(label: "2") }
        container.register(DupClock.self) { _ in DupFixedClock(label: "3") }

        let error = try #require(injectionError { _ = try container.resolve(DupClock.self) })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("3 times"))
        let positions = try lines.map { line in
            try #require(error.message.range(of: dupSite(line))).lowerBound
        }
        #expect(positions == positions.sorted())
    }

    @Test func duplicateOfANamedKeyWithArgumentsNamesTheKeyAndBothSites() throws {
        let container = Container()
        let firstLine = #line + 1
        container.register(DupClock.self, name: "utc") { (_, offset: Int) in DupFixedClock(label: "\(offset)") }
        let secondLine = #line + 1
        container.register(DupClock.self, name: "utc") { (_, offset: Int) in DupFixedClock(label: "\(offset)") }
        container.register(DupClock.self, name: "utc") { _ in DupFixedClock(label: "no arguments") }

        let error = try #require(injectionError { _ = try container.resolve(DupClock.self, name: "utc", argument: 1) })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("DupClock (name: \"utc\", argument: Int)"))
        #expect(error.message.contains(dupSite(firstLine)))
        #expect(error.message.contains(dupSite(secondLine)))
        // The key without arguments is not part of the duplicate.
        #expect(try container.resolve(DupClock.self, name: "utc").label == "no arguments")
    }

    @Test func duplicateNeededByAnotherServiceFailsThatResolveToo() throws {
        let container = Container()
        container.register(DupStore.self) { r in try DupClockStore(clock: r.resolve(DupClock.self)) }
        let firstLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        let secondLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }

        let error = try #require(injectionError { _ = try container.resolve(DupStore.self) })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("DupClock"))
        #expect(error.message.contains(dupSite(firstLine)))
        #expect(error.message.contains(dupSite(secondLine)))
        #expect(error.resolutionPath.map(\.description) == ["DupStore", "DupClock"])
    }

    @Test func duplicateRunsNeitherFactory() throws {
        let container = Container()
        let calls = CallCounter()
        container.register(DupClock.self) { _ in
            calls.next()
            return DupFixedClock(label: "first")
        }
        container.register(DupClock.self) { _ in
            calls.next()
            return DupFixedClock(label: "second")
        }

        #expect(throws: InjectionError.self) { try container.resolve(DupClock.self) }
        #expect(calls.count == 0)
    }

    @Test func duplicateDoesNotAffectOtherKeys() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }
        container.register(DupClock.self, name: "utc") { _ in DupFixedClock(label: "utc") }
        container.register(DupExporter.self) { _ in DupPDFExporter() }

        #expect(try container.resolve(DupClock.self, name: "utc").label == "utc")
        #expect(try container.resolve(DupExporter.self) is DupPDFExporter)
    }

    @Test func childShadowingAParentKeyIsNotADuplicate() throws {
        let parent = Container()
        parent.register(DupClock.self) { _ in DupFixedClock(label: "parent") }
        try parent.finishRegistration()
        let child = parent.makeChild()
        child.register(DupClock.self) { _ in DupFixedClock(label: "child") }

        try child.finishRegistration()
        #expect(try child.resolve(DupClock.self).label == "child")
        #expect(try parent.resolve(DupClock.self).label == "parent")
    }

    // MARK: finishRegistration reports duplicates

    @Test func finishRegistrationWithoutDuplicatesDoesNotThrow() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "a") }
        container.register(DupClock.self, name: "b") { _ in DupFixedClock(label: "b") }
        try container.finishRegistration()
    }

    @Test func finishRegistrationThrowsTheOneDuplicateItself() throws {
        let container = Container()
        let firstLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        let secondLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }
        container.register(DupExporter.self) { _ in DupPDFExporter() }

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains("DupClock"))
        #expect(error.message.contains(dupSite(firstLine)))
        #expect(error.message.contains(dupSite(secondLine)))
        #expect(!error.message.contains("DupExporter"))
        #expect(error.problems.isEmpty)
    }

    @Test func finishRegistrationReportsEveryDuplicateInOneError() throws {
        let container = Container()
        let clockLines = [#line + 1, #line + 2]
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }
        let exporterLines = [#line + 1, #line + 2]
        container.register(DupExporter.self, name: "pdf") { _ in DupPDFExporter() }
        container.register(DupExporter.self, name: "pdf") { _ in DupPDFExporter() }
        container.register(DupExporter.self) { _ in DupPDFExporter() }

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.code == .duplicateRegistration)
        #expect(error.problems.count == 2)
        #expect(error.problems.allSatisfy { $0.code == .duplicateRegistration })

        let clockProblem = try #require(error.problems.first { $0.message.contains("DupClock") })
        #expect(clockProblem.message.contains(dupSite(clockLines[0])))
        #expect(clockProblem.message.contains(dupSite(clockLines[1])))
        #expect(!clockProblem.message.contains("DupExporter"))
        let exporterProblem = try #require(error.problems.first { $0.message.contains("DupExporter") })
        #expect(exporterProblem.message.contains("DupExporter (name: \"pdf\")"))
        #expect(exporterProblem.message.contains(dupSite(exporterLines[0])))
        #expect(exporterProblem.message.contains(dupSite(exporterLines[1])))

        // The combined message lists each problem.
        for problem in error.problems {
            #expect(error.message.contains(problem.message))
        }
        #expect(error.description == error.message)
    }

    @Test func registryIsFrozenAndUsableEvenWhenFinishRegistrationThrows() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }
        container.register(DupExporter.self) { _ in DupPDFExporter() }

        #expect(throws: InjectionError.self) { try container.finishRegistration() }
        #expect(container.isRegistrationFinished)
        #expect(try container.resolve(DupExporter.self) is DupPDFExporter)
        let error = try #require(injectionError { _ = try container.resolve(DupClock.self) })
        #expect(error.code == .duplicateRegistration)
    }

    @Test func secondFinishRegistrationReportsTheSameDuplicatesAgain() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }

        let first = try #require(injectionError { try container.finishRegistration() })
        let second = try #require(injectionError { try container.finishRegistration() })
        #expect(second.code == .duplicateRegistration)
        #expect(second.message == first.message)
    }

    // MARK: Late registration

    @Test func lateRegistrationDoesNotThrowButResolvingItThrowsRegistrationAfterFinish() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "early") }
        try container.finishRegistration()

        let lateLine = #line + 1
        container.register(DupExporter.self) { _ in DupPDFExporter() }

        let error = try #require(injectionError { _ = try container.resolve(DupExporter.self) })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("DupExporter"))
        #expect(error.message.contains("finishRegistration()"))
        #expect(error.message.contains(dupSite(lateLine)))
        // Other keys still resolve.
        #expect(try container.resolve(DupClock.self).label == "early")
    }

    @Test func lateRegistrationOfAnExistingKeyMakesThatKeyFail() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "early") }
        container.register(DupClock.self, name: "utc") { _ in DupFixedClock(label: "utc") }
        try container.finishRegistration()
        #expect(try container.resolve(DupClock.self).label == "early")

        let lateLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "late") }

        let error = try #require(injectionError { _ = try container.resolve(DupClock.self) })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("finishRegistration()"))
        #expect(error.message.contains(dupSite(lateLine)))
        #expect(try container.resolve(DupClock.self, name: "utc").label == "utc")
    }

    @Test func lateRegistrationWithReplacesExistingIsReportedToo() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "early") }
        try container.finishRegistration()

        let lateLine = #line + 1
        container.register(DupClock.self, replacesExisting: true) { _ in DupFixedClock(label: "late") }

        let error = try #require(injectionError { _ = try container.resolve(DupClock.self) })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains(dupSite(lateLine)))
    }

    @Test func lateRegistrationOfAnAlreadyResolvedSingletonMakesItFail() throws {
        let container = Container()
        container.register(DupClock.self, scope: .singleton) { _ in DupFixedClock(label: "early") }
        try container.finishRegistration()
        #expect(try container.resolve(DupClock.self).label == "early")  // published

        container.register(DupClock.self, scope: .singleton) { _ in DupFixedClock(label: "late") }

        let error = try #require(injectionError { _ = try container.resolve(DupClock.self) })
        #expect(error.code == .registrationAfterFinish)
    }

    @Test func lateRegistrationFailsAResolveThatNeedsIt() throws {
        let container = Container()
        container.register(DupStore.self) { r in try DupClockStore(clock: r.resolve(DupClock.self)) }
        try container.finishRegistration()
        container.register(DupClock.self) { _ in DupFixedClock(label: "late") }

        let error = try #require(injectionError { _ = try container.resolve(DupStore.self) })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("DupClock"))
        #expect(error.resolutionPath.map(\.description) == ["DupStore", "DupClock"])
    }

    @Test func secondFinishRegistrationReportsALateRegistration() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "early") }
        try container.finishRegistration()

        let lateLine = #line + 1
        container.register(DupExporter.self) { _ in DupPDFExporter() }

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("DupExporter"))
        #expect(error.message.contains("finishRegistration()"))
        #expect(error.message.contains(dupSite(lateLine)))
    }

    @Test func secondFinishRegistrationReportsSeveralLateRegistrations() throws {
        let container = Container()
        try container.finishRegistration()

        let clockLine = #line + 1
        container.register(DupClock.self) { _ in DupFixedClock(label: "late") }
        let exporterLine = #line + 1
        container.register(DupExporter.self) { _ in DupPDFExporter() }

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.problems.count == 2)
        #expect(error.problems.allSatisfy { $0.code == .registrationAfterFinish })
        #expect(error.message.contains(dupSite(clockLine)))
        #expect(error.message.contains(dupSite(exporterLine)))
    }

    @Test func secondFinishRegistrationReportsEarlierDuplicatesAndLateRegistrationsTogether() throws {
        let container = Container()
        container.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        container.register(DupClock.self) { _ in DupFixedClock(label: "second") }
        #expect(throws: InjectionError.self) { try container.finishRegistration() }

        container.register(DupExporter.self) { _ in DupPDFExporter() }

        let error = try #require(injectionError { try container.finishRegistration() })
        #expect(error.problems.count == 2)
        #expect(error.problems.map(\.code).contains(.duplicateRegistration))
        #expect(error.problems.map(\.code).contains(.registrationAfterFinish))
        #expect(error.message.contains("DupClock"))
        #expect(error.message.contains("DupExporter"))
    }

    @Test(arguments: ["onResolved", "verify"])
    func lateHookAmendmentIsReportedAsALateRegistration(step: String) throws {
        let container = Container()
        let hookCalls = CallCounter()
        let registration = container.register(DupTraced.self) { _ in DupTraced() }
        container.register(DupClock.self) { _ in DupFixedClock(label: "other") }
        try container.finishRegistration()
        #expect(try container.resolve(DupTraced.self).log == [])

        if step == "onResolved" {
            registration.onResolved { _, _ in hookCalls.next() }
        } else {
            registration.verify { _ in hookCalls.next() }
        }

        let error = try #require(injectionError { _ = try container.resolve(DupTraced.self) })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("DupTraced"))
        #expect(error.message.contains("finishRegistration()"))
        #expect(hookCalls.count == 0)
        #expect(try container.resolve(DupClock.self).label == "other")

        let report = try #require(injectionError { try container.finishRegistration() })
        #expect(report.code == .registrationAfterFinish)
        #expect(report.message.contains("DupTraced"))
    }

    @Test(arguments: ["onResolved", "verify"])
    func lateHookOnADuplicatedKeyStillReportsTheDuplicateNamingBothRegistrationSites(step: String) throws {
        let container = Container()
        let hookCalls = CallCounter()
        let firstLine = #line + 1
        container.register(DupTraced.self) { _ in DupTraced() }
        let secondLine = #line + 1
        let registration = container.register(DupTraced.self) { _ in DupTraced() }
        #expect(throws: InjectionError.self) { try container.finishRegistration() }

        if step == "onResolved" {
            registration.onResolved { _, _ in hookCalls.next() }
        } else {
            registration.verify { _ in hookCalls.next() }
        }

        let error = try #require(injectionError { _ = try container.resolve(DupTraced.self) })
        #expect(error.code == .duplicateRegistration, "the late hook does not hide the duplicate")
        #expect(error.message.contains("DupTraced is registered"))
        #expect(error.message.contains(dupSite(firstLine)))
        #expect(error.message.contains(dupSite(secondLine)))
        #expect(error.message.contains("replacesExisting: true"))
        #expect(!error.message.contains("after finishRegistration()"))
        #expect(hookCalls.count == 0)

        let report = try #require(injectionError { try container.finishRegistration() })
        #expect(report.code == .duplicateRegistration)
        #expect(report.message.contains(dupSite(firstLine)))
        #expect(report.message.contains(dupSite(secondLine)))
    }

    @Test func lateHookOnADuplicatedKeyLeavesOneDuplicateOfTwoRegistrations() throws {
        // The hook is not a third registration, and the key is still one problem: the second
        // finishRegistration() throws that problem itself ("one problem -> that error").
        let container = Container()
        let firstLine = #line + 1
        container.register(DupTraced.self) { _ in DupTraced() }
        let secondLine = #line + 1
        let registration = container.register(DupTraced.self) { _ in DupTraced() }
        #expect(throws: InjectionError.self) { try container.finishRegistration() }
        registration.onResolved { _, _ in }

        let error = try #require(injectionError { _ = try container.resolve(DupTraced.self) })
        #expect(error.code == .duplicateRegistration)
        #expect(
            error.message.contains(
                "DupTraced is registered 2 times: at \(dupSite(firstLine)), then at \(dupSite(secondLine))."
            )
        )

        let report = try #require(injectionError { try container.finishRegistration() })
        #expect(report.code == .duplicateRegistration)
        #expect(report.problems.isEmpty, "one duplicated key is one problem")
        #expect(
            report.message.hasPrefix(
                "DupTraced is registered 2 times: at \(dupSite(firstLine)), then at \(dupSite(secondLine))."
            )
        )
    }

    @Test(arguments: ["onResolved", "verify"])
    func lateHookOnALateRegistrationStillReportsTheLateRegistration(step: String) throws {
        let container = Container()
        let hookCalls = CallCounter()
        container.register(DupClock.self) { _ in DupFixedClock(label: "early") }
        try container.finishRegistration()

        let lateLine = #line + 1
        let registration = container.register(DupTraced.self) { _ in DupTraced() }
        if step == "onResolved" {
            registration.onResolved { _, _ in hookCalls.next() }
        } else {
            registration.verify { _ in hookCalls.next() }
        }

        let error = try #require(injectionError { _ = try container.resolve(DupTraced.self) })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.hasPrefix("DupTraced was registered after finishRegistration()"))
        #expect(error.message.contains(dupSite(lateLine)))
        #expect(error.message.contains("makeChild()"))
        #expect(hookCalls.count == 0)
        #expect(try container.resolve(DupClock.self).label == "early")

        let report = try #require(injectionError { try container.finishRegistration() })
        #expect(report.code == .registrationAfterFinish)
        #expect(report.message.contains("DupTraced was registered after finishRegistration()"))
        #expect(report.message.contains(dupSite(lateLine)))
    }

    @Test func lateRegistrationInAParentIsReportedWhenResolvedThroughAChild() throws {
        let parent = Container()
        try parent.finishRegistration()
        let child = parent.makeChild()
        parent.register(DupExporter.self) { _ in DupPDFExporter() }

        let error = try #require(injectionError { _ = try child.resolve(DupExporter.self) })
        #expect(error.code == .registrationAfterFinish)
        #expect(error.message.contains("DupExporter"))
    }

    // MARK: Children of a finished parent

    @Test func childOfAFinishedParentCanStillRegister() throws {
        let parent = Container()
        parent.register(DupClock.self) { _ in DupFixedClock(label: "parent") }
        try parent.finishRegistration()

        let child = parent.makeChild()
        child.register(DupExporter.self) { _ in DupPDFExporter() }
        child.register(DupClock.self) { _ in DupFixedClock(label: "child") }  // shadows: not a duplicate

        #expect(try child.resolve(DupExporter.self) is DupPDFExporter)
        #expect(try child.resolve(DupClock.self).label == "child")
        try child.finishRegistration()
        #expect(try child.resolve(DupExporter.self) is DupPDFExporter)

        // The parent neither sees the child's registration nor records it as late.
        let missing = try #require(injectionError { _ = try parent.resolve(DupExporter.self) })
        #expect(missing.code == .missingRegistration)
        try parent.finishRegistration()
    }

    @Test func childMadeBeforeTheParentFinishedCanStillRegisterAfterIt() throws {
        let parent = Container()
        let child = parent.makeChild()
        parent.register(DupClock.self) { _ in DupFixedClock(label: "parent") }
        try parent.finishRegistration()

        child.register(DupStore.self) { r in try DupClockStore(clock: r.resolve(DupClock.self)) }
        #expect(try child.resolve(DupStore.self).clock.label == "parent")
        try child.finishRegistration()
    }

    @Test func childOfAFinishedParentReportsItsOwnDuplicates() throws {
        let parent = Container()
        try parent.finishRegistration()
        let child = parent.makeChild()
        let firstLine = #line + 1
        child.register(DupClock.self) { _ in DupFixedClock(label: "first") }
        let secondLine = #line + 1
        child.register(DupClock.self) { _ in DupFixedClock(label: "second") }

        let error = try #require(injectionError { try child.finishRegistration() })
        #expect(error.code == .duplicateRegistration)
        #expect(error.message.contains(dupSite(firstLine)))
        #expect(error.message.contains(dupSite(secondLine)))
    }
}
