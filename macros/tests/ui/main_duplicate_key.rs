rtcompare::main!(allocator = std::alloc::System, allocator = std::alloc::System);
