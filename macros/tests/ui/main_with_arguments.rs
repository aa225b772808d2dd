rtcompare::main!(threads = 2);
