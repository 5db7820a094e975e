import AllocCounter
final class X {}
@inline(never) func mk() -> AnyObject { X() }
let a = alloc_counter_thread_allocations()
var xs: [AnyObject] = []
for _ in 0..<100 { xs.append(mk()) }
let b = alloc_counter_thread_allocations()
print(alloc_counter_is_active(), b - a, alloc_counter_heap_in_use())
