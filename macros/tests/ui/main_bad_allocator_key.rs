rtcompare::main!(alloc = std::alloc::System);
