import Injector

protocol Clock: Sendable { var now: Int { get } }
struct SystemClock: Clock { var now: Int { 42 } }
protocol NoteStore { var clock: any Clock { get } }
final class FileStore: NoteStore { let clock: any Clock; init(clock: any Clock) { self.clock = clock } }
protocol A {}; protocol B {}; protocol C {}
final class AImpl: A { init(_ b: any B) {} }
final class BImpl: B { init(_ c: any C) {} }
final class CImpl: C { init(_ a: any A) {} }
final class Parent { var child: Child?; init() {} }
final class Child { var parent: Parent?; init() {} }

let container = Container()
container.register((any Clock).self, scope: .singleton) { _ in SystemClock() }
container.register((any NoteStore).self) { r in try FileStore(clock: r.resolve((any Clock).self)) }
container.register((any A).self) { r in try AImpl(r.resolve((any B).self)) }
container.register((any B).self) { r in try BImpl(r.resolve((any C).self)) }
container.register((any C).self) { r in try CImpl(r.resolve((any A).self)) }
container.register(String.self) { (_, n: Int, s: String) in "\(s)\(n)" }
container.register(Parent.self, scope: .graph) { r in let p = Parent(); p.child = try r.resolve(Child.self); return p }
container.register(Child.self, scope: .graph) { _ in Child() }.onResolved { r, c in c.parent = try r.resolve(Parent.self) }
container.register((any Clock).self, name: "utc") { _ in SystemClock() }
try container.finishRegistration()
print(try container.resolve((any NoteStore).self).clock.now)
print(try container.resolve(String.self, arguments: 3, "x"))
let p = try container.resolve(Parent.self); print(p.child!.parent === p)
do { _ = try container.resolve((any A).self) } catch { print(error) }
do { _ = try container.resolve((any NoteStore).self, name: "x") } catch { print(error) }
container.register((any Clock).self) { _ in SystemClock() }
do { _ = try container.resolve((any Clock).self) } catch { print(error) }
