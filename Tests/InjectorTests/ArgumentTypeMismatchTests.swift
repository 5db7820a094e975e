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

import Testing

@testable import Injector

// A resolve-time argument passed as another type than the registration takes: a value of protocol
// type given as `argument:` (which Swift passes to the generic parameter as the type it holds), or
// an instance of a subclass. The registration is missing for the type passed; the message says
// which cast asks for the registration that is there.

private protocol Shape: Sendable { var sides: Int { get } }
private struct Square: Shape { let sides = 4 }
private struct Canvas { let shape: any Shape }
private class Animal: @unchecked Sendable {}
private final class Dog: Animal, @unchecked Sendable {}
private struct Kennel { let animal: Animal }
private struct Frame { let canvas: Canvas }

@Suite struct ArgumentTypeMismatchTests {
    @Test func aProtocolValueGivenAsTheArgumentIsAskedForAsTheTypeItHoldsAndTheFixCastsIt() throws {
        let container = Container()
        container.register(Canvas.self) { (_, shape: any Shape) in Canvas(shape: shape) }
        let shape: any Shape = Square()

        let error = try #require(injectionError { try container.resolve(Canvas.self, argument: shape) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for Canvas (argument: Square). Registered nearby: Canvas (argument: Shape)."
                + " Fix: pass the argument as Canvas (argument: Shape) takes it, `as any Shape`: a value of"
                + " protocol type given as `argument:` is passed as the type it holds, here Square."
        )
        #expect(try container.resolve(Canvas.self, argument: shape as any Shape).shape.sides == 4)
    }

    @Test func aProtocolValueAskedForThroughAResolverOrAsyncGetsTheSameFix() async throws {
        let container = Container()
        container.register(Canvas.self) { (_, shape: any Shape) in Canvas(shape: shape) }
        container.register(Frame.self) { r in
            let shape: any Shape = Square()
            return try Frame(canvas: r.resolve(Canvas.self, argument: shape))
        }
        let shape: any Shape = Square()

        let nested = try #require(injectionError { try container.resolve(Frame.self) })
        let async = try #require(
            await injectionErrorAsync { try await container.resolveAsync(Canvas.self, argument: shape) }
        )

        let fix =
            " Registered nearby: Canvas (argument: Shape). Fix: pass the argument as Canvas (argument: Shape)"
            + " takes it, `as any Shape`: a value of protocol type given as `argument:` is passed as the type"
            + " it holds, here Square."
        #expect(nested.code == .missingRegistration)
        #expect(
            nested.message
                == "No registration for Canvas (argument: Square), needed by Frame -> Canvas (argument: Square)"
                + " (missing)." + fix
        )
        #expect(async.code == .missingRegistration)
        #expect(async.message == "No registration for Canvas (argument: Square)." + fix)
    }

    @Test func aSubclassInstanceWhereTheRegistrationTakesItsSuperclassIsToldToPassItAsTheSuperclass() throws {
        let container = Container()
        container.register(Kennel.self) { (_, animal: Animal) in Kennel(animal: animal) }

        let error = try #require(injectionError { try container.resolve(Kennel.self, argument: Dog()) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for Kennel (argument: Dog). Registered nearby: Kennel (argument: Animal)."
                + " Fix: pass the argument as Kennel (argument: Animal) takes it, `as Animal`."
        )
    }

    @Test func severalArgumentsNameEachOneToCast() throws {
        let container = Container()
        container.register(Canvas.self) { (_, shape: any Shape, _: Int) in Canvas(shape: shape) }

        let error = try #require(injectionError { try container.resolve(Canvas.self, arguments: Square(), 2) })

        #expect(error.code == .missingRegistration)
        #expect(
            error.message
                == "No registration for Canvas (arguments: Square, Int). Registered nearby: Canvas (arguments:"
                + " Shape, Int). Fix: pass the arguments as Canvas (arguments: Shape, Int) takes them: argument 1"
                + " `as any Shape`."
        )
    }

    @Test func anArgumentOfAnUnrelatedTypeKeepsTheUsualFix() throws {
        let container = Container()
        container.register(Canvas.self) { (_, shape: any Shape) in Canvas(shape: shape) }
        container.register(Canvas.self, name: "framed") { (_, shape: any Shape) in Canvas(shape: shape) }

        let unrelated = try #require(injectionError { try container.resolve(Canvas.self, argument: 3) })
        let otherName = try #require(
            injectionError { try container.resolve(Canvas.self, name: "plain", argument: Square()) }
        )

        #expect(unrelated.code == .missingRegistration)
        #expect(
            unrelated.message
                == "No registration for Canvas (argument: Int). Registered nearby: Canvas (argument: Shape);"
                + " Canvas (name: \"framed\", argument: Shape). Fix: ask for one of those (same name and argument"
                + " types), or register Canvas (argument: Int)."
        )
        #expect(otherName.code == .missingRegistration)
        #expect(
            otherName.message
                == "No registration for Canvas (name: \"plain\", argument: Square). Registered nearby: Canvas"
                + " (argument: Shape); Canvas (name: \"framed\", argument: Shape). Fix: ask for one of those (same"
                + " name and argument types), or register Canvas (name: \"plain\", argument: Square)."
        )
    }
}
