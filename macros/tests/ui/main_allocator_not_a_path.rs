rtcompare::main!(allocator = "mimalloc");
