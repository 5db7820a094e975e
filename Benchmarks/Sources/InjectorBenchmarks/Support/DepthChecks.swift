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

/// Every case, in table order. `--filter` selects among them by letter or title.

import Foundation
import Injector

/// The resolve core's depth budgets (issue 39), run by `--depth`: a resolve's cost grows linearly
/// with the depth of its chain, a runaway recursion is stopped within a second (on the main thread,
/// whose stack the guard measures), and the message of a failure thousands deep stays short. Each
/// row is judged ✓ or ✗; the figures are wall time, so run it on a quiet machine.
enum DepthChecks {
    private final class Node: Sendable {
        let child: Node?
        init(child: Node?) { self.child = child }
    }
    private struct Link: Sendable {}
    private struct Refused: Error {}

    static func markdown() -> String {
        let shallow = median { timeArgumentChain(depth: 1_000) }
        let deep = median { timeArgumentChain(depth: 4_000) }
        let (runaway, runawayCode) = timeRunawayRecursion()
        let (failure, size) = failureMessage(depth: 8_000)
        var lines = [
            "| Depth | measured | budget | |",
            "| --- | ---: | ---: | --- |",
        ]
        func row(_ what: String, _ measured: String, _ budget: String, _ met: Bool) {
            lines.append("| \(what) | \(measured) | \(budget) | \(met ? "✓" : "✗") |")
        }
        row(
            "a chain through arguments, 4,000 deep ÷ 1,000 deep",
            String(format: "%.1f× (%.1f ms ÷ %.1f ms)", deep / shallow, deep * 1e3, shallow * 1e3),
            "≤ 5×",
            deep / shallow <= 5
        )
        row(
            "a runaway recursion on the main thread, to `\(runawayCode)`",
            String(format: "%.3f s", runaway),
            "≤ 1 s",
            runaway <= 1
        )
        row(
            "the message of a failure 8,000 deep",
            "\(size.formatted()) bytes (thrown in \(String(format: "%.3f s", failure)))",
            "≤ 4,096 bytes",
            size <= 4_096
        )
        return lines.joined(separator: "\n")
    }

    /// The median of five timings.
    private static func median(_ measure: () -> Double) -> Double {
        (0..<5).map { _ in measure() }.sorted()[2]
    }

    /// Seconds to resolve a chain `depth` deep through a resolve-time argument, on a thread whose
    /// stack holds it.
    private static func timeArgumentChain(depth: Int) -> Double {
        onLargeStack {
            let container = Container()
            container.register(Node.self) { (r, depth: Int) in
                Node(child: depth == 0 ? nil : try r.resolve(Node.self, argument: depth - 1))
            }
            let start = Harness.now()
            var node = try? container.resolve(Node.self, argument: depth)
            let elapsed = Double(Harness.now() - start) / 1e9
            while let next = node { node = next.child }  // released iteratively: a deep deinit recurses
            return elapsed
        }
    }

    /// Seconds until a recursion with no end, on the main thread, is refused, and the error's code.
    private static func timeRunawayRecursion() -> (Double, String) {
        let container = Container()
        container.register(Node.self) { (r, depth: Int) in Node(child: try r.resolve(Node.self, argument: depth + 1)) }
        let start = Harness.now()
        var code = "no error"
        do { _ = try container.resolve(Node.self, argument: 0) } catch let error as InjectionError {
            code = "\(error.code)"
        } catch {
            code = "\(error)"
        }
        return (Double(Harness.now() - start) / 1e9, code)
    }

    /// Seconds to throw the error of a chain of named registrations whose last factory throws,
    /// `depth` deep, and the size of its message in bytes.
    private static func failureMessage(depth: Int) -> (Double, Int) {
        onLargeStack {
            let container = Container()
            for level in 0..<depth {
                let next = level + 1 < depth ? String(level + 1) : nil
                container.register(Link.self, name: String(level)) { r in
                    guard let next else { throw Refused() }
                    _ = try r.resolve(Link.self, name: next)
                    return Link()
                }
            }
            let start = Harness.now()
            var size = 0
            do { _ = try container.resolve(Link.self, name: "0") } catch let error as InjectionError {
                size = error.message.utf8.count
            } catch {}
            return (Double(Harness.now() - start) / 1e9, size)
        }
    }

    /// Runs `body` on a thread with a 512 MiB stack and returns its result.
    private static func onLargeStack<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Result>()
        let thread = Thread {
            box.value = body()
            done.signal()
        }
        thread.stackSize = 512 << 20
        thread.start()
        done.wait()
        return box.value!
    }

    private final class ResultBox<Value>: @unchecked Sendable {  // written once, before the signal
        var value: Value?
    }
}
