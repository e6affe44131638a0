import BeeHive

// Linked against libBeeHive.so while carrying its own runtime: the host refuses to start.
HiveHost().main { _ in print("two runtimes ran") }
