// Runs every comparison registered in this package's src/ (and any declared here).
rtcompare::main!();
