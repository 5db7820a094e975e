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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole Markdown output: a heading, one table per section, and the footnotes.
enum Summary {
    static func markdown(_ reports: [Report], _ settings: Settings, seconds: Double) -> String {
        var comparisons: [Section: [ComparisonRow]] = [:]
        var scaling: [ScalingRow] = []
        var ratioTables: [RatioTable] = []
        for report in reports {
            switch report {
            case .comparison(let section, let rows): comparisons[section, default: []] += rows
            case .scaling(let rows): scaling += rows
            case .ratios(let tables): ratioTables += tables
            }
        }

        var parts = ["## Injector benchmarks", setup(settings, seconds: seconds)]
        if settings.smoke {
            parts.append("> **Smoke run**: tiny iteration counts; the numbers below mean nothing.")
        }
        let judged = !settings.smoke
        for section in Section.allCases {
            guard let rows = comparisons[section] else { continue }
            parts.append("### " + section.title)
            parts.append(Table.comparison(rows, judged: judged).render())
        }
        if !scaling.isEmpty {
            parts.append("### Two threads on one shared container (case G)")
            parts.append(Table.scaling(scaling, judged: judged).render())
            // Direct construction shares nothing between threads, so it is the control: when it
            // does not scale, something else was using the second core.
            if judged, let control = scaling.first(where: \.isControl), control.wallRatio > controlLimit {
                parts.append(
                    "> **Warning**: direct construction, which shares nothing between threads, has a wall ratio "
                        + "of \(Format.ratio(control.wallRatio)): the second core was busy, so case G says little "
                        + "about the containers in this run."
                )
            }
        }
        if judged, let line = targets(Section.allCases.flatMap { comparisons[$0] ?? [] }, scaling) {
            parts.append(line)
        }
        for table in ratioTables {
            parts.append("### " + table.title)
            parts.append(Table.ratios(table, judged: !settings.smoke).render())
        }
        parts.append(([footnotes(settings)] + ratioTables.compactMap(\.note)).joined(separator: "\n"))
        return parts.joined(separator: "\n\n")
    }

    private static func setup(_ settings: Settings, seconds: Double) -> String {
        #if DEBUG
        let build = "**debug** build"
        #else
        let build = "release build"
        #endif
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        let batches =
            settings.fixedIterations.map { "batches of \($0) operations" }
            ?? "batches of ~\(settings.targetBatchNanoseconds / 1_000_000) ms"
        return "\(build), \(cores) cores, load average \(loadAverage()) at the end; "
            + "A–F: \(Format.plural(settings.repetitions, "repetition")) of \(batches) per contender, "
            + "contenders alternating, median reported; G: \(Format.plural(settings.threadRepetitions, "repetition")); "
            + preemption(settings) + "took \(Format.fixed(seconds, 1)) s (checksum \(blackHoleTotal % 1000))."
    }

    /// How many timed runs were repeated because another process took the core.
    private static func preemption(_ settings: Settings) -> String {
        guard settings.repeatsPreemptedRuns else { return "runs not repeated after preemption; " }
        let count = Harness.runCount
        return "\(count.rerun) of \(count.timed) timed runs repeated because another process took the core; "
    }

    /// The 1-minute load average: other work on the machine skews case G most.
    private static func loadAverage() -> String {
        var loads = [Double](repeating: 0, count: 3)
        return getloadavg(&loads, 3) > 0 ? Format.fixed(loads[0], 2) : "unknown"
    }

    /// Case G's control (direct construction) above this wall ratio means the second core was busy.
    private static let controlLimit = 1.3

    /// One line counting the targets of issue 9 §3 met in this run, naming those missed. Case G's
    /// are left out when its control says the second core was busy.
    private static func targets(_ rows: [ComparisonRow], _ scaling: [ScalingRow]) -> String? {
        var met = 0
        var missed: [String] = []
        for row in rows {
            guard let target = row.target else { continue }
            if Format.meets(row.judgedValue, target.limit) {
                met += 1
            } else {
                let value = row.judgedValue.map { Format.measurement($0) + target.unit } ?? "–"
                missed.append("\(row.label) (\(value))")
            }
        }
        let control = scaling.first(where: \.isControl)?.wallRatio ?? 1
        let busy = control > controlLimit
        for row in scaling where !busy {
            guard let target = row.target else { continue }
            if Format.meets(row.wallRatio, target) {
                met += 1
            } else {
                missed.append("G. \(row.label) (\(Format.ratio(row.wallRatio)))")
            }
        }
        let total = met + missed.count
        guard total > 0 else { return nil }
        let unjudged =
            busy && scaling.contains { $0.target != nil }
            ? " G's are not counted: its control's wall ratio is \(Format.ratio(control)), the second core was busy."
            : ""
        return "**Targets** (issue 9 §3, printed, never enforced): \(met) of \(total) met"
            + (missed.isEmpty ? "." : "; missed: " + missed.joined(separator: "; ") + ".") + unjudged
    }

    private static func footnotes(_ settings: Settings) -> String {
        var notes = [
            "- **Direct**: what a person writes without a container, returned as the protocol from an "
                + "`@inline(never)` function so the optimiser can neither delete the work nor fold it into the "
                + "loop: B is `TreeAImpl(b: TreeBImpl(d: TreeDImpl()), c: TreeCImpl())`; C returns an instance "
                + "stored at start-up; D makes D once and passes it to B and C; E passes the arguments to the "
                + "initialiser; H makes the request's state, two handlers, and disposes the state at the end. "
                + "The baseline of every target.",
            "- **Closure-wired**: factory closures made by an `@inline(never)` function, one per type, each "
                + "calling the closures it needs (`let makeB: () -> any TreeB = { TreeBImpl(d: makeD()) }`); "
                + "the singleton is a closure returning a stored instance. What a hand-rolled service locator "
                + "does; the benchmark's only baseline before issue 9.",
            "- **Injector ÷ direct**: what the container costs over direct construction (1.00× = free); its "
                + "**Target** (issue 9 §3) is marked ✓ or ✗, never enforced. **Injector ÷ closure-wired**: the "
                + "same against closures. **Swinject ÷ Injector**: how many times faster Injector is than "
                + "Swinject (above 1.00× Injector wins).",
            "- Every contender builds the same objects behind the same protocols; each case checks the graph "
                + "(sharing, arguments, disposal) before timing. Containers are set up, and Injector's "
                + "`finishRegistration()` called, before timing. Swinject registrations use `.transient`, "
                + "`.graph` or `.container` to match Injector's lifetimes. D is timed twice: with all four "
                + "services `.graph` (the diamond issue 9 measures), and as before issue 9, with only the shared "
                + "D `.graph`.",
        ]
        if Harness.countsAllocations {
            notes.append(
                "- **Allocations** (I / S / D / C = Injector / Swinject / direct / closure-wired): "
                    + "`malloc`/`calloc`/`realloc` calls per operation on the calling thread, counted in one "
                    + "extra untimed batch (of \(settings.allocationIterations)). Direct's is the floor: one per "
                    + "object built."
            )
        } else {
            notes.append("- Allocations are not counted on this platform.")
        }
        notes += [
            "- **F**: N distinct types (`final class S0001`…), registered into a fresh container per "
                + "repetition; registration time includes Injector's `finishRegistration()`. Target: ≤ 150 ns "
                + "per registration at every N, and flat in N: ns per registration at the largest N ÷ at the "
                + "smallest ≤ 1.50× (the `register, N = … ÷ N = …` row, each contender's own ratio). Direct "
                + "construction registers nothing (–); its first resolve is `T()`, T opened from the table of "
                + "metatypes as every contender's is. Closure-wired \"registration\" fills a "
                + "`[ObjectIdentifier: () -> AnyObject]` dictionary and resolves by lookup, call and unchecked "
                + "downcast. First resolve: every type once, right after registration; target ≤ 3.00× direct. "
                + "Heap growth: `mallinfo2()` in-use bytes (arena + mmapped) after registration minus before, ÷ N, "
                + "median of the repetitions.",
            "- **G**: each thread makes case B's graph the same fixed number of times; wall ratio = wall "
                + "time of 2 threads (2× the work) ÷ wall time of 1 thread (1× the work), median over "
                + "repetitions; 1.00× is perfect scaling on 2 cores, 2.00× means the threads take turns. "
                + "Target for Injector, with `finishRegistration()` called and without (an open registry): "
                + "≤ 1.15×. Swinject is resolved through `container.synchronize()`, its only thread-safe "
                + "resolver, which serialises every resolve behind one recursive lock.",
        ]
        return notes.joined(separator: "\n")
    }
}
